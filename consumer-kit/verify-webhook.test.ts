import { createHmac, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signatureHeaders } from '../workers/signing.ts';
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationReason } from './index.ts';

const stripe = new Stripe('sk_test_consumer_kit');

const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
const SECRET = newSecret();
const OTHER = newSecret();
const NOW = 1_795_341_700;

const envelope = {
  id: 'evt-need.created-n_82f1-v1',
  type: 'need.created',
  version: '1',
  occurred_at: '2026-11-22T10:00:00.000Z',
  organization_id: null,
  data: { id: 'n_82f1', title: 'Façade thermique — équipe', required_expertise: ['bim'], remote_allowed: true },
};
const BODY = JSON.stringify(envelope);

/** The scheme, written out: hex HMAC-SHA256 of "<t>.<body>" keyed with the whole secret string. */
function sign(body: string | Buffer, secret: string, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}
function header(body: string | Buffer, secrets: string[], t = NOW): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${sign(body, s, t)}`)].join(',');
}

/** The reason of the WebhookVerificationError thrown by `fn` (fails when nothing is thrown). */
function reasonOf(fn: () => unknown): WebhookVerificationReason {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error('expected a WebhookVerificationError, nothing was thrown');
}

describe('verifyWebhook', () => {
  it('returns the parsed envelope of a correctly signed delivery', () => {
    const result = verifyWebhook(BODY, { 'x-service-signature': header(BODY, [SECRET]) }, SECRET, { now: NOW });
    expect(result).toEqual(envelope);
  });

  it('refuses a tampered body', () => {
    const sig = header(BODY, [SECRET]);
    const tampered = BODY.replace('"remote_allowed":true', '"remote_allowed":false');
    expect(tampered).not.toBe(BODY);
    expect(reasonOf(() => verifyWebhook(tampered, { 'x-service-signature': sig }, SECRET, { now: NOW }))).toBe('signature_mismatch');
  });

  it('refuses a delivery signed with another secret', () => {
    const sig = header(BODY, [OTHER]);
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': sig }, SECRET, { now: NOW }))).toBe('signature_mismatch');
  });

  it('refuses the secret body alone (the key is the whole whsec_ string)', () => {
    const sig = header(BODY, [SECRET.slice('whsec_'.length)]);
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': sig }, SECRET, { now: NOW }))).toBe('signature_mismatch');
  });

  it('accepts either secret when two v1 entries are sent during a rotation', () => {
    const sig = header(BODY, [OTHER, SECRET]);
    expect(sig.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhook(BODY, { 'x-service-signature': sig }, SECRET, { now: NOW }).id).toBe(envelope.id);
    expect(verifyWebhook(BODY, { 'x-service-signature': sig }, OTHER, { now: NOW }).id).toBe(envelope.id);
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': sig }, newSecret(), { now: NOW }))).toBe('signature_mismatch');
  });

  it("accepts any of the consumer's own secrets (array)", () => {
    const sig = header(BODY, [SECRET]);
    expect(verifyWebhook(BODY, { 'x-service-signature': sig }, [OTHER, SECRET], { now: NOW }).id).toBe(envelope.id);
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': sig }, [OTHER], { now: NOW }))).toBe('signature_mismatch');
  });

  it('refuses a timestamp older than the tolerance, accepts one just inside it', () => {
    const headers = { 'x-service-signature': header(BODY, [SECRET], NOW - 301) };
    expect(reasonOf(() => verifyWebhook(BODY, headers, SECRET, { now: NOW }))).toBe('timestamp_out_of_range');
    expect(verifyWebhook(BODY, headers, SECRET, { now: NOW - 1 }).id).toBe(envelope.id);
    expect(verifyWebhook(BODY, headers, SECRET, { now: NOW, toleranceSeconds: 600 }).id).toBe(envelope.id);
  });

  it('refuses a timestamp more than the tolerance in the future', () => {
    const headers = { 'x-service-signature': header(BODY, [SECRET], NOW + 301) };
    expect(reasonOf(() => verifyWebhook(BODY, headers, SECRET, { now: NOW }))).toBe('timestamp_out_of_range');
    expect(verifyWebhook(BODY, headers, SECRET, { now: NOW + 1 }).id).toBe(envelope.id);
  });

  it('defaults now to the current clock', () => {
    const t = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(BODY, { 'x-service-signature': header(BODY, [SECRET], t) }, SECRET).id).toBe(envelope.id);
    const stale = { 'x-service-signature': header(BODY, [SECRET], t - 3600) };
    expect(reasonOf(() => verifyWebhook(BODY, stale, SECRET))).toBe('timestamp_out_of_range');
  });

  it('refuses a missing or empty header', () => {
    expect(reasonOf(() => verifyWebhook(BODY, {}, SECRET, { now: NOW }))).toBe('missing_header');
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': '' }, SECRET, { now: NOW }))).toBe('missing_header');
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': undefined }, SECRET, { now: NOW }))).toBe('missing_header');
  });

  it('refuses malformed headers', () => {
    const v1 = `v1=${sign(BODY, SECRET, NOW)}`;
    const cases = [
      'garbage',
      v1, // no t=
      `t=${NOW}`, // no v1=
      `t=${NOW},v0=${sign(BODY, SECRET, NOW)}`, // only an unknown scheme
      `t=soon,${v1}`,
      `t=-5,${v1}`,
      `t=${NOW},v1=zz`,
      `t=${NOW},v1=${sign(BODY, SECRET, NOW).slice(2)}`,
      `t=${NOW},,${v1}`,
      `t=${NOW},=x,${v1}`,
    ];
    for (const value of cases) {
      expect(
        reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': value }, SECRET, { now: NOW })),
        value,
      ).toBe('malformed_header');
    }
  });

  it('refuses a duplicate t= entry, even when one of them is the signed one', () => {
    const value = `t=${NOW},t=${NOW - 10_000},v1=${sign(BODY, SECRET, NOW)}`;
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': value }, SECRET, { now: NOW }))).toBe('malformed_header');
  });

  it('ignores unknown schemes next to a valid v1 and tolerates spaces between entries', () => {
    const value = `t=${NOW}, v0=abc, v1=${sign(BODY, SECRET, NOW)}`;
    expect(verifyWebhook(BODY, { 'x-service-signature': value }, SECRET, { now: NOW }).id).toBe(envelope.id);
  });

  it('refuses a signed body that is not JSON, or not an envelope', () => {
    for (const body of ['not json', '[1,2]', 'null', '{"id":"evt-1","type":"need.created"}']) {
      const headers = { 'x-service-signature': header(body, [SECRET]) };
      expect(
        reasonOf(() => verifyWebhook(body, headers, SECRET, { now: NOW })),
        body,
      ).toBe('malformed_body');
    }
  });

  it('refuses a signed body that is not valid UTF-8', () => {
    const body = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const headers = { 'x-service-signature': header(body, [SECRET]) };
    expect(reasonOf(() => verifyWebhook(body, headers, SECRET, { now: NOW }))).toBe('malformed_body');
  });

  it('checks the signature before the body: an unsigned non-JSON body is a signature mismatch', () => {
    const headers = { 'x-service-signature': header(BODY, [SECRET]) };
    expect(reasonOf(() => verifyWebhook('not json', headers, SECRET, { now: NOW }))).toBe('signature_mismatch');
  });

  it('accepts a Buffer and a Uint8Array view of the raw body', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    const headers = { 'x-service-signature': header(bytes, [SECRET]) };
    expect(verifyWebhook(bytes, headers, SECRET, { now: NOW })).toEqual(envelope);
    // A view into a larger buffer: only its own bytes count.
    const padded = Buffer.concat([Buffer.from('xxxx'), bytes, Buffer.from('yyyy')]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 4, bytes.length);
    expect(verifyWebhook(view, headers, SECRET, { now: NOW })).toEqual(envelope);
  });

  it('accepts a fetch Headers and looks plain-object headers up case-insensitively', () => {
    const value = header(BODY, [SECRET]);
    const fetchHeaders = new Headers({ 'X-Service-Signature': value, 'Content-Type': 'application/json' });
    expect(verifyWebhook(BODY, fetchHeaders, SECRET, { now: NOW }).id).toBe(envelope.id);
    expect(verifyWebhook(BODY, { 'X-Service-Signature': value }, SECRET, { now: NOW }).id).toBe(envelope.id);
    expect(verifyWebhook(BODY, { 'x-service-signature': [value] }, SECRET, { now: NOW }).id).toBe(envelope.id);
    expect(reasonOf(() => verifyWebhook(BODY, new Headers(), SECRET, { now: NOW }))).toBe('missing_header');
  });

  it("verifies a header produced by Stripe's generateTestHeaderString (independent implementation)", () => {
    const value = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: NOW });
    expect(value).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(BODY, { 'x-service-signature': value }, SECRET, { now: NOW })).toEqual(envelope);
    expect(reasonOf(() => verifyWebhook(BODY, { 'x-service-signature': value }, OTHER, { now: NOW }))).toBe('signature_mismatch');
    // And the other way round: what this kit accepts, Stripe's verifier accepts too.
    const ours = header(BODY, [SECRET]);
    expect(stripe.webhooks.constructEvent(BODY, ours, SECRET, 300, undefined, NOW)).toMatchObject({ id: envelope.id });
  });

  it("verifies the headers of Packline's own signer, one secret or two during a rotation", () => {
    const single = signatureHeaders(BODY, [SECRET], NOW);
    expect(verifyWebhook(BODY, single, SECRET, { now: NOW })).toEqual(envelope);
    const rotation = signatureHeaders(BODY, [OTHER, SECRET], NOW);
    expect(verifyWebhook(BODY, rotation, SECRET, { now: NOW }).id).toBe(envelope.id);
    expect(verifyWebhook(BODY, rotation, OTHER, { now: NOW }).id).toBe(envelope.id);
  });

  it('throws a TypeError (not a verification error) when no usable secret is given', () => {
    const headers = { 'x-service-signature': header(BODY, [SECRET]) };
    expect(() => verifyWebhook(BODY, headers, [], { now: NOW })).toThrow(TypeError);
    expect(() => verifyWebhook(BODY, headers, '', { now: NOW })).toThrow(TypeError);
    expect(() => verifyWebhook(BODY, headers, SECRET, { now: NOW, toleranceSeconds: -1 })).toThrow(TypeError);
  });

  it('never puts the secret or the signature in the error message', () => {
    const sig = header(BODY, [OTHER]);
    try {
      verifyWebhook(BODY, { 'x-service-signature': sig }, SECRET, { now: NOW });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain(sig.slice(-64));
      expect((error as Error).name).toBe('WebhookVerificationError');
    }
  });
});
