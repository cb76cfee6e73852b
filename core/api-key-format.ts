import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomString, toBase62 } from './ids.ts';

// `live_` + 30 random base62 characters (178 bits) + 6 base62 characters of CRC-32 over the
// rest. The checksum lets the service refuse a mistyped or truncated key without a database
// read; the hash is what is stored.

const PREFIX = 'live_';
const BODY = 30;
const CHECKSUM = 6;
const SHAPE = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY + CHECKSUM}}$`);

const checksum = (head: string) => toBase62(crc32(head), CHECKSUM);

export function generateApiKey(): string {
  const head = PREFIX + randomString(BODY);
  return head + checksum(head);
}

/** True when the string has the shape of a key and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!SHAPE.test(key)) return false;
  return checksum(key.slice(0, -CHECKSUM)) === key.slice(-CHECKSUM);
}

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** What lists show so a person can tell keys apart: `live_Ab12Cd…`. */
export const displayPrefix = (key: string) => key.slice(0, PREFIX.length + 6);
