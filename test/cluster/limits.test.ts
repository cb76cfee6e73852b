// Several API processes over one PostgreSQL database and one Redis: a key's rate limit and an
// organization's monthly quota hold across them, and each dependency can go away and come back
// without a restart (Redis: the processes' own insurance limiters answer meanwhile; the database:
// 503 problem+json until it returns).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../cli/run-cli.ts';
import type { MutationData } from '../support/graphql-data.ts';
import { Cluster, type Instance } from './cluster.ts';

const YEAR_AHEAD = new Date(Date.now() + 365 * 86_400_000).toISOString();
const SCOPES = ['organization:read', 'opportunities:read', 'events:read'];

describe('API processes sharing one PostgreSQL database and one Redis', () => {
  const cluster = new Cluster();
  /** RATE_LIMIT_PER_MINUTE left at its default of 120. */
  let a: Instance;
  let b: Instance;
  /** A high rate limit, so a Base organization's 1,000 monthly calls are spent in seconds. */
  let c: Instance;
  let d: Instance;

  beforeAll(async () => {
    await cluster.start();
    // Started together on an empty database: one migrates while the others wait for it.
    [a, b, c, d] = await Promise.all([
      cluster.spawn('api'),
      cluster.spawn('api'),
      cluster.spawn('api', { RATE_LIMIT_PER_MINUTE: '100000' }),
      cluster.spawn('api', { RATE_LIMIT_PER_MINUTE: '100000' }),
    ]);
    for (const [id, plan] of [
      ['shared-clan', 'clan'],
      ['shared-base', 'base'],
    ]) {
      await cluster.graphql(a, `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`, {
        input: { id, profile: { name: `Org ${id}`, plan } },
      });
    }
  });
  afterAll(() => cluster.close());

  async function createKey(organizationId: string): Promise<string> {
    const data = await cluster.graphql<MutationData<'createApiKey'>>(
      b,
      `mutation($input: NewApiKeyInput!) { createApiKey(input: $input) { key } }`,
      {
        input: { organizationId, scopes: SCOPES, expiresAt: YEAR_AHEAD },
      },
    );
    return data.createApiKey.key;
  }

  const get = (instance: Instance, key: string, path = '/api/v1/organization') =>
    fetch(`${instance.origin}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('start together on an empty database, migrated once', async () => {
    const ready = await Promise.all([a, b, c, d].map(async (instance) => (await fetch(`${instance.origin}/readyz`)).json()));
    expect(ready).toEqual(Array(4).fill({ status: 'ready', checks: { database: 'ok', redis: 'ok' } }));
  });

  it("share one key's 120 calls a minute: the 121st call across both processes is refused", async () => {
    const key = await createKey('shared-clan');
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await get(i % 2 === 0 ? a : b, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('120');
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      await res.arrayBuffer();
    }
    // One budget counted down across both: 119, 118, … 0, alternating processes.
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    for (const instance of [a, b]) {
      const refused = await get(instance, key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    }
  });

  it("share one organization's monthly quota: the Base plan's 1,001st call of the month is refused", async () => {
    const key = await createKey('shared-base');
    const remaining = new Set<number>();
    const call = async (i: number) => {
      const res = await get(i % 2 === 0 ? c : d, key);
      expect(res.status).toBe(200);
      remaining.add(Number(res.headers.get('x-monthly-quota-remaining')));
      await res.arrayBuffer();
    };
    for (let i = 0; i < 1_000; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => call(i + j)));
    // Each call saw its own place in one shared count.
    expect(remaining).toEqual(new Set(Array.from({ length: 1_000 }, (_, i) => i)));
    for (const instance of [c, d]) {
      const refused = await get(instance, key);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ status: 429, code: 'quota_exceeded' });
    }
  });

  it('keep serving while Redis is unreachable, on their own limiters, and share the budget again once it is back', async () => {
    const key = await createKey('shared-clan');
    cluster.redis.cut();
    try {
      await eventually(
        async () => (await fetch(`${a.origin}/readyz`)).status,
        (status) => status === 503,
        { timeoutMs: 20_000, what: '/readyz to report Redis down' },
      );
      const readiness = await (await fetch(`${a.origin}/readyz`)).json();
      expect(readiness).toMatchObject({ status: 'unavailable', checks: { database: 'ok' } });
      expect(readiness.checks.redis).not.toBe('ok');
      for (const instance of [a, b]) {
        for (let i = 0; i < 3; i++) {
          const res = await get(instance, key, '/api/v1/opportunities?limit=1');
          expect(res.status).toBe(200);
          // Each process counts on its own meanwhile.
          expect(res.headers.get('x-ratelimit-remaining')).toBe(String(119 - i));
          await res.arrayBuffer();
        }
      }
    } finally {
      cluster.redis.restore();
    }
    await eventually(
      async () => (await fetch(`${b.origin}/readyz`)).status,
      (status) => status === 200,
      { timeoutMs: 30_000, what: '/readyz once Redis is back' },
    );
    await eventually(
      async () => (await fetch(`${a.origin}/readyz`)).status,
      (status) => status === 200,
      { timeoutMs: 30_000, what: '/readyz once Redis is back' },
    );
    const fresh = await createKey('shared-clan');
    const first = await get(a, fresh);
    const second = await get(b, fresh);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.headers.get('x-ratelimit-remaining'), second.headers.get('x-ratelimit-remaining')]).toEqual(['119', '118']);
  });

  it('answer 503 problem+json while the database is unreachable, and recover by themselves when it returns', async () => {
    const key = await createKey('shared-clan');
    const pid = a.proc.child.pid;
    expect((await get(a, key, '/api/v1/opportunities/no-such-need')).status).toBe(404);
    cluster.database.cut();
    try {
      const down = await eventually(
        async () => {
          const res = await get(a, key, '/api/v1/opportunities/still-no-such-need');
          return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
        },
        (answer) => answer.status === 503,
        { timeoutMs: 30_000, what: 'a 503 while the database is cut off' },
      );
      expect(down.type).toMatch(/^application\/problem\+json/);
      expect(down.body).toMatchObject({ status: 503, code: 'service_unavailable' });
      const readiness = await fetch(`${a.origin}/readyz`);
      expect(readiness.status).toBe(503);
      expect((await readiness.json()).checks.database).not.toBe('ok');
    } finally {
      cluster.database.restore();
    }
    await eventually(
      async () => (await get(a, key, '/api/v1/opportunities/yet-another-missing-need')).status,
      (status) => status === 404,
      {
        timeoutMs: 30_000,
        what: 'answers from the database once it is back',
      },
    );
    expect((await get(b, key, '/api/v1/opportunities?limit=5')).status).toBe(200);
    expect((await fetch(`${a.origin}/readyz`)).status).toBe(200);
    expect(a.proc.child.pid).toBe(pid);
    expect(a.proc.child.exitCode).toBeNull();
  });
});
