import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

// Bytes from the CSPRNG are drawn a few kilobytes at a time, as Node's own randomUUID does: one
// system call per id was a measurable share of the dispatcher's fan-out.
const entropy = Buffer.alloc(4_096);
let entropyUsed = entropy.length;

function randomByte(): number {
  if (entropyUsed === entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  const byte = entropy[entropyUsed]!;
  // Spent bytes are wiped so the pool never holds one twice.
  entropy[entropyUsed++] = 0;
  return byte;
}

/** Uniform random string over `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

export function toBase62(n: number, width: number): string {
  let out = '';
  let rest = n;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

export const ID_PREFIX = {
  need: 'n_',
  event: 'ev_',
  apiKey: 'key_',
  member: 'm_',
  pack: 'p_',
  private: 'x_',
  destination: 'dst_',
  delivery: 'dlv_',
  esignConnection: 'esc_',
  assistantClient: 'cli_',
  assistantGrant: 'grt_',
  invitation: 'inv_',
} as const;

/** Opaque resource id: a short prefix naming the kind, then 14 random lowercase characters. */
export const newId = (kind: keyof typeof ID_PREFIX) => ID_PREFIX[kind] + randomString(14, BASE36);

/**
 * An id that sorts by creation time: the prefix, the creation millisecond in base 36, then 10
 * random characters. For rows written in bulk (deliveries): consecutive ids land next to each
 * other in the primary-key index, so a commit rewrites a few index pages instead of one per row.
 */
export const newTimeOrderedId = (kind: keyof typeof ID_PREFIX, now = Date.now()) =>
  ID_PREFIX[kind] + now.toString(36).padStart(9, '0') + randomString(10, BASE36);

/** Longest id any resource may have (docs/service-contract.md#limits). */
export const MAX_ID_LENGTH = 120;
export const hasControlCharacters = (text: string) => /[\u0000-\u001f\u007f]/.test(text);

/** Whether a string can be an id at all; anything else is simply not found. */
export const isPlausibleId = (id: string) => id.length > 0 && id.length <= MAX_ID_LENGTH && !hasControlCharacters(id);

/** Organization ids are chosen by people: lowercase slugs. */
export const ORGANIZATION_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
