import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSenderAgent, send, sendTarget } from './send.ts';
import { readHeaders } from '../core/webhooks/attempt-headers.ts';

// One receiver, its answer chosen by the request path.
const answers: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted'),
  // 1,500 three-byte characters: the 2 KB excerpt ends inside one of them.
  '/multibyte': (res) => res.writeHead(500).end('€'.repeat(1_500)),
  '/huge': (res) => res.writeHead(200).end('x'.repeat(200_000)),
  '/retry-seconds': (res) => res.writeHead(503, { 'retry-after': '120' }).end(),
  '/retry-date': (res) => res.writeHead(429, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() }).end(),
  '/moved': (res) => res.writeHead(302, { location: 'https://elsewhere.example/hook' }).end(),
  '/reset': (res) => res.socket?.destroy(),
  '/cookie': (res) =>
    res
      .writeHead(200, [
        ['X-Trace', 'a'.repeat(600)],
        ['Set-Cookie', 'sid=receiver-only'],
        ['Set-Cookie', 'b=2'],
        ['X-Request-Id', 'r-1'],
      ])
      .end(),
};

let server: Server;
let origin: string;
const agent = createSenderAgent({ allowHttp: true, allowPrivateNetworks: true });
const request = {
  body: '{"id":"evt-1"}',
  headers: { 'content-type': 'application/json', 'content-length': '14' },
  headersText: 'content-type: application/json\ncontent-length: 14',
};
/** The headers each path last received, as read off the socket. */
const wire = new Map<string, string[]>();
const post = (path: string) => send(agent, sendTarget(`${origin}${path}`), request);

beforeAll(async () => {
  server = createServer((req, res) => {
    wire.set(req.url ?? '', req.rawHeaders);
    req.resume();
    req.on('end', () => answers[req.url ?? '']?.(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('send', () => {
  it('reports the status, the answer and the duration of a success', async () => {
    const result = await post('/ok');
    expect(result).toMatchObject({ statusCode: 202, error: null, responseExcerpt: 'accepted', retryAfterSeconds: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("keeps the headers sent and the receiver's, without its cookies, each value bounded", async () => {
    const result = await post('/cookie');
    // All that went on the wire, the lines the HTTP client writes itself first.
    const sent = readHeaders(result.requestHeaders)!;
    expect(sent).toEqual([
      { name: 'host', value: new URL(origin).host },
      { name: 'connection', value: 'keep-alive' },
      { name: 'content-type', value: 'application/json' },
      { name: 'content-length', value: '14' },
    ]);
    expect(sent.flatMap(({ name, value }) => [name, value])).toEqual(
      wire.get('/cookie')!.map((part, i) => (i % 2 ? part : part.toLowerCase())),
    );
    const received = readHeaders(result.responseHeaders)!;
    expect(received).toContainEqual({ name: 'x-trace', value: `${'a'.repeat(511)}…` });
    expect(received).toContainEqual({ name: 'x-request-id', value: 'r-1' });
    expect(received.map(({ name }) => name)).not.toContain('set-cookie');
    expect(result.responseHeaders).not.toContain('receiver-only');
    expect(await post('/reset')).toMatchObject({ responseHeaders: null });
  });

  it('keeps at most 2 KB of the answer, cut on a character boundary', async () => {
    const result = await post('/multibyte');
    expect(result.statusCode).toBe(500);
    expect(Buffer.byteLength(result.responseExcerpt!)).toBeLessThanOrEqual(2_048);
    expect(result.responseExcerpt).toBe('€'.repeat(682));
  });

  it('stops reading a very long answer and still judges the attempt by its status', async () => {
    const result = await post('/huge');
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(result.responseExcerpt).toBe('x'.repeat(2_048));
    // The connection was dropped, not left half read: the next attempt gets a fresh one.
    expect((await post('/ok')).statusCode).toBe(202);
  });

  it('reads Retry-After in seconds and as an HTTP date', async () => {
    expect((await post('/retry-seconds')).retryAfterSeconds).toBe(120);
    const dated = (await post('/retry-date')).retryAfterSeconds!;
    expect(dated).toBeGreaterThan(80);
    expect(dated).toBeLessThanOrEqual(91);
  });

  it('does not follow a redirect and names where it pointed', async () => {
    expect(await post('/moved')).toMatchObject({ statusCode: 302, error: 'redirect to https://elsewhere.example/hook not followed' });
  });

  it('describes a reset or a refused connection without throwing', async () => {
    expect(await post('/reset')).toMatchObject({ statusCode: null, error: 'connection reset by the receiver', responseExcerpt: null });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await send(agent, sendTarget(`http://127.0.0.1:${port}/hook`), request)).toMatchObject({
      statusCode: null,
      error: 'connection refused',
    });
  });

  it("writes the host as the HTTP client does: lower-cased, without the scheme's default port", () => {
    expect(sendTarget('https://Hooks.Example.COM:443/in?x=1')).toEqual({
      origin: 'https://hooks.example.com',
      path: '/in?x=1',
      headerLines: 'host: hooks.example.com\nconnection: keep-alive',
    });
    expect(sendTarget('http://[::1]:8080/in').headerLines).toBe('host: [::1]:8080\nconnection: keep-alive');
  });
});
