// Webhook signatures: one scheme compatible with Stripe's verifiers, plus the Standard Webhooks one.
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const SECRET_PREFIX = 'whsec_';

export { newSigningSecret } from '../core/webhooks/signing-secret.ts';

/**
 * Signature headers for one standard-JSON delivery (docs/design.md#webhook-signing).
 *
 * - `x-service-signature: t=<timestamp>,v1=<hex>[,v1=<hex>]`: lowercase hex HMAC-SHA256 of
 *   `"<t>.<body>"` keyed with the UTF-8 bytes of the whole secret string (Stripe's scheme).
 * - `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>[ v1,<base64>]`: HMAC-SHA256
 *   of `"<id>.<t>.<body>"` keyed with the base64-decoded part after `whsec_` (Standard Webhooks).
 *
 * One entry per secret, in the order given (current first; two during a rotation). No secrets, no
 * headers. `id` defaults to the `id` field of the JSON body (the envelope id).
 *
 * @throws TypeError when a secret is not `whsec_<base64>`, or no id is given nor found in the body.
 */
export function signatureHeaders(
  body: string,
  secrets: string[],
  timestamp: number,
  id: string = envelopeId(body),
): Record<string, string> {
  if (secrets.length === 0) return {};
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('The signature timestamp must be a non-negative integer (unix seconds)');
  }
  let stripeEntries = '';
  let standardEntries = '';
  for (const secret of secrets) {
    const keys = signingKeys(secret);
    stripeEntries += `,v1=${createHmac('sha256', keys.stripe).update(`${timestamp}.`).update(body).digest('hex')}`;
    standardEntries += `${standardEntries ? ' ' : ''}v1,${createHmac('sha256', keys.standard).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
  }
  return {
    'x-service-signature': `t=${timestamp}${stripeEntries}`,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardEntries,
  };
}

interface SigningKeys {
  stripe: KeyObject;
  standard: KeyObject;
}

/** Keys imported once per secret: importing a raw key for every signature cost as much as the HMAC. */
const keysBySecret = new LRUCache<string, SigningKeys>({ max: 10_000 });

function signingKeys(secret: string): SigningKeys {
  let keys = keysBySecret.get(secret);
  if (keys === undefined) {
    keys = { stripe: createSecretKey(Buffer.from(secret, 'utf8')), standard: createSecretKey(standardKey(secret)) };
    keysBySecret.set(secret, keys);
  }
  return keys;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The Standard Webhooks key: the base64-decoded body of the secret. Never echoes the secret. */
function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length === 0) throw new TypeError(`A signing secret must look like ${SECRET_PREFIX}<base64>`);
  return key;
}

function envelopeId(body: string): string {
  let id: unknown;
  try {
    id = (JSON.parse(body) as { id?: unknown } | null)?.id;
  } catch {
    id = undefined;
  }
  if (typeof id !== 'string' || id === '') throw new TypeError('No webhook id given and none found in the body');
  return id;
}
