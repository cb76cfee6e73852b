import type { ServerResponse } from 'node:http';

// Packline's server-rendered pages (administration, account, consent): every interpolated value
// escaped, no inline script.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is already safe: built only by `html`. */
export class Html {
  constructor(readonly text: string) {}
}

type Part = string | number | null | undefined | Html | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A template whose every interpolation is escaped, unless it is itself `html`. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));
}

export interface PageOptions {
  status?: number;
  headers?: Record<string, string>;
  /** Extra `form-action` sources: where a form on this page may lead (the consent redirect). */
  formAction?: string[];
  /** Scripts served by Packline itself (`script-src 'self'`), such as the copy button. */
  scripts?: string[];
  /** Markup placed before the heading (the administration navigation). */
  header?: Html;
  /** Styles added after the common ones. */
  style?: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
code{overflow-wrap:break-word}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.note{color:#555}.error{color:#a30000}button{margin:.2rem .4rem .2rem 0}form.inline{display:inline}
label{display:block;margin:.5rem 0}input{display:block;margin-top:.2rem;padding:.3rem;width:20rem;max-width:100%}
@media (max-width:40rem){table.list thead{display:none}table.list tr{display:block;border-bottom:2px solid #ccc;padding:.4rem 0}
table.list td{display:block;border:0;padding:.15rem 0}table.list td[data-label]::before{content:attr(data-label) ": ";font-weight:bold}}`;

export function sendHtml(res: ServerResponse, requestId: string, title: string, body: Html, options: PageOptions = {}): void {
  const { status = 200, headers = {}, formAction = [], scripts = [], header, style = '' } = options;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Packline</title><style>${new Html(STYLE + style)}</style>${scripts.map((src) => html`<script src="${src}" defer></script>`)}</head>
<body>${header ?? ''}<main><h1>${title}</h1>
${body}
</main></body></html>
`.text;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(page)),
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:${scripts.length ? "; script-src 'self'" : ''}; form-action 'self'${formAction.map((s) => ` ${s}`).join('')}; frame-ancestors 'none'; base-uri 'none'`,
    // Not no-referrer: browsers then send `Origin: null` with the page's own forms, which the
    // same-origin check must refuse. same-origin still tells other sites nothing.
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-request-id': requestId,
    ...headers,
  });
  res.end(page);
}

/** 303 to another page (after a form), with cookies when given. */
export function seeOther(res: ServerResponse, location: string, requestId: string, cookies: string[] = []): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'x-request-id': requestId, ...(cookies.length ? { 'set-cookie': cookies } : {}) });
  res.end();
}

