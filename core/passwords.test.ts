import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD_COST } from '../test/support/setup.ts';
import { checkPassword, hashPassword, PASSWORD_COST, setPasswordCost, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  // The suite's setup lowers the cost for every other file; here the service's own applies.
  beforeAll(() => setPasswordCost(PASSWORD_COST));
  // Test files share their worker's modules (vitest.config.ts): the next file gets the suite's cost back.
  afterAll(() => setPasswordCost(TEST_PASSWORD_COST));

  it('hashes with scrypt and a fresh salt each time, and verifies', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', a)).toBe(false);
  });

  it('verifies a hash by the cost it records, whatever the cost of new hashes', async () => {
    setPasswordCost(TEST_PASSWORD_COST);
    const cheap = await hashPassword('correct horse battery staple');
    setPasswordCost(PASSWORD_COST);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('correct horse battery staple', cheap)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', cheap)).toBe(false);
  });

  it('refuses a missing or unreadable hash (after the same work)', async () => {
    expect(await verifyPassword('anything at all', null)).toBe(false);
    expect(await verifyPassword('anything at all', 'plain-text')).toBe(false);
  });

  it('asks for 10 to 200 characters', () => {
    expect(() => checkPassword('password', 'short')).toThrow(/at least 10/);
    expect(() => checkPassword('password', 'x'.repeat(201))).toThrow(/at most 200/);
    expect(checkPassword('password', 'long enough now')).toBe('long enough now');
  });
});
