import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { McpLimits } from './mcp-limits.ts';

describe('McpLimits', () => {
  it('refuses calls past the per-minute budget of a client, and compositions past the hourly one', async () => {
    const limits = new McpLimits({ perMinute: 3, composePerHour: 2 });
    const calls = [];
    for (let i = 0; i < 4; i++) calls.push(await limits.consumeCall('203.0.113.7'));
    expect(calls.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(calls[3]!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(calls[3]!.retryAfter).toBeLessThanOrEqual(60);
    expect((await limits.consumeCall('203.0.113.8')).allowed).toBe(true);
    expect((await limits.consumeCall('203.0.113.8', 3)).allowed).toBe(false);

    const compositions = [await limits.consumeCompose('a'), await limits.consumeCompose('a'), await limits.consumeCompose('a')];
    expect(compositions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(compositions[2]!.retryAfter).toBeGreaterThan(3_500);
    expect(compositions[2]!.retryAfter).toBeLessThanOrEqual(3_600);
  });

  it('keeps answering from memory when Redis is unreachable', async () => {
    const redis = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    const limits = new McpLimits({ perMinute: 2, composePerHour: 1, redis });
    const decisions = [await limits.consumeCall('c'), await limits.consumeCall('c'), await limits.consumeCall('c')];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect([(await limits.consumeCompose('c')).allowed, (await limits.consumeCompose('c')).allowed]).toEqual([true, false]);
    redis.disconnect();
  });

  it(`shares one budget between instances only through Redis (configured: ${process.env.REDIS_URL ? 'Redis' : 'memory'})`, async () => {
    const prefix = `packline-unit-${randomBytes(4).toString('hex')}`;
    const clients = process.env.REDIS_URL ? [new Redis(process.env.REDIS_URL), new Redis(process.env.REDIS_URL)] : [];
    await Promise.all(clients.map((c) => (c.status === 'ready' ? undefined : once(c, 'ready'))));
    const [one, two] = [0, 1].map((i) => new McpLimits({ perMinute: 4, redis: clients[i], prefix }));
    const allowed = [];
    for (let i = 0; i < 6; i++) allowed.push((await (i % 2 ? one! : two!).consumeCall('shared')).allowed);
    expect(allowed).toEqual(process.env.REDIS_URL ? [true, true, true, true, false, false] : [true, true, true, true, true, true]);
    for (const c of clients) c.disconnect();
  });
});
