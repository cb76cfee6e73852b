// REST API v1: per-key rate limit and per-organization monthly quota (docs/design.md#rate-limits-and-quotas).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import {
  createKey,
  createOrganization,
  expectLimitHeaders,
  expectNoLimitHeaders,
  expectOk,
  expectProblem,
  LIMIT_HEADERS,
  revokeKey,
  unixNow,
  type ListBody,
} from './helpers.ts';

const int = (res: Response, name: string) => {
  const value = res.headers.get(name);
  expect(value, `${name} present`).toMatch(/^\d+$/);
  return Number(value);
};

/** Unix seconds of the first instant of next month, UTC. */
const nextMonthUtc = (now = new Date()) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;

async function ids(stack: Stack) {
  const opportunities = await expectOk<ListBody<{ id: string }>>(await stack.get('/opportunities?limit=1'));
  const events = await expectOk<ListBody<{ id: string }>>(await stack.get('/events?limit=1'));
  return { opportunityId: opportunities.data[0]!.id, eventId: events.data[0]!.id };
}

describe('rate limit per key (RATE_LIMIT_PER_MINUTE=5)', () => {
  let stack: Stack;
  let org: string;
  let opportunityId: string;
  let eventId: string;

  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    org = await createOrganization(stack, 'clan');
    // The ids are read with a throw-away key so the keys under test start with a full window.
    const reader = await createKey(stack, org);
    ({ opportunityId, eventId } = await ids({ ...stack, get: (path, options) => stack.get(path, { key: reader.key, ...options }) }));
  });
  afterAll(() => stack?.close());

  it('the 6th call of the minute is 429 rate_limited with Retry-After and the window in X-RateLimit-*', async () => {
    const org = await createOrganization(stack, 'clan');
    const key = await createKey(stack, org);
    const paths = ['/organization', '/opportunities', `/opportunities/${opportunityId}`, '/events', `/events/${eventId}`];
    for (const [i, path] of paths.entries()) {
      const res = await stack.get(path, { key: key.key });
      await expectOk(res);
      expectLimitHeaders(res);
      expect(int(res, 'x-ratelimit-limit')).toBe(5);
      expect(int(res, 'x-ratelimit-remaining')).toBe(4 - i);
      expect(int(res, 'x-ratelimit-reset')).toBeGreaterThan(unixNow());
    }
    const quotaBefore = int(await stack.get('/organization', { key: (await createKey(stack, org)).key }), 'x-monthly-quota-remaining');

    const res = await stack.get('/events', { key: key.key });
    await expectProblem(res, 429, 'rate_limited');
    const retryAfter = res.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(int(res, 'x-ratelimit-limit')).toBe(5);
    expect(int(res, 'x-ratelimit-remaining')).toBe(0);
    const reset = int(res, 'x-ratelimit-reset');
    expect(reset).toBeGreaterThan(unixNow());
    expect(reset).toBeLessThanOrEqual(unixNow() + 61);
    expect(Math.abs(reset - unixNow() - Number(retryAfter))).toBeLessThanOrEqual(2);
    // The quota headers ride along, and a refused call spends nothing of the monthly quota.
    expectLimitHeaders(res);
    expect(int(res, 'x-monthly-quota-remaining')).toBe(quotaBefore);

    // Still refused on every endpoint, for the rest of the window.
    for (const path of paths) await expectProblem(await stack.get(path, { key: key.key }), 429, 'rate_limited');
  });

  it('another key, of the same or of another organization, still works', async () => {
    const org = await createOrganization(stack, 'clan');
    const key = await createKey(stack, org);
    const sibling = await createKey(stack, org);
    for (let i = 0; i < 5; i++) expect((await stack.get('/organization', { key: key.key })).status).toBe(200);
    await expectProblem(await stack.get('/organization', { key: key.key }), 429, 'rate_limited');

    const res = await stack.get('/organization', { key: sibling.key });
    expect(res.status).toBe(200);
    expect(int(res, 'x-ratelimit-remaining')).toBe(4);
    const demo = await stack.get('/organization');
    expect(demo.status).toBe(200);
    expect(int(demo, 'x-ratelimit-remaining')).toBe(4);
  });

  it('missing-scope and not-found answers count; the rate is checked before the scope', async () => {
    const other = await createOrganization(stack, 'clan');
    const key = await createKey(stack, other, ['organization:read']);
    for (let i = 0; i < 3; i++) {
      const res = await stack.get('/events', { key: key.key });
      await expectProblem(res, 403, 'missing_scope');
      expectLimitHeaders(res);
      expect(int(res, 'x-ratelimit-remaining')).toBe(4 - i);
    }
    const full = await createKey(stack, other);
    for (let i = 0; i < 5; i++) {
      const res = await stack.get('/events/ev_doesnotexist00', { key: full.key });
      await expectProblem(res, 404, 'not_found');
      expect(int(res, 'x-ratelimit-remaining')).toBe(4 - i);
    }
    await expectProblem(await stack.get('/events', { key: full.key }), 429, 'rate_limited');
    expect((await stack.get('/organization', { key: key.key })).status).toBe(200);
    expect((await stack.get('/organization', { key: key.key })).status).toBe(200);
    // Window spent: 429 even where the key also lacks the scope.
    await expectProblem(await stack.get('/events', { key: key.key }), 429, 'rate_limited');
  });

  it('calls without a valid key are 401, never 429, and carry no limit headers', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await stack.get('/organization', { key: 'live_unknown' });
      await expectProblem(res, 401, 'invalid_key');
      expectNoLimitHeaders(res);
    }
  });

  it('concurrent calls cannot exceed the limit', async () => {
    const key = await createKey(stack, await createOrganization(stack, 'clan'));
    const answers = await Promise.all(Array.from({ length: 20 }, () => stack.get('/events', { key: key.key })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const remaining = answers.filter((r) => r.status === 200).map((r) => int(r, 'x-ratelimit-remaining'));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
    await Promise.all(answers.map((r) => r.arrayBuffer()));
  });
});

