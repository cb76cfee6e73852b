import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { invalidInput } from './errors.ts';
import { hasControlCharacters } from './ids.ts';

// Member passwords: scrypt with a random 16-byte salt per hash, stored as
// `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>` so the cost can rise later without a migration.

export interface PasswordCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** What new hashes cost: about 32 MiB and tens of milliseconds per derivation. */
export const PASSWORD_COST: PasswordCost = { N: 2 ** 15, r: 8, p: 1 };
let COST = PASSWORD_COST;

/**
 * Sets the cost of new hashes (and of the decoy derivation for unknown accounts) in this process.
 * The test suite lowers it, which signs in thousands of times; stored hashes carry their own cost,
 * so they verify whatever it is. Nothing in the service calls it.
 */
export function setPasswordCost(cost: PasswordCost): void {
  COST = cost;
}
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** What is wrong with a new password ("needs at least 10 characters"), or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `needs at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (hasControlCharacters(password)) return 'must not contain control characters';
  return null;
}

/** Refuses passwords that are too short or too long, naming the field. */
export function checkPassword(field: string, password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw invalidInput(field, `${field} ${problem}`);
  return password;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;

/**
 * Constant-time check of `password` against a stored hash. A missing or unreadable hash still
 * costs one derivation, so an unknown account answers in the time a known one does.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const match = stored ? STORED.exec(stored) : null;
  if (!match) {
    await derive(password, randomBytes(16), COST);
    return false;
  }
  const [, n, r, p, salt, hash] = match;
  const expected = Buffer.from(hash!, 'base64url');
  const key = await derive(password, Buffer.from(salt!, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
