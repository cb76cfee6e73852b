import type { ServerResponse } from 'node:http';
import { html } from '../kit/html.ts';
import type { ExplorerAssets } from './explorer-assets.ts';

/**
 * The pages' policy, widened only as far as GraphiQL needs: its editor injects `<style>`
 * elements and embeds its fonts as `data:`, and runs its language services in workers loaded
 * from this origin. Scripts, requests and workers stay same-origin.
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export interface ExplorerView {
  urls: ExplorerAssets['urls'];
  /** Sent by the explorer as its header on every request: what the session cookie is honoured with. */
  requestToken: string;
  signOutToken: string;
  signOutPath: string;
}

/** GraphiQL under a one-line header (the title and sign-out); the page itself carries no script. */
export function explorerPage(res: ServerResponse, requestId: string, view: ExplorerView): void {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL explorer · Packline</title>
<meta name="packline-explorer-token" content="${view.requestToken}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${view.urls.css}">
</head>
<body class="packline-explorer">
<header class="packline-explorer-bar"><h1>Packline GraphQL explorer</h1>
<p>Signed in with the internal token</p>
<form method="post" action="${view.signOutPath}"><input type="hidden" name="csrf" value="${view.signOutToken}"><button type="submit">Sign out</button></form>
</header>
<main id="explorer" aria-label="GraphiQL"></main>
<script src="${view.urls.start}"></script>
<script src="${view.urls.bundle}"></script>
</body></html>
`.text;
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(page)),
    'cache-control': 'no-store',
    'content-security-policy': EXPLORER_CSP,
    // As the pages: same-origin keeps the Origin header of the sign-out form.
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-request-id': requestId,
  });
  res.end(page);
}
