import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { maskSecret, maskUrl, SecretBox } from './secret-box.ts';

const newKey = () => randomBytes(32).toString('base64');
const box = SecretBox.fromBase64Key(newKey());

/** Flips one bit of byte `index` of the decoded part `part` (1 = IV, 2 = ciphertext, 3 = tag). */
function tamper(sealed: string, part: 1 | 2 | 3, index = 0): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[index % bytes.length]! ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  it.each([
    ['an ASCII secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['a URL', 'https://hooks.example.com/services/T000/B000/XXXXXXXX?token=abc'],
    ['the empty string', ''],
    ['non-ASCII text', 'clé secrète — 秘密 🔑'],
    ['a long value', 'x'.repeat(10_000)],
  ])('round-trips %s', (_, plaintext) => {
    const sealed = box.seal(plaintext);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{22}$/);
    expect(box.open(sealed)).toBe(plaintext);
    if (plaintext.length > 0) expect(sealed).not.toContain(plaintext);
  });

  it('round-trips with associated data', () => {
    const sealed = box.seal('whsec_abc', 'destination:wd_123');
    expect(box.open(sealed, 'destination:wd_123')).toBe('whsec_abc');
  });

  it('opens with another box built from the same key (base64 or base64url spelling)', () => {
    const raw = randomBytes(32);
    const sealed = SecretBox.fromBase64Key(raw.toString('base64')).seal('same key');
    expect(SecretBox.fromBase64Key(raw.toString('base64url')).open(sealed)).toBe('same key');
    expect(SecretBox.fromBase64Key(`  ${raw.toString('base64')}\n`).open(sealed)).toBe('same key');
  });

  it('seals equal plaintexts to distinct values (random IV)', () => {
    const sealed = Array.from({ length: 50 }, () => box.seal('same plaintext'));
    expect(new Set(sealed).size).toBe(50);
    expect(new Set(sealed.map((s) => s.split('.')[1])).size).toBe(50);
    for (const s of sealed) expect(box.open(s)).toBe('same plaintext');
  });

  it.each([
    ['IV', 1, 0],
    ['IV (last byte)', 1, 11],
    ['ciphertext', 2, 0],
    ['ciphertext (last byte)', 2, 1_000],
    ['tag', 3, 0],
    ['tag (last byte)', 3, 15],
  ] as const)('detects a flipped byte in the %s', (_, part, index) => {
    const sealed = box.seal('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    const altered = tamper(sealed, part, index);
    expect(altered).not.toBe(sealed);
    expect(() => box.open(altered)).toThrow(/authentication failed/);
  });

  it('refuses a changed version prefix', () => {
    const sealed = box.seal('secret');
    expect(() => box.open(sealed.replace(/^v1/, 'v2'))).toThrow(/unknown version 'v2'/);
  });

  it('refuses a value sealed under another key', () => {
    const sealed = box.seal('secret');
    const other = SecretBox.fromBase64Key(newKey());
    expect(() => other.open(sealed)).toThrow(/wrong key/);
  });

  it.each([
    ['sealed with, opened without', 'org_1', undefined],
    ['sealed without, opened with', undefined, 'org_1'],
    ['different values', 'org_1', 'org_2'],
  ])('refuses mismatched associated data (%s)', (_, sealedWith, openedWith) => {
    const sealed = box.seal('secret', sealedWith);
    expect(() => box.open(sealed, openedWith)).toThrow(/wrong associated data/);
  });

  it('refuses a truncated tag', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from(parts[3]!, 'base64url').subarray(0, 12).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(/tag must be 16 bytes/);
  });

  it('refuses a non-canonical base64url spelling of a part', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    // The tag's 22nd character carries 4 unused bits: change them, the decoded bytes stay equal.
    const last = parts[3]!.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    parts[3] = parts[3]!.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
    expect(() => box.open(parts.join('.'))).toThrow(/not base64url/);
  });

  it.each([
    ['empty', ''],
    ['not dotted', 'garbage'],
    ['too few parts', 'v1.aaaa.bbbb'],
    ['too many parts', 'v1.a.b.c.d'],
    ['bad characters', 'v1.!!!!.bbbb.cccc'],
    ['padded base64', 'v1.AAAAAAAAAAAAAAAA.AA==.AAAAAAAAAAAAAAAAAAAAAA'],
    ['short IV', 'v1.AAAA..AAAAAAAAAAAAAAAAAAAAAA'],
  ])('refuses malformed input (%s) with a readable message', (_, sealed) => {
    expect(() => box.open(sealed)).toThrow(/^Cannot open sealed secret: malformed value/);
  });

  it.each([
    ['empty', ''],
    ['16 bytes', randomBytes(16).toString('base64')],
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['64 bytes', randomBytes(64).toString('base64')],
    ['hex of 32 bytes', randomBytes(32).toString('hex')],
    ['not base64', 'this is not a key!'],
  ])('refuses a key that is not 32 bytes of base64 (%s)', (_, key) => {
    expect(() => SecretBox.fromBase64Key(key)).toThrow(/^Secret box key must be 32 bytes encoded as base64/);
  });

  it('does not reveal its key when inspected or serialized', () => {
    const key = randomBytes(32);
    const keyed = SecretBox.fromBase64Key(key.toString('base64'));
    const shown = inspect(keyed, { showHidden: true, depth: 10 }) + JSON.stringify(keyed);
    expect(shown).not.toContain(key.toString('base64'));
    expect(shown).not.toContain(key.toString('hex'));
  });
});

