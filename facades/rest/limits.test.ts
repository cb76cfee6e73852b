import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore, type Core } from '../../core/index.ts';
import { ApiLimits, startOfNextMonth } from './limits.ts';

describe('ApiLimits', () => {
  let core: Core;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-limits-'));
    core = await openCore({ dataDir: dir, publicBaseUrl: 'https://packline.test', dataEncryptionKey: randomBytes(32).toString('base64') });
  });
  afterAll(async () => {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the call after the per-minute budget with a wait', async () => {
    const limits = new ApiLimits({ perMinute: 3, usage: core.usage });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limits.consumeRate('key_a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.window.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(decisions[3]!.retryAfter).toBeLessThanOrEqual(60);
    expect((await limits.consumeRate('key_b')).allowed).toBe(true);
  });

  it('counts the monthly quota against the plan and resets at the next UTC month', async () => {
    const limits = new ApiLimits({ perMinute: 1000, usage: core.usage });
    const now = new Date('2026-11-30T23:59:00Z');
    const first = await limits.consumeQuota('org-quota', 'base', now);
    expect(first).toMatchObject({ allowed: true, window: { limit: 1000, remaining: 999, reset: Date.UTC(2026, 11, 1) / 1000 } });
    expect(startOfNextMonth(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('seeds the in-memory quota from the durable counts after a restart', async () => {
    const organization = `org-${randomBytes(3).toString('hex')}`;
    const now = new Date();
    for (let i = 0; i < 998; i++) core.usage.record(organization, now);
    await core.usage.flush();
    // A fresh limiter is what a restarted process has.
    const limits = new ApiLimits({ perMinute: 1000, usage: core.usage });
    expect((await limits.peekQuota(organization, 'base', now)).remaining).toBe(2);
    expect((await limits.consumeQuota(organization, 'base', now)).allowed).toBe(true);
    expect((await limits.consumeQuota(organization, 'base', now)).allowed).toBe(true);
    const refused = await limits.consumeQuota(organization, 'base', now);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeGreaterThan(0);
  });

  it('keeps answering from memory when Redis is unreachable', async () => {
    const redis = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    const limits = new ApiLimits({ perMinute: 2, redis, usage: core.usage });
    const decisions = [await limits.consumeRate('k'), await limits.consumeRate('k'), await limits.consumeRate('k')];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect((await limits.consumeQuota('org-r', 'alpha')).allowed).toBe(true);
    redis.disconnect();
  });

  it(`shares one budget between instances only through Redis (configured: ${process.env.REDIS_URL ? 'Redis' : 'memory'})`, async () => {
    const prefix = `packline-unit-${randomBytes(4).toString('hex')}`;
    const clients = process.env.REDIS_URL ? [new Redis(process.env.REDIS_URL), new Redis(process.env.REDIS_URL)] : [];
    await Promise.all(clients.map((c) => (c.status === 'ready' ? undefined : once(c, 'ready'))));
    const [one, two] = [0, 1].map((i) => new ApiLimits({ perMinute: 4, redis: clients[i], prefix, usage: core.usage }));
    const allowed = [];
    for (let i = 0; i < 6; i++) allowed.push((await (i % 2 ? one! : two!).consumeRate('shared')).allowed);
    // In memory each instance has its own budget of 4, so none of the six calls is refused.
    expect(allowed).toEqual(process.env.REDIS_URL ? [true, true, true, true, false, false] : [true, true, true, true, true, true]);
    for (const c of clients) c.disconnect();
  });
});
