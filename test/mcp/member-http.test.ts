// The member connector's HTTP side: `/mcp/member` refuses another Host or a foreign Origin
// (DNS rebinding) as `/mcp` does, before it looks at the bearer token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { connectMember, createMember } from './member-client.ts';
import { raw, rpc, rpcResult } from './public-client.ts';

const rpcError = (message: RegExp) => ({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(message) }, id: null });

describe('member connector over HTTP', () => {
  let stack: Stack;
  let port: string;
  let token: string;
  beforeAll(async () => {
    stack = await startStack();
    port = new URL(stack.origin).port;
    const email = 'hosted@atelier-nord.example';
    await createMember(stack, email);
    token = (await connectMember(stack, email)).stored!.access_token;
  });
  afterAll(() => stack?.close());

  const list = (headers: Record<string, string>) =>
    raw(stack, { path: '/mcp/member', body: rpc('tools/list'), headers: { 'mcp-protocol-version': '2025-06-18', ...headers } });

  it('answers on its own hosts and origins', async () => {
    const accepted: Record<string, string>[] = [
      { host: 'packline.test' },
      { host: `127.0.0.1:${port}` },
      { host: `localhost:${port}`, origin: 'https://packline.test' },
    ];
    for (const headers of accepted) {
      const answer = await list({ ...headers, authorization: `Bearer ${token}` });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(rpcResult(answer).tools?.map((t) => t.name)).toContain('my_account');
    }
  });

  it('refuses another Host with 403 and a JSON-RPC error, with or without a valid token', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, 'packline.test.evil.example', '127.0.0.1.nip.io']) {
      for (const authorization of [`Bearer ${token}`, undefined]) {
        const answer = await list({ host, ...(authorization ? { authorization } : {}) });
        expect(answer.status, host).toBe(403);
        expect(answer.headers['www-authenticate'], host).toBeUndefined();
        expect(answer.json(), host).toEqual(rpcError(/Host header refused/));
      }
    }
  });

  it('refuses a foreign or opaque Origin with 403, before the bearer check', async () => {
    for (const origin of ['https://evil.example', `http://127.0.0.1.evil.example:${port}`, 'null']) {
      for (const authorization of [`Bearer ${token}`, undefined]) {
        const answer = await list({ origin, ...(authorization ? { authorization } : {}) });
        expect(answer.status, origin).toBe(403);
        expect(answer.json(), origin).toEqual(rpcError(/Origin header refused/));
      }
    }
  });
});
