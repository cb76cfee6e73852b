import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signatureHeaders } from './signing.ts';

const stripe = new Stripe('sk_test_x');
const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({ id: 'evt-need.created-n_1-v1', type: 'need.created', data: { title: 'Été & <ça>' } });

describe('newSigningSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });
});

describe('signatureHeaders', () => {
  it('writes t and one lowercase-hex v1 per secret, no spaces', () => {
    const headers = signatureHeaders(body, [newSigningSecret(), newSigningSecret()], 1_795_341_600);
    expect(headers['x-service-signature']).toMatch(/^t=1795341600,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(headers['webhook-id']).toBe('evt-need.created-n_1-v1');
    expect(headers['webhook-timestamp']).toBe('1795341600');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  });

  it("verifies with Stripe's verifier", () => {
    const secret = newSigningSecret();
    const t = now();
    const headers = signatureHeaders(body, [secret], t);
    expect(stripe.webhooks.constructEvent(body, headers['x-service-signature']!, secret)).toMatchObject({ id: 'evt-need.created-n_1-v1' });
  });

  it("verifies with Stripe's verifier at a fixed timestamp", () => {
    const secret = newSigningSecret();
    const header = signatureHeaders(body, [secret], 1_795_341_600)['x-service-signature']!;
    expect(stripe.webhooks.constructEvent(body, header, secret, 300, undefined, 1_795_341_700)).toMatchObject({ type: 'need.created' });
  });

  it('verifies with either secret during a rotation, in both families', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = signatureHeaders(body, [current, previous], now());
    for (const secret of [current, previous]) {
      expect(stripe.webhooks.constructEvent(body, headers['x-service-signature']!, secret)).toMatchObject({
        id: 'evt-need.created-n_1-v1',
      });
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'need.created' });
      // standardwebhooks also takes the secret without its prefix.
      expect(new Webhook(secret.slice('whsec_'.length)).verify(body, headers)).toMatchObject({ type: 'need.created' });
    }
  });

  it('fails both verifiers for another secret or a changed body', () => {
    const secret = newSigningSecret();
    const headers = signatureHeaders(body, [secret], now());
    const other = newSigningSecret();
    expect(() => stripe.webhooks.constructEvent(body, headers['x-service-signature']!, other)).toThrow(/signature/i);
    expect(() => new Webhook(other).verify(body, headers)).toThrow(/signature/i);
    const tampered = body.replace('Été', 'Ete');
    expect(() => stripe.webhooks.constructEvent(tampered, headers['x-service-signature']!, secret)).toThrow(/signature/i);
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(/signature/i);
  });

  it('uses an explicit id over the body', () => {
    const secret = newSigningSecret();
    const headers = signatureHeaders('{"hello":1}', [secret], now(), 'msg_1');
    expect(headers['webhook-id']).toBe('msg_1');
    expect(new Webhook(secret).verify('{"hello":1}', headers)).toEqual({ hello: 1 });
  });

  it('adds nothing without secrets and rejects malformed secrets without echoing them', () => {
    expect(signatureHeaders(body, [], now())).toEqual({});
    expect(() => signatureHeaders(body, ['sk_live_not_a_webhook_secret'], now())).toThrow(TypeError);
    expect(() => signatureHeaders(body, ['whsec_'], now())).toThrow(/whsec_<base64>/);
    expect(() => signatureHeaders(body, ['whsec_***'], now())).not.toThrow(/\*\*\*/);
    expect(() => signatureHeaders('[]', [newSigningSecret()], now())).toThrow(/no webhook id/i);
  });
});
