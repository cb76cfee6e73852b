// Operator endpoints of a running service: /healthz, /readyz (database, Redis when configured)
// and Prometheus metrics at /metrics behind the internal token.
import { renameSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createLogger } from '../../core/logger.ts';
import { createReadiness } from '../../facades/http/health.ts';
import { Metrics } from '../../facades/http/metrics.ts';
import { ApiLimits } from '../../facades/rest/limits.ts';
import { raw, rpc, rpcResult, toolCall } from '../mcp/public-client.ts';
import { createKey, createOrganization } from '../rest/helpers.ts';
import { Receiver } from '../support/receiver.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, publishNeed } from '../support/webhooks.ts';
import { parsePrometheus, scrape, type Scrape } from './prometheus.ts';

const REQUESTS = 'packline_http_requests_total';
const REJECTIONS = 'packline_limit_rejections_total';
const ATTEMPTS = 'packline_webhook_attempts_total';
const silent = createLogger('silent');

describe('health and metrics of a running service', () => {
  let stack: Stack;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    stack = await startStack({
      env: {
        ...WEBHOOK_TEST_ENV,
        // No wait between attempts: a failing receiver exhausts its 8 attempts within seconds.
        WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0',
        RATE_LIMIT_PER_MINUTE: '4',
        MCP_RATE_LIMIT_PER_MINUTE: '3',
        MCP_COMPOSE_LIMIT_PER_HOUR: '1',
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const metrics = () => scrape(stack.origin);
  const delta = (before: Scrape, after: Scrape, name: string, labels: Record<string, string>) =>
    after.count(name, labels) - before.count(name, labels);

  it('/healthz answers 200; /readyz answers 200 with each dependency checked', async () => {
    const health = await fetch(`${stack.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const ready = await fetch(`${stack.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', ...(stack.config.redisUrl ? { redis: 'ok' } : {}) } });
  });

  it('/metrics is refused without the internal token (401), and is Prometheus text with it', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${stack.demoKey}`,
      `Bearer ${INTERNAL_TOKEN}x`,
      `Bearer ${INTERNAL_TOKEN.slice(0, -1)}`,
      INTERNAL_TOKEN,
    ]) {
      const res = await fetch(`${stack.origin}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.text()).not.toMatch(/packline_|process_/);
    }
    const scraped = await metrics();
    // Default process metrics, and the gauges read at scrape time.
    expect(scraped.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(scraped.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(scraped.value('packline_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(scraped.value('packline_preparer_pool_queue_size')).toBeGreaterThanOrEqual(0);
    const utilization = scraped.value('packline_preparer_pool_utilization');
    expect(utilization).toBeGreaterThanOrEqual(0);
    expect(utilization).toBeLessThanOrEqual(1);
    expect(scraped.value('packline_preparer_pool_threads')).toBeGreaterThanOrEqual(1);
  });

  it('counts requests by route family and status, with a latency histogram, never by raw path', async () => {
    const before = await metrics();
    expect((await stack.get('/opportunities?limit=1')).status).toBe(200);
    expect((await stack.get('/opportunities/no-such-need-123')).status).toBe(404);
    expect((await stack.get('/nothing-here-456')).status).toBe(404);
    await stack.graphql('{ __typename }');
    expect((await fetch(`${stack.origin}/no-such-page-789`)).status).toBe(404);
    const after = await metrics();

    expect(delta(before, after, REQUESTS, { route: 'rest/opportunities', status: '200' })).toBe(1);
    expect(delta(before, after, REQUESTS, { route: 'rest/opportunities/{id}', status: '404' })).toBe(1);
    expect(delta(before, after, REQUESTS, { route: 'rest/other', status: '404' })).toBe(1);
    expect(delta(before, after, REQUESTS, { route: 'graphql', status: '200' })).toBe(1);
    expect(delta(before, after, REQUESTS, { route: 'other', status: '404' })).toBe(1);
    expect(delta(before, after, 'packline_http_request_duration_seconds_count', { route: 'rest/opportunities' })).toBe(1);
    expect(after.value('packline_http_request_duration_seconds_sum', { route: 'rest/opportunities' })).toBeGreaterThan(0);
    // Every label value comes from a fixed set: nothing of the paths asked for.
    const routes = after.labelValues(REQUESTS, 'route');
    expect(
      routes.every((route) => /^(rest\/[a-z/{}]+|graphql|mcp|mcp-member|integrations|ops|other)$/.test(route)),
      routes.join(', '),
    ).toBe(true);
    expect(after.text).not.toMatch(/no-such|nothing-here/);
  });

  it('counts REST calls refused by the per-key rate limit', async () => {
    const key = await createKey(stack, await createOrganization(stack, 'clan'));
    const before = await metrics();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await stack.get('/organization', { key: key.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const after = await metrics();
    expect(delta(before, after, REJECTIONS, { facade: 'rest', kind: 'rate' })).toBe(1);
    expect(delta(before, after, REJECTIONS, { facade: 'rest', kind: 'quota' })).toBe(0);
    expect(delta(before, after, REQUESTS, { route: 'rest/organization', status: '429' })).toBe(1);
  });

  it('counts public MCP calls refused per address: calls per minute and compose_team per hour', async () => {
    const before = await metrics();
    const compose = toolCall('compose_team', { required_expertise: ['copywriting'] });
    const first = await raw(stack, { body: compose });
    expect(first.status).toBe(200);
    expect(rpcResult(first).isError).toBeFalsy();
    const second = await raw(stack, { body: { ...compose, id: 'second' } });
    expect(rpcResult(second).isError).toBe(true);
    expect((await raw(stack, { body: rpc('tools/list') })).status).toBe(200);
    expect((await raw(stack, { body: rpc('tools/list') })).status).toBe(429);
    const after = await metrics();
    expect(delta(before, after, REJECTIONS, { facade: 'mcp', kind: 'compose' })).toBe(1);
    expect(delta(before, after, REJECTIONS, { facade: 'mcp', kind: 'rate' })).toBe(1);
    expect(delta(before, after, REQUESTS, { route: 'mcp', status: '429' })).toBe(1);
    expect(delta(before, after, REQUESTS, { route: 'mcp', status: '200' })).toBe(3);
  });

  it('counts webhook attempts by outcome: delivered, failed_attempt, gave_up, disabled (410)', async () => {
    const org = 'atelier-nord'; // demo organization on the Clan plan
    receiver.plan('/fail', { status: 500 });
    receiver.plan('/gone', { status: 410 });
    for (const path of ['/ok', '/fail', '/gone'])
      await createDestination(stack, { organizationId: org, url: receiver.url(path), kinds: ['need.created'] });
    const before = await metrics();
    await publishNeed(stack, org);
    await receiver.waitFor(
      () => receiver.on('/ok').length === 1 && receiver.on('/gone').length === 1 && receiver.on('/fail').length === 8,
      'one delivery, one 410 and eight failures',
    );
    // The dispatcher counts an attempt once it has judged the answer: just after the receiver saw it.
    await expect
      .poll(async () => {
        const after = await metrics();
        return Object.fromEntries(
          ['delivered', 'failed_attempt', 'gave_up', 'disabled'].map((outcome) => [outcome, delta(before, after, ATTEMPTS, { outcome })]),
        );
      })
      .toEqual({ delivered: 1, failed_attempt: 7, gave_up: 1, disabled: 1 });
    expect((await metrics()).value('packline_outbox_lag_seconds')).toBe(0);
  });
});

/** Takes the stack's database away for real; resolves to what gives it back. */
async function loseDatabase(stack: Stack): Promise<() => Promise<void>> {
  const url = stack.config.databaseUrl;
  if (!url) {
    const dataDir = stack.config.dataDir;
    await stack.app.core.db.close(true);
    renameSync(dataDir, `${dataDir}.gone`);
    return async () => renameSync(`${dataDir}.gone`, dataDir);
  }
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`alter database ${name} with allow_connections false`);
  await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
  return async () => {
    await client.query(`alter database ${name} with allow_connections true`);
    await client.end();
  };
}

describe('readiness when a dependency does not answer', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
  });
  afterAll(() => stack?.close());

  it('answers 503 naming the database once the service has lost its database connection', async () => {
    expect((await fetch(`${stack.origin}/readyz`)).status).toBe(200);
    // The database taken away under the running service (the ORM would open a closed client again):
    // PostgreSQL refuses the database's connections and ends those open; SQLite's file is gone.
    const restore = await loseDatabase(stack);
    onTestFinished(restore);
    const res = await fetch(`${stack.origin}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'failed', ...(stack.config.redisUrl ? { redis: 'ok' } : {}) },
    });
    // Metrics still answer: the lag that cannot be read is NaN rather than a failed scrape.
    expect((await scrape(stack.origin)).value('packline_outbox_lag_seconds')).toBeNaN();
  });

  it('tells a failed probe from one that does not answer in time, and reports stopping after stop()', async () => {
    const readiness = createReadiness({
      probes: {
        database: () => Promise.reject(new Error('connection refused')),
        redis: () => new Promise(() => {}),
        other: async () => 'PONG',
      },
      timeoutMs: 50,
      log: silent,
    });
    expect(await readiness.check()).toEqual({ status: 'unavailable', checks: { database: 'failed', redis: 'timeout', other: 'ok' } });
    readiness.stop();
    expect(await readiness.check()).toEqual({ status: 'stopping', checks: {} });
  });
});

describe('limiter refusals reach the metrics', () => {
  it('counts a monthly quota refusal of the REST limiter', async () => {
    const metrics = new Metrics({ outboxLag: async () => 0, log: silent });
    // The month already holds the Base plan's 1,000 calls (durable counts seed the in-memory quota).
    const usage = { monthCalls: async () => 1_000, record() {} } as unknown as ConstructorParameters<typeof ApiLimits>[0]['usage'];
    const limits = new ApiLimits({ perMinute: 1, usage, onRefused: (kind) => metrics.refused({ facade: 'rest', kind }) });
    expect((await limits.consumeQuota('org-1', 'base')).allowed).toBe(false);
    expect((await limits.consumeRate('key-1')).allowed).toBe(true);
    expect((await limits.consumeRate('key-1')).allowed).toBe(false);
    const scraped = parsePrometheus(await metrics.registry.metrics());
    expect(scraped.value(REJECTIONS, { facade: 'rest', kind: 'quota' })).toBe(1);
    expect(scraped.value(REJECTIONS, { facade: 'rest', kind: 'rate' })).toBe(1);
    // Outcomes of this process's deliveries start at zero, each one present.
    expect(scraped.labelValues(ATTEMPTS, 'outcome').sort()).toEqual(['delivered', 'disabled', 'failed_attempt', 'gave_up']);
  });
});
