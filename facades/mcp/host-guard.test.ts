import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHostGuard } from './host-guard.ts';

const request = (host: string | undefined, origin?: string) =>
  ({ headers: { host, ...(origin === undefined ? {} : { origin }) } }) as unknown as IncomingMessage;

describe('createHostGuard', () => {
  const guard = createHostGuard(['mcp.example.org', 'localhost:8080', '[::1]', '10.0.0.5']);

  it('lets through the allowed hosts, on any port or on the port given', () => {
    for (const host of ['mcp.example.org', 'MCP.Example.org:443', 'localhost:8080', '[::1]:3000', '10.0.0.5:80']) {
      expect(guard(request(host)), host).toBeUndefined();
    }
  });

  it('refuses other hosts, other ports and smuggled hosts', () => {
    for (const host of [
      undefined,
      'evil.example',
      'localhost',
      'localhost:8081',
      'mcp.example.org.evil.example',
      'evil@mcp.example.org',
      'mcp.example.org/x',
      'mcp.example.org:99999',
      '[::2]',
    ]) {
      expect(guard(request(host)), String(host)).toMatch(/Host header refused/);
    }
  });

  it('checks the Origin when one is sent, against the same hosts', () => {
    expect(guard(request('mcp.example.org', 'https://mcp.example.org'))).toBeUndefined();
    expect(guard(request('mcp.example.org', 'http://localhost:8080'))).toBeUndefined();
    for (const origin of ['https://evil.example', 'http://localhost', 'http://localhost:9999', 'null', 'file:///tmp/x.html', 'not a url']) {
      expect(guard(request('mcp.example.org', origin)), origin).toMatch(/Origin header refused/);
    }
  });
});
