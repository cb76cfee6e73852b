import type { ServerResponse } from 'node:http';
import { html } from './html.ts';

/** A small self-contained page for a person in a browser; every string given is escaped. */
export function sendPage(res: ServerResponse, status: number, page: { title: string; lines: string[] }, requestId: string): void {
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Packline</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;
line-height:1.5;color:#1b1b1b}</style>
</head><body><h1>${page.title}</h1>
${page.lines.map((line, i) => html`${i ? '\n' : ''}<p>${line}</p>`)}
</body></html>
`.text;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
  });
  res.end(body);
}