describe('maskUrl', () => {
  it.each([
    ['https://hooks.example.com/services/T0123/B0456/abcdefghij3f9', 'https://hooks.example.com/ser…••••3f9'],
    ['https://hooks.example.com:8443/a/very/long/path?token=0123456789', 'https://hooks.example.com:8443/a/v…••••789'],
    ['https://user:password@hooks.example.com/short', 'https://hooks.example.com/••••'],
    ['https://hooks.example.com/hooks/orders', 'https://hooks.example.com/••••ers'],
    ['https://hooks.example.com/hooks/crm', 'https://hooks.example.com/••••crm'],
    ['https://hooks.example.com/', 'https://hooks.example.com/'],
    ['https://hooks.example.com', 'https://hooks.example.com/'],
    ['https://[2606:4700::1111]/x', 'https://[2606:4700::1111]/••••'],
    ['not a url', '••••'],
  ])('masks %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it('never contains the middle of the path and query, nor credentials or fragment', () => {
    for (let i = 0; i < 100; i++) {
      const token = randomBytes(8 + (i % 40)).toString('hex');
      const url = `https://u:hunter2@hooks.example.com/services/${token}?sig=${token}#frag-${token}`;
      const masked = maskUrl(url);
      expect(masked.startsWith('https://hooks.example.com/')).toBe(true);
      expect(masked).not.toContain('hunter2');
      expect(masked).not.toContain('frag');
      const rest = masked.slice('https://hooks.example.com/'.length);
      // At most the first 3 and the last 3 characters of path + query are visible.
      const visible = rest.replace('…', '').replaceAll('•', '');
      expect(visible.length).toBeLessThanOrEqual(6);
      // No 4-character window from the token's middle appears.
      for (let j = 1; j + 4 < token.length - 3; j++) expect(rest).not.toContain(token.slice(j, j + 4));
    }
  });
});

describe('maskSecret', () => {
  it.each([
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_••••••••LaSw'],
    ['live_Ab12Cd34Ef56Gh78', 'live_••••••••Gh78'],
    ['no-prefix-secret-value-1234', '••••••••1234'],
    ['whsec_short', 'whsec_••••••••'],
    ['', '••••••••'],
  ])('masks %s', (secret, masked) => {
    expect(maskSecret(secret)).toBe(masked);
  });

  it('shows only the prefix and the last 4 characters', () => {
    for (let i = 0; i < 100; i++) {
      const body = randomBytes(24).toString('base64');
      const masked = maskSecret(`whsec_${body}`);
      // Exactly the prefix, a fixed mask and the last 4: nothing else of the body (the mask's
      // length says nothing of the secret's).
      expect(masked).toBe(`whsec_••••••••${body.slice(-4)}`);
    }
  });
});
