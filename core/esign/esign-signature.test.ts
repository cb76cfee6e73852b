import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newEsignSecret, signEsignNotification, verifyEsignSignature } from './esign-signature.ts';

describe('e-signature notification signatures', () => {
  const secret = newEsignSecret();
  const body = '{"event_id":"ev_1","envelope_id":"env_1","status":"signed","occurred_at":"2026-11-22T10:00:00Z"}';
  const now = new Date('2026-11-22T10:00:30Z');
  const t = Math.floor(now.getTime() / 1000);

  it('makes esec_ secrets of 32 random bytes in base64url', () => {
    expect(secret).toMatch(/^esec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(5), 'base64url')).toHaveLength(32);
  });

  it('accepts the HMAC-SHA256 of "<t>.<body>" keyed with the secret string', () => {
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signEsignNotification(secret, body, t)).toBe(`t=${t},v1=${v1}`);
    expect(verifyEsignSignature(secret, `t=${t},v1=${v1}`, body, now)).toBe(true);
    expect(verifyEsignSignature(secret, `t=${t},v1=${'0'.repeat(64)},v1=${v1.toUpperCase()}`, body, now)).toBe(true);
  });

  it('refuses another body, secret or timestamp, stale or future times and malformed headers', () => {
    const header = signEsignNotification(secret, body, t);
    expect(verifyEsignSignature(secret, header, `${body} `, now)).toBe(false);
    expect(verifyEsignSignature(newEsignSecret(), header, body, now)).toBe(false);
    expect(verifyEsignSignature(secret, header.replace(`t=${t}`, `t=${t + 1}`), body, now)).toBe(false);
    expect(verifyEsignSignature(secret, signEsignNotification(secret, body, t - 301), body, now)).toBe(false);
    expect(verifyEsignSignature(secret, signEsignNotification(secret, body, t + 301), body, now)).toBe(false);
    expect(verifyEsignSignature(secret, signEsignNotification(secret, body, t - 299), body, now)).toBe(true);
    for (const bad of ['', 'v1=abc', `t=${t}`, `t=${t},t=${t},${header.split(',')[1]}`, `t=-1,${header.split(',')[1]}`, 'garbage']) {
      expect(verifyEsignSignature(secret, bad, body, now), bad).toBe(false);
    }
  });
});
