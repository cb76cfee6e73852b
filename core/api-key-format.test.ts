import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format.ts';

describe('API key format', () => {
  it('generates distinct, well-formed live_ keys', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    expect(new Set(keys).size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^live_[0-9A-Za-z]{36}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('refuses a key with any single character changed (checksum)', () => {
    const key = generateApiKey();
    let refused = 0;
    for (let i = 5; i < key.length; i++) {
      const altered = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      if (!isWellFormedApiKey(altered)) refused++;
    }
    expect(refused).toBe(key.length - 5);
  });

  it.each(['', 'live_', 'whsec_Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA==', 'test_abc', `live_${'a'.repeat(36)}`, `${generateApiKey()} `])(
    'refuses %j',
    (value) => expect(isWellFormedApiKey(value)).toBe(false),
  );

  it('hashes with SHA-256 and shows only a short prefix', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(5, 15));
    expect(displayPrefix(key)).toBe(key.slice(0, 11));
  });
});
