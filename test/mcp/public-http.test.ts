import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { call, connectPublic, ok, raw, rpc, rpcResult } from './public-client.ts';

// The HTTP side of the public connector: DNS-rebinding protection (Host and Origin), the methods
// of a stateless Streamable HTTP server, and bodies it cannot read. Every refusal is a JSON-RPC
// error body with the right status, never a 500.

const rpcError = (message: RegExp, code = -32000) => ({
  jsonrpc: '2.0',
  error: { code, message: expect.stringMatching(message) },
  id: null,
});

describe('public connector over HTTP', () => {
  let stack: Stack;
  let port: string;
  beforeAll(async () => {
    stack = await startStack({ env: { MCP_RATE_LIMIT_PER_MINUTE: '100000' } });
    port = new URL(stack.origin).port;
  });
  afterAll(() => stack.close());

  const list = (headers: Record<string, string>) => raw(stack, { body: rpc('tools/list'), headers });

  it('answers on its own hosts: the public base URL host and loopback names, any port', async () => {
    for (const host of ['packline.test', 'packline.test:443', `127.0.0.1:${port}`, 'localhost:1234', `[::1]:${port}`]) {
      const answer = await list({ host });
      expect(answer.status, host).toBe(200);
      expect(answer.headers['x-request-id'], host).toMatch(/^[0-9a-f-]{36}$/);
      expect(rpcResult(answer).tools).toHaveLength(6);
    }
  });

  it('refuses another Host with 403 and a JSON-RPC error (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      'packline.test.evil.example',
      'evil.example@127.0.0.1',
      '127.0.0.1.nip.io',
    ]) {
      const answer = await list({ host });
      expect(answer.status, host).toBe(403);
      expect(answer.json(), host).toEqual(rpcError(/Host header refused/));
    }
  });

  it('refuses a foreign or opaque Origin with 403, and accepts its own', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null', 'file://', 'chrome-extension://abc']) {
      const answer = await list({ origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.json(), origin).toEqual(rpcError(/Origin header refused/));
    }
    for (const origin of ['https://packline.test', `http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      expect((await list({ origin })).status, origin).toBe(200);
    }
  });

  it('answers GET and DELETE with 405 and Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'OPTIONS']) {
      const answer = await raw(stack, { method, headers: { accept: 'text/event-stream' } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow, method).toBe('POST');
      expect(answer.json(), method).toEqual(rpcError(/answers POST only/));
    }
  });

  it('keeps no session: no Mcp-Session-Id, and an unknown one changes nothing', async () => {
    const initialize = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    const answer = await raw(stack, { body: initialize });
    expect(answer.status).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    expect(rpcResult(answer).serverInfo).toMatchObject({ name: 'packline-public' });
    const later = await list({ 'mcp-session-id': 'made-up', 'mcp-protocol-version': '2025-06-18' });
    expect(later.status).toBe(200);
  });

  it('answers a body that is not JSON with 400 and a parse error, and an oversized one with 413', async () => {
    const garbled = await raw(stack, { body: '{"jsonrpc": "2.0", "method": ' });
    expect(garbled.status).toBe(400);
    expect(garbled.json()).toEqual(rpcError(/Parse error/, -32700));
    const notRpc = await raw(stack, { body: { hello: 'world' } });
    expect(notRpc.status).toBe(400);
    const huge = await raw(stack, { body: JSON.stringify(rpc('tools/list', { padding: 'x'.repeat(300 * 1024) })) });
    expect(huge.status).toBe(413);
    expect(huge.json()).toEqual(rpcError(/larger than/));
  });

  it('answers each message of a JSON-RPC batch', async () => {
    const answer = await raw(stack, { body: [rpc('tools/list'), rpc('tools/list')] });
    expect(answer.status).toBe(200);
    expect(answer.json()).toHaveLength(2);
  });

  it('serves the SDK client, whose GET for a stream the 405 answers', async () => {
    const client = await connectPublic(stack, { origin: 'https://packline.test' });
    ok(await call(client, 'get_organization', { id: 'cobalt-data' }));
    await client.close();
    const paths = stack.logs
      .map((l) => JSON.parse(l) as { path?: string; method?: string; status?: number })
      .filter((l) => l.path === '/mcp');
    expect(paths.some((l) => l.method === 'GET' && l.status === 405)).toBe(true);
    expect(paths.every((l) => (l.status ?? 0) < 500)).toBe(true);
  });
});
