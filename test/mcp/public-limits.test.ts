import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { call, connectPublic, failure, ok, raw, rpc } from './public-client.ts';

// The public connector's limits (docs/design.md#public-connector): 60 calls per minute per client address (HTTP 429 with
// Retry-After and a JSON-RPC error body) and 20 compose_team per hour (a tool error naming the
// wait). The client address is the socket's, or X-Forwarded-For's behind trusted proxies only.
// On Redis when REDIS_URL is set (each stack has its own key prefix), in memory otherwise.

const listTools = () => rpc('tools/list');

describe('calls per minute, at the default of 60', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('answers the 61st call of a minute with 429, Retry-After and a JSON-RPC error', async () => {
    for (let i = 1; i <= 60; i++) {
      const answer = await raw(stack, { body: listTools() });
      expect(answer.status, `call ${i}`).toBe(200);
    }
    const refused = await raw(stack, { body: listTools() });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/at most 60 calls per minute from one address\. Retry in \d+ s/) },
      id: null,
    });
  });
});

describe('team compositions per hour, at the default of 20', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('answers the 21st compose_team of an hour with a tool error naming the wait; other tools still answer', async () => {
    const client = await connectPublic(stack);
    for (let i = 1; i <= 20; i++) ok(await call(client, 'compose_team', { required_expertise: ['copywriting'] }));
    const text = failure(await call(client, 'compose_team', { required_expertise: ['copywriting'] }));
    expect(text).toMatch(
      /^Team composition limit reached: at most 20 compose_team calls per hour from one address\. Retry in (\d+) minutes? \(after \d{4}-\d\d-\d\dT[\d:.]+Z\)\.$/,
    );
    const minutes = Number(/Retry in (\d+) minute/.exec(text)![1]);
    expect(minutes).toBeGreaterThanOrEqual(59);
    expect(minutes).toBeLessThanOrEqual(60);
    ok(await call(client, 'explain_service', { question: 'What is Packline?' }));
    await client.close();
  });
});

describe('client address behind trusted proxies', () => {
  let behindProxy: Stack;
  let direct: Stack;
  beforeAll(async () => {
    [behindProxy, direct] = await Promise.all([
      startStack({ env: { TRUSTED_PROXIES: '1', MCP_RATE_LIMIT_PER_MINUTE: '2' } }),
      startStack({ env: { MCP_RATE_LIMIT_PER_MINUTE: '2' } }),
    ]);
  });
  afterAll(async () => {
    await behindProxy.close();
    await direct.close();
  });

  const from = (stack: Stack, forwardedFor: string) =>
    raw(stack, { body: listTools(), headers: { 'x-forwarded-for': forwardedFor } }).then((a) => a.status);

  it('with TRUSTED_PROXIES=1, counts each X-Forwarded-For address apart, by its rightmost entry', async () => {
    expect(await from(behindProxy, '203.0.113.7')).toBe(200);
    expect(await from(behindProxy, '203.0.113.7')).toBe(200);
    expect(await from(behindProxy, '203.0.113.7')).toBe(429);
    expect(await from(behindProxy, '203.0.113.8')).toBe(200);
    // Entries left of the one the proxy added are the client's own words: a fresh one buys nothing.
    expect(await from(behindProxy, '198.51.100.1, 203.0.113.7')).toBe(429);
    expect(await from(behindProxy, '198.51.100.2,203.0.113.7')).toBe(429);
  });

  it('with TRUSTED_PROXIES=1, counts an IPv6 client by its /64', async () => {
    expect(await from(behindProxy, '2001:db8:1:2::1')).toBe(200);
    expect(await from(behindProxy, '2001:db8:1:2:ffff::9')).toBe(200);
    expect(await from(behindProxy, '2001:db8:1:2::abcd')).toBe(429);
    expect(await from(behindProxy, '2001:db8:1:3::1')).toBe(200);
  });

  it('counts each message of a JSON-RPC batch as a call', async () => {
    const batch = await raw(behindProxy, { body: [listTools(), listTools()], headers: { 'x-forwarded-for': '192.0.2.10' } });
    expect(batch.status).toBe(200);
    expect(await from(behindProxy, '192.0.2.10')).toBe(429);
    const tooBig = await raw(behindProxy, { body: [listTools(), listTools(), listTools()], headers: { 'x-forwarded-for': '192.0.2.11' } });
    expect(tooBig.status).toBe(429);
  });

  it('without trusted proxies, ignores X-Forwarded-For: the socket address is counted', async () => {
    expect(await from(direct, '203.0.113.7')).toBe(200);
    expect(await from(direct, '203.0.113.8')).toBe(200);
    expect(await from(direct, '203.0.113.9')).toBe(429);
    expect((await raw(direct, { body: listTools() })).status).toBe(429);
  });
});
