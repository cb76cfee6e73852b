import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Uniform random string over `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
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
} as const;

/** Opaque resource id: a short prefix naming the kind, then 14 random lowercase characters. */
export const newId = (kind: keyof typeof ID_PREFIX) => ID_PREFIX[kind] + randomString(14, BASE36);

/** Longest id any resource may have (spec §8). */
export const MAX_ID_LENGTH = 120;
export const hasControlCharacters = (text: string) => /[\u0000-\u001f\u007f]/.test(text);

/** Whether a string can be an id at all; anything else is simply not found. */
export const isPlausibleId = (id: string) => id.length > 0 && id.length <= MAX_ID_LENGTH && !hasControlCharacters(id);

/** Organization ids are chosen by people: lowercase slugs. */
export const ORGANIZATION_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
