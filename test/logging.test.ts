import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, startStack, type Stack } from './support/stack.ts';

describe('logs', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('carry the request id of every request', async () => {
    const res = await stack.get('/opportunities?limit=1', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    const other = await stack.get('/events');
    const generated = other.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const lines = stack.logs.map((l) => JSON.parse(l) as { req_id?: string; msg: string; status?: number });
    expect(lines.find((l) => l.req_id === 'trace-abc-123')).toMatchObject({ msg: 'request', status: 200 });
    expect(lines.find((l) => l.req_id === generated)).toMatchObject({ msg: 'request', status: 200 });
  });

  it('never contain a key, secret or token value', async () => {
    const created = await stack.graphql<{ createApiKey: { key: string } }>(
      `mutation { createApiKey(input: { organizationId: "delta-forge", scopes: ["events:read"], expiresAt: "2027-06-01T00:00:00Z" }) { key } }`,
    );
    const key = created.createApiKey.key;
    const invalid = 'live_ThisIsNotAValidKeyButLooksLikeOne12345';
    await stack.get('/organization');
    await stack.get('/events', { key });
    await stack.get('/events', { key: invalid });
    await stack.get('/organization', { key: `whsec_${'A'.repeat(43)}` });
    await fetch(`${stack.origin}/graphql`, { method: 'POST', headers: { authorization: 'Bearer wrong-token-value-987' }, body: '{}' });
    await stack.graphql('{ organizations(first: 1) { edges { node { id } } } }');
    const text = stack.logs.join('\n');
    expect(stack.logs.length).toBeGreaterThan(5);
    for (const secret of [stack.demoKey, key, invalid, INTERNAL_TOKEN, 'wrong-token-value-987', 'whsec_AAAA']) {
      expect(text).not.toContain(secret);
    }
  });

  it('name the path each request was sent to, the OAuth endpoints included', async () => {
    const sent = [
      ['POST', '/register'],
      ['POST', '/token'],
      ['POST', '/revoke'],
      ['GET', '/authorize'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['POST', '/mcp/member'],
      ['GET', '/account/login'],
    ] as const;
    for (const [method, path] of sent) {
      const res = await fetch(`${stack.origin}${path}?client_id=secret-looking-query`, {
        method,
        headers: { 'x-request-id': `path-probe-${path.replace(/\W/g, '')}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      await res.arrayBuffer();
      const line = stack.logs
        .map((l) => JSON.parse(l) as { req_id?: string; msg: string; method?: string; path?: string; status?: number })
        .find((l) => l.msg === 'request' && l.req_id === `path-probe-${path.replace(/\W/g, '')}`);
      expect(line, path).toMatchObject({ method, path, status: res.status });
    }
    expect(stack.logs.join('\n')).not.toContain('secret-looking-query');
  });

  it('log expected domain errors of /graphql at info, with their code and without personal data', async () => {
    const email = 'duplicate.person@atelier-nord.example';
    const create = () =>
      fetch(`${stack.origin}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'content-type': 'application/json', 'x-request-id': 'duplicate-member' },
        body: JSON.stringify({
          query: 'mutation($input: NewMemberInput!) { createMember(input: $input) { id } }',
          variables: { input: { email, name: 'Duplicate Person', organizationId: 'atelier-nord' } },
        }),
      }).then((r) => r.json() as Promise<{ errors?: { message: string; extensions: { code: string } }[] }>);
    expect((await create()).errors).toBeUndefined();
    const from = stack.logs.length;
    const answer = await create();
    // The caller still reads what went wrong.
    expect(answer.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining(email), extensions: { code: 'CONFLICT', field: 'email' } }),
    ]);
    const lines = stack.logs.slice(from).map((l) => JSON.parse(l) as { level: number; msg: string; code?: string });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, msg: 'graphql domain error', code: 'conflict', field: 'email' }));
    const text = stack.logs.slice(from).join('\n');
    expect(text).not.toContain(email);
    expect(text).not.toContain('Duplicate Person');
    expect(text).not.toContain('stack');
  });
});
