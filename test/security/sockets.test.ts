// Requests Node refuses before the handler (malformed, too slow): answered, then the server
// destroys the connection itself; it does not wait half-open for the client to close. The client
// sockets here allow half-open connections and never end their side.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/index.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';

/** A raw connection that never ends its side, and the server's socket for it. */
async function rawConnection(stack: Stack): Promise<{ client: Socket; server: Socket; received: () => string }> {
  const accepted = once(stack.app.server, 'connection') as Promise<[Socket]>;
  const client = connect({ host: '127.0.0.1', port: Number(new URL(stack.origin).port), allowHalfOpen: true });
  await once(client, 'connect');
  const [server] = await accepted;
  let text = '';
  client.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return { client, server, received: () => text };
}

describe('a malformed request, with the default deadlines', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
  });
  afterAll(() => stack?.close());

  it('a malformed request is answered 400 and the server closes the connection', async () => {
    const { client, server, received } = await rawConnection(stack);
    const closed = once(server, 'close');
    const ended = once(client, 'end');
    client.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nthis is not a header\r\n\r\n');
    await ended;
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(received()).toContain('"code":"invalid_parameter"');
    client.destroy();
  });
});

describe('deadlines', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false, env: { HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' } });
  });
  afterAll(() => stack?.close());

  it('headers sent too slowly are answered 408 and the server closes the connection', async () => {
    const { client, server, received } = await rawConnection(stack);
    const closed = once(server, 'close');
    const ended = once(client, 'end');
    client.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await ended;
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    client.destroy();
  });

  // Each reads its body before anything else could answer.
  for (const [where, path, headers] of [
    ['internal GraphQL', '/graphql', `authorization: Bearer ${INTERNAL_TOKEN}\r\ncontent-type: application/json`],
    ['the e-signature inbound address', '/inbound/e-signature/esc_none', 'content-type: application/json'],
    ['the public connector', '/mcp', 'content-type: application/json\r\naccept: application/json, text/event-stream'],
    ['the pages', '/account/login', 'content-type: application/x-www-form-urlencoded'],
    ['the OAuth registration', '/register', 'content-type: application/json'],
  ] as const) {
    it(`a body sent too slowly to ${where} is answered 408 once the request deadline passes, then the server closes the connection`, async () => {
      const { client, server, received } = await rawConnection(stack);
      const closed = once(server, 'close');
      const ended = once(client, 'end');
      client.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\ncontent-length: 100\r\n\r\n{"query":`);
      await ended;
      await closed;
      expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(received().toLowerCase()).toContain('connection: close');
      expect(received()).toContain('"status":408');
      client.destroy();
    });
  }

  it('the deadline answers are access-logged as 408, and no request is logged as failed', () => {
    const lines = stack.logs.map((l) => JSON.parse(l) as { level: number; msg: string; status?: number; path?: string });
    expect(lines.filter((l) => l.msg === 'request' && l.status === 408).map((l) => l.path)).toEqual(
      expect.arrayContaining(['/graphql', '/inbound/e-signature/esc_none', '/mcp', '/account/login', '/register']),
    );
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('rejects deadlines that contradict each other', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '90', HTTP_REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(ConfigError);
  });
});
