// The OAuth endpoints' limits per client address: an IPv6 client is its /64, and with Redis two
// instances share one budget (the MCP SDK's own limiters counted per process and per /56).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_LIMITS } from '../../facades/mcp/member/oauth-limits.ts';
import { REDIRECT_URL } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const shared = Boolean(process.env.REDIS_URL);

function register(stack: Stack, address: string): Promise<Response> {
  return fetch(`${stack.origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({
      client_name: 'Limit probe',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
}

describe(`OAuth endpoint limits (${shared ? 'two instances sharing Redis' : 'memory'})`, () => {
  let first: Stack;
  let second: Stack;
  beforeAll(async () => {
    first = await startStack({ demo: false, env: { TRUSTED_PROXIES: '1' } });
    second = await startStack({ over: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('registrations: 20 an hour per client, an IPv6 client being its /64, counted across instances through Redis', async () => {
    const { points } = OAUTH_LIMITS.register;
    // Spread over the /64 and, with Redis, over both instances.
    const instances = shared ? [first, second] : [first];
    for (let i = 1; i <= points; i++) {
      const res = await register(instances[i % instances.length]!, `2001:db8:77:1::${i.toString(16)}`);
      expect(res.status, `registration ${i}`).toBe(201);
      expect(((await res.json()) as { client_id: string }).client_id).toMatch(/^cli_/);
    }
    for (const stack of instances) {
      const refused = await register(stack, '2001:db8:77:1:abcd::1');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(await refused.json()).toEqual({ error: 'too_many_requests', error_description: expect.stringMatching(/retry in \d+ s/) });
    }
    // Another /64 is another client.
    expect((await register(first, '2001:db8:77:2::1')).status).toBe(201);
  });

  it('the token endpoint counts by /64 too, and refuses with an OAuth error rather than a page', async () => {
    const { points } = OAUTH_LIMITS.token;
    const token = (address: string) =>
      fetch(`${first.origin}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: 'grant_type=authorization_code&client_id=cli_00000000000000&code=plc_nothing&code_verifier=x',
      });
    const answers = await Promise.all(Array.from({ length: points }, (_, i) => token(`2001:db8:78:1::${(i + 1).toString(16)}`)));
    expect(answers.map((r) => r.status).filter((s) => s === 429)).toEqual([]);
    const refused = await token('2001:db8:78:1::ffff');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toBe('too_many_requests');
    expect((await token('2001:db8:78:2::1')).status).not.toBe(429);
  });
});
