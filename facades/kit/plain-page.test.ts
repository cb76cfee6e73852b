import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sendPage } from './plain-page.ts';

describe('sendPage', () => {
  it('escapes the title and every line, and forbids scripts', () => {
    const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
    const res = {
      writeHead(status: number, headers: Record<string, string>) {
        Object.assign(written, { status, headers });
        return this;
      },
      end(body: string) {
        written.body = body;
      },
    } as unknown as ServerResponse;
    sendPage(res, 400, { title: 'Tom & <Jerry>', lines: ['<script>alert(1)</script>', 'it\'s "done"'] }, 'req-1');
    expect(written.status).toBe(400);
    expect(written.body).toContain('<title>Tom &amp; &lt;Jerry&gt; · Packline</title>');
    expect(written.body).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p>it&#39;s &quot;done&quot;</p>');
    expect(written.headers?.['content-security-policy']).toContain("default-src 'none'");
    expect(written.headers?.['content-length']).toBe(String(Buffer.byteLength(written.body!)));
  });
});
