import { createHash, timingSafeEqual } from 'node:crypto';
import { randomString } from './ids.ts';

// Secrets handed to browsers and assistants: a kind prefix and 43 random base62 characters
// (256 bits). Only their SHA-256 is stored; the prefix lets a malformed value be refused unread.

export const SECRET_KINDS = {
  accessToken: 'pla_',
  refreshToken: 'plr_',
  authorizationCode: 'plc_',
  session: 'pls_',
  passwordReset: 'plw_',
  invitation: 'pli_',
} as const;
export type SecretKind = keyof typeof SECRET_KINDS;
const BODY = 43;

export const newSecret = (kind: SecretKind) => SECRET_KINDS[kind] + randomString(BODY);

export const isWellFormedSecret = (kind: SecretKind, value: string) =>
  value.length === SECRET_KINDS[kind].length + BODY && value.startsWith(SECRET_KINDS[kind]) && /^[A-Za-z0-9_]+$/.test(value);

export const hashSecret = (value: string) => createHash('sha256').update(value).digest('hex');

/** PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)) compared in constant time with the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