describe('default rate limit', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('is 120 calls per minute per key', async () => {
    const org = await createOrganization(stack, 'clan');
    const key = await createKey(stack, org);
    const answers: Response[] = [];
    for (let batch = 0; batch < 3; batch++) {
      answers.push(...(await Promise.all(Array.from({ length: 40 }, () => stack.get('/organization', { key: key.key })))));
    }
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(answers.every((r) => r.headers.get('x-ratelimit-limit') === '120')).toBe(true);
    expect(answers.map((r) => int(r, 'x-ratelimit-remaining')).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    const refused = await stack.get('/organization', { key: key.key });
    await expectProblem(refused, 429, 'rate_limited');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120');
  });
});

describe('monthly quota per organization', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(() => stack?.close());

  it('X-Monthly-Quota-Limit follows the plan: Base 1,000, Alpha 10,000, Clan 100,000', async () => {
    for (const [plan, quota] of [
      ['base', 1_000],
      ['alpha', 10_000],
      ['clan', 100_000],
    ] as const) {
      const key = await createKey(stack, await createOrganization(stack, plan));
      const res = await stack.get('/organization', { key: key.key });
      expect(res.status).toBe(200);
      expect(int(res, 'x-monthly-quota-limit')).toBe(quota);
      expect(int(res, 'x-monthly-quota-remaining')).toBe(quota - 1);
      expect(int(res, 'x-monthly-quota-reset')).toBe(nextMonthUtc());
      await res.arrayBuffer();
    }
  });

  it('Base: 1,000 calls pass with a decreasing balance; the 1,001st is 429 quota_exceeded until next month', async () => {
    const org = await createOrganization(stack, 'base');
    const key = await createKey(stack, org);
    const { opportunityId, eventId } = await ids({ ...stack, get: (path, options) => stack.get(path, { key: key.key, ...options }) });
    const paths = ['/organization', '/opportunities?limit=5', `/opportunities/${opportunityId}`, '/events', `/events/${eventId}`];
    // ids() spent two calls of the quota.
    const remaining: number[] = [];
    for (let start = 2; start < 1_000; start += 50) {
      const count = Math.min(50, 1_000 - start);
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) => stack.get(paths[(start + i) % paths.length]!, { key: key.key })),
      );
      for (const res of answers) {
        expect(res.status).toBe(200);
        expectLimitHeaders(res);
        expect(int(res, 'x-monthly-quota-limit')).toBe(1_000);
        expect(int(res, 'x-monthly-quota-reset')).toBe(nextMonthUtc());
        remaining.push(int(res, 'x-monthly-quota-remaining'));
        await res.arrayBuffer();
      }
    }
    // Each answer saw its own place in the month's count: 997 … 0.
    expect(remaining.slice().sort((a, b) => a - b)).toEqual(Array.from({ length: 998 }, (_, i) => i));

    const refused = await stack.get('/organization', { key: key.key });
    await expectProblem(refused, 429, 'quota_exceeded');
    expectLimitHeaders(refused);
    expect(int(refused, 'x-monthly-quota-limit')).toBe(1_000);
    expect(int(refused, 'x-monthly-quota-remaining')).toBe(0);
    const reset = int(refused, 'x-monthly-quota-reset');
    expect(reset).toBe(nextMonthUtc());
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Math.abs(Number(retryAfter) - (reset - unixNow()))).toBeLessThanOrEqual(2);

    // Every endpoint stays refused; the rate window is still open.
    for (const path of paths) {
      const res = await stack.get(path, { key: key.key });
      await expectProblem(res, 429, 'quota_exceeded');
      expect(int(res, 'x-ratelimit-remaining')).toBeGreaterThan(0);
    }

    // Another organization's quota is untouched.
    const other = await createKey(stack, await createOrganization(stack, 'base'));
    const res = await stack.get('/organization', { key: other.key });
    expect(res.status).toBe(200);
    expect(int(res, 'x-monthly-quota-remaining')).toBe(999);
    await res.arrayBuffer();

    // Only the answered calls are recorded as usage.
    const month = new Date().toISOString().slice(0, 7);
    const daily = await stack.app.core.usage.daily(org, month);
    expect(daily.reduce((sum, d) => sum + d.calls, 0)).toBe(1_000);

    // The scope is checked before the quota: a key without the scope is told 403, not 429.
    await revokeKey(stack, key.id);
    const narrow = await createKey(stack, org, ['events:read']);
    const scopeRefused = await stack.get('/organization', { key: narrow.key });
    await expectProblem(scopeRefused, 403, 'missing_scope');
    expect(int(scopeRefused, 'x-monthly-quota-remaining')).toBe(0);
    await expectProblem(await stack.get('/events', { key: narrow.key }), 429, 'quota_exceeded');

    // A plan upgrade applies at once.
    await stack.graphql(`mutation ($id: ID!) { updateOrganization(id: $id, input: { plan: alpha }) { id } }`, { id: org });
    const upgraded = await stack.get('/events', { key: narrow.key });
    expect(upgraded.status).toBe(200);
    expect(int(upgraded, 'x-monthly-quota-limit')).toBe(10_000);
    expect(int(upgraded, 'x-monthly-quota-remaining')).toBeLessThanOrEqual(10_000 - 1_001);
    expect(int(upgraded, 'x-monthly-quota-remaining')).toBeGreaterThan(8_900);
    await upgraded.arrayBuffer();
  });

  it('the quota is shared by every key of the organization', async () => {
    const org = await createOrganization(stack, 'clan');
    const [a, b] = [await createKey(stack, org), await createKey(stack, org)];
    const first = await stack.get('/organization', { key: a.key });
    const second = await stack.get('/events', { key: b.key });
    const third = await stack.get('/opportunities', { key: a.key });
    expect([first, second, third].map((r) => int(r, 'x-monthly-quota-remaining'))).toEqual([99_999, 99_998, 99_997]);
    await Promise.all([first, second, third].map((r) => r.arrayBuffer()));
  });

  it('every authenticated answer carries the six limit headers: 200, 400, 403, 404', async () => {
    const org = await createOrganization(stack, 'clan');
    const full = await createKey(stack, org);
    const narrow = await createKey(stack, org, ['events:read']);
    const answers = [
      [200, await stack.get('/organization', { key: full.key })],
      [200, await stack.get('/events', { key: narrow.key })],
      [400, await stack.get('/opportunities?limit=0', { key: full.key })],
      [400, await stack.get('/events?cursor=garbage', { key: full.key })],
      [400, await stack.get(`/events/${'x'.repeat(121)}`, { key: full.key })],
      [403, await stack.get('/organization', { key: narrow.key })],
      [403, await stack.get('/opportunities', { key: narrow.key })],
      [404, await stack.get('/opportunities/n_doesnotexist00', { key: full.key })],
      [404, await stack.get('/events/ev_doesnotexist00', { key: narrow.key })],
    ] as const;
    for (const [status, res] of answers) {
      expect(res.status).toBe(status);
      for (const name of LIMIT_HEADERS) expect(res.headers.get(name), `${status}: ${name}`).toMatch(/^\d+$/);
      expect(int(res, 'x-monthly-quota-reset')).toBe(nextMonthUtc());
      expect(int(res, 'x-ratelimit-reset')).toBeGreaterThan(unixNow());
      await res.arrayBuffer();
    }
    // A 403 peeks at the quota without spending it.
    const before = await stack.get('/events', { key: narrow.key });
    const refused = await stack.get('/organization', { key: narrow.key });
    const after = await stack.get('/events', { key: narrow.key });
    expect(int(refused, 'x-monthly-quota-remaining')).toBe(int(before, 'x-monthly-quota-remaining'));
    expect(int(after, 'x-monthly-quota-remaining')).toBe(int(before, 'x-monthly-quota-remaining') - 1);
    await Promise.all([before, refused, after].map((r) => r.arrayBuffer()));
  });
});
