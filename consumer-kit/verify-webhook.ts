// Consumer kit: verification of Packline's standard-JSON webhook deliveries
// (docs/service-contract.md#consumer-rules, docs/design.md#webhook-signing).
//
// Depends on `node:crypto` only (the envelope import is a type). The scheme is byte-compatible
// with Stripe's: `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256("<t>.<raw body>")>`,
// keyed with the UTF-8 bytes of the whole `whsec_…` string; two `v1=` entries during a rotation.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { WebhookEnvelope } from '../core/webhooks/contract.ts';

export type { WebhookEnvelope };

/** Name of the signature header (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'x-service-signature';

/** Default tolerance of the signed timestamp, in seconds (five minutes, docs/service-contract.md#consumer-rules). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Why a delivery was refused. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_range'
  | 'signature_mismatch'
  | 'malformed_body';

/**
 * A delivery that must not be trusted. Answer it with a 4xx (401 is customary) and do not act on
 * it. `reason` is safe to log or return; the message never contains a secret or a signature.
 */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export interface VerifyOptions {
  /**
   * Largest accepted distance, in seconds, between the signed timestamp and `now`, in both
   * directions (older: a replay; newer: a clock far ahead).
   * @default 300
   */
  toleranceSeconds?: number;
  /**
   * The current time in unix seconds; for tests.
   * @default Date.now() / 1000
   */
  now?: number;
}

/** Anything that carries request headers: Node's `req.headers`, a plain object or a fetch `Headers`. */
export type WebhookHeaders = IncomingHttpHeaders | Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies `X-Service-Signature` over the raw body in constant time (`crypto.timingSafeEqual` on
 * equal-length buffers), accepts when ANY `v1` entry matches ANY given secret (`secret` may be a
 * string or an array, for the consumer's own rotation), rejects timestamps older than
 * `toleranceSeconds` (and more than `toleranceSeconds` in the future), and returns the parsed
 * envelope.
 *
 * Pass the body exactly as received (the bytes, or the string decoded from them): a body parsed
 * and re-serialized by a framework no longer matches its signature.
 *
 * `headers`: a plain object (Node `IncomingHttpHeaders`; lookup is case-insensitive) or a fetch
 * `Headers`.
 *
 * The signature is checked before the timestamp, so an unsigned request is always a
 * `signature_mismatch` whatever its timestamp. The envelope's shape is checked, not its `type`:
 * ignore (and answer 2xx to) kinds your code does not know, new ones may be added.
 *
 * @throws WebhookVerificationError (`reason` tells why) when the delivery must be refused.
 * @throws TypeError on a programming error: no secret, an empty secret, a negative tolerance.
 */
export function verifyWebhook(
  rawBody: string | Buffer | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyOptions = {},
): WebhookEnvelope {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('verifyWebhook needs at least one non-empty signing secret');
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a finite number >= 0');
  }
  const now = options.now ?? Date.now() / 1000;
  if (!Number.isFinite(now)) throw new TypeError('now must be a finite number of unix seconds');

  const header = headerValue(headers, SIGNATURE_HEADER);
  if (header === undefined || header.trim() === '') {
    throw new WebhookVerificationError('missing_header', `Missing ${SIGNATURE_HEADER} header`);
  }
  const { timestamp, signatures } = parseSignatureHeader(header);

  const body = toBytes(rawBody);
  let matched = false;
  for (const key of secrets) {
    const expected = createHmac('sha256', key).update(`${timestamp}.`, 'utf8').update(body).digest();
    for (const candidate of signatures) {
      // Both are 32 bytes (the parser only keeps 64-hex-digit entries); every pair is compared.
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  if (!matched) {
    throw new WebhookVerificationError('signature_mismatch', 'No signature matches the body and the signing secret');
  }

  if (timestamp < now - tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_range', 'The signed timestamp is too old');
  }
  if (timestamp > now + tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_range', 'The signed timestamp is in the future');
  }

  return parseEnvelope(body);
}

/**
 * `t=<digits>` exactly once, one or more `v1=<64 hex digits>`; other schemes (`v0=`, …) are
 * ignored for forward compatibility. Spaces around entries are tolerated (a proxy may join
 * repeated headers with `, `).
 */
function parseSignatureHeader(header: string): { timestamp: number; signatures: Buffer[] } {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const rawEntry of header.split(',')) {
    const entry = rawEntry.trim();
    const eq = entry.indexOf('=');
    if (eq <= 0) throw malformed('an entry is not key=value');
    const key = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('more than one t= entry');
      if (!/^\d{1,12}$/.test(value)) throw malformed('t= is not unix seconds');
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) throw malformed('v1= is not a hex SHA-256 HMAC');
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined) throw malformed('no t= entry');
  if (signatures.length === 0) throw malformed('no v1= entry');
  return { timestamp, signatures };
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${detail}`);
}

/** Case-insensitive lookup; a repeated header (array) is joined with `,` like HTTP does. */
function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  let found: string | string[] | undefined = record[name];
  if (found === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === name) {
        found = record[key];
        break;
      }
    }
  }
  if (Array.isArray(found)) return found.length === 0 ? undefined : found.join(',');
  return typeof found === 'string' ? found : undefined;
}

function toBytes(rawBody: string | Buffer | Uint8Array): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new TypeError('rawBody must be a string, a Buffer or a Uint8Array');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The authenticated body as an envelope; anything else is `malformed_body`. */
function parseEnvelope(body: Buffer): WebhookEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body));
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not UTF-8 JSON');
  }
  if (!isObject(value)) throw badEnvelope('not a JSON object');
  if (typeof value.id !== 'string' || value.id === '') throw badEnvelope('id');
  if (typeof value.type !== 'string' || value.type === '') throw badEnvelope('type');
  if (typeof value.version !== 'string') throw badEnvelope('version');
  if (typeof value.occurred_at !== 'string') throw badEnvelope('occurred_at');
  if (value.organization_id !== null && typeof value.organization_id !== 'string') throw badEnvelope('organization_id');
  if (!isObject(value.data)) throw badEnvelope('data');
  return value as unknown as WebhookEnvelope;
}

function badEnvelope(field: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_body', `The body is not a webhook envelope (${field})`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
