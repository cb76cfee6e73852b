import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How far a notification's timestamp may be from the receiver's clock. */
export const ESIGN_TOLERANCE_SECONDS = 5 * 60;

/** A connection secret: `esec_` and the base64url of 32 random bytes. */
export const newEsignSecret = () => `esec_${randomBytes(32).toString('base64url')}`;

const TIMESTAMP = /^\d{1,12}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** `X-Esign-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` for `secret`. */
export function signEsignNotification(secret: string, rawBody: string, timestamp: number): string {
  return `t=${timestamp},v1=${digest(secret, String(timestamp), rawBody).toString('hex')}`;
}

/**
 * True when `header` carries a fresh timestamp and at least one `v1=` entry matching the HMAC of
 * `"<t>.<raw body>"` keyed with the UTF-8 bytes of `secret`. Comparisons run in constant time.
 */
export function verifyEsignSignature(secret: string, header: string, rawBody: string, now: Date): boolean {
  const parsed = parseHeader(header);
  if (!parsed) return false;
  if (Math.abs(now.getTime() / 1000 - Number(parsed.t)) > ESIGN_TOLERANCE_SECONDS) return false;
  const expected = digest(secret, parsed.t, rawBody);
  let matched = false;
  for (const candidate of parsed.v1) matched = timingSafeEqual(Buffer.from(candidate, 'hex'), expected) || matched;
  return matched;
}

function digest(secret: string, timestamp: string, rawBody: string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`).update(rawBody, 'utf8').digest();
}

/** `t=...,v1=...[,v1=...]`; unknown keys are ignored (room for future schemes), one `t` only. */
function parseHeader(header: string): { t: string; v1: string[] } | undefined {
  if (header.length > 1024) return undefined;
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !TIMESTAMP.test(value)) return undefined;
      t = value;
    } else if (key === 'v1' && HEX_SHA256.test(value)) v1.push(value);
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}
