import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS, SignInLimits } from './sign-in-limits.ts';

describe(`SignInLimits (${process.env.REDIS_URL ? 'Redis' : 'memory'})`, () => {
  let redis: Redis | undefined;
  beforeAll(async () => {
    if (!process.env.REDIS_URL) return;
    redis = new Redis(process.env.REDIS_URL);
    if (redis.status !== 'ready') await once(redis, 'ready');
  });
  afterAll(() => redis?.disconnect());
  const limits = () => new SignInLimits({ redis, prefix: `packline-unit-${randomBytes(4).toString('hex')}` });

  it('counts every address of an IPv6 /64 as one client, for one account and over all accounts', async () => {
    const one = limits();
    const strict = SIGN_IN_LIMITS.addressAndAccount.points;
    for (let i = 1; i <= strict; i++) expect((await one.attempt(`2001:db8:a:b::${i}`, 'someone@example.org')).allowed).toBe(true);
    expect((await one.attempt('2001:db8:a:b::ffff', 'someone@example.org')).allowed).toBe(false);
    expect((await one.attempt('2001:db8:a:c::1', 'someone@example.org')).allowed).toBe(true);

    const spray = limits();
    const wide = SIGN_IN_LIMITS.address.points;
    for (let i = 1; i <= wide; i++)
      expect((await spray.attempt(`2001:db8:f:f::${i.toString(16)}`, `n${i}@example.org`)).allowed).toBe(true);
    const refused = await spray.attempt('2001:db8:f:f:1:2:3:4', 'fresh@example.org');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeGreaterThan(0);
    // IPv4 addresses stay one each.
    expect((await spray.attempt('198.51.100.1', 'fresh@example.org')).allowed).toBe(true);
  });

  it('a success from one address of the /64 starts that network’s budget for the account again', async () => {
    const one = limits();
    const strict = SIGN_IN_LIMITS.addressAndAccount.points;
    for (let i = 1; i <= strict; i++) await one.attempt(`2001:db8:5:5::${i}`, 'member:m_1');
    expect((await one.attempt('2001:db8:5:5::1', 'member:m_1')).allowed).toBe(false);
    await one.succeeded('2001:db8:5:5::abcd', 'member:m_1');
    expect((await one.attempt('2001:db8:5:5::1', 'member:m_1')).allowed).toBe(true);
  });
});
