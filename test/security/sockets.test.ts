// Requests Node refuses before the handler (malformed, too slow): answered, then the server
// destroys the connection itself; it does not wait half-open for the client to close. The client
// sockets here allow half-open connections and never end their side.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/index.ts';
import { startStack, type Stack } from '../support/stack.ts';

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

  it('a body sent too slowly is cut off once the request deadline passes', async () => {
    const { client, server, received } = await rawConnection(stack);
    const closed = once(server, 'close');
    client.write('POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"query":');
    await closed;
    // Whatever was answered, nothing was a server failure.
    expect(received()).not.toMatch(/^HTTP\/1\.1 5/);
    client.destroy();
  });

  it('rejects deadlines that contradict each other', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '90', HTTP_REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(ConfigError);
  });
});
