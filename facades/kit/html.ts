import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

// Packline's server-rendered pages (administration, account, consent): every interpolated value
// escaped, no inline script.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is already safe: built only by `html`. */
export class Html {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
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
  /** Markup added to the head (the public pages' Open Graph tags and JSON-LD). */
  head?: Html;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
code{overflow-wrap:break-word}td code{overflow-wrap:anywhere}\
td[data-label=Prefix] code,td[data-label=Tool] code,label code{white-space:nowrap}\
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\
.note{color:#555}.error{color:#a30000}button{margin:.2rem .4rem .2rem 0}form.inline{display:inline}
label{display:block;margin:.5rem 0}input{display:block;margin-top:.2rem;padding:.3rem;width:20rem;max-width:100%}
@media (max-width:40rem){table.list thead{display:none}table.list tr{display:block;border-bottom:2px solid #ccc;padding:.4rem 0}
table.list td{display:block;border:0;padding:.15rem 0}table.list td[data-label]::before{content:attr(data-label) ": ";font-weight:bold}}
header.site{background:#123;color:#fff;padding:.5rem 1rem}header.site a{color:#fff}
header.site nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.nav-menu{display:none}.nav-menu summary{cursor:pointer;min-height:44px;display:flex;align-items:center;font-weight:bold}
.nav-menu ul{flex-direction:column}.nav-menu a{display:block;padding:.5rem 0}
header.site nav a[aria-current=page]{font-weight:bold;text-decoration:underline}
header.site .who{font-size:.9rem;margin:.25rem 0}
main{max-width:60rem;margin:0 auto}body{max-width:none;margin:0;padding:0}main{padding:0 1rem 3rem}
a{color:#0645ad}a:focus,button:focus,input:focus,select:focus{outline:3px solid #f90;outline-offset:2px}
button{padding:.4rem .8rem;font-size:1rem;cursor:pointer}button.danger{background:#a30000;color:#fff;border:1px solid #700}
fieldset{border:1px solid #ccc;margin:.75rem 0;padding:.5rem 1rem}legend{font-weight:bold}
fieldset label{display:flex;gap:.5rem;align-items:center}fieldset label input{display:inline;width:auto;margin:0}
select{display:block;margin-top:.2rem;padding:.3rem;font-size:1rem;max-width:100%}\
textarea{display:block;margin-top:.2rem;padding:.3rem;width:20rem;max-width:100%;font:inherit}
.secret{background:#fff8d6;border:2px solid #c90;padding:.75rem;margin:1rem 0}
.secret code{font-size:1.05rem;display:block;margin:.5rem 0;word-break:break-all}
.status-failed,.status-revoked,.status-expired,.status-disabled{color:#a30000}\
.status-succeeded,.status-active{color:#0a6b2d}.status-retrying,.status-paused{color:#7a4d00}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:bold}dd{margin:0}
pre{background:#f4f4f4;white-space:pre-wrap;word-break:break-word;padding:.75rem;overflow-x:auto;font-size:.85rem}
.meter{height:1rem;background:#e3e3e3;border-radius:.25rem;overflow:hidden;max-width:30rem}\
.meter span{display:block;height:100%;background:#2b6cb0}
.error-summary{border:3px solid #a30000;padding:.5rem 1rem;margin:1rem 0}.error-summary h2{margin:.25rem 0;font-size:1.2rem}\
.error-summary a{color:#a30000;font-weight:bold}
.field-error{color:#a30000;font-weight:bold;margin:.1rem 0 .5rem}[aria-invalid=true],fieldset.invalid{border:2px solid #a30000}
@media (max-width:40rem){
 header.site .nav-wide{display:none}header.site .nav-menu{display:block}
 dl{grid-template-columns:1fr}input,textarea{width:100%;box-sizing:border-box}
}
button,a.button{min-height:44px;min-width:44px;box-sizing:border-box}\
a.button{display:inline-flex;align-items:center;padding:.4rem .8rem;border:1px solid #767676;border-radius:.2rem;\
background:#efefef;color:#1b1b1b;text-decoration:none}
figure{margin:1rem 0}button.primary{background:#0b5394;color:#fff;border:1px solid #073763;font-weight:bold}
button.primary:hover{background:#073763}
.success{color:#0a4d22;background:#e7f5ec;border-left:6px solid #0a6b2d;padding:.5rem .75rem;font-weight:bold}
.notice{background:#eef4fb;border-left:6px solid #0b5394;padding:.5rem .75rem}`;

/**
 * A navigation whose links fold into a menu on a phone: the wide list, and a `<details>`
 * disclosure (keyboard accessible without script) that only narrow screens show.
 */
export function foldingNav(label: string, items: Html): Html {
  return html`<nav aria-label="${label}"><ul class="nav-wide">${items}</ul>\
<details class="nav-menu"><summary>Menu</summary><ul>${items}</ul></details></nav>`;
}

/** The one stylesheet of every page, served under a name that changes with its content. */
export const STYLESHEET = STYLE;
export const STYLESHEET_PATH = `/admin/assets/packline-${createHash('sha256').update(STYLE).digest('hex').slice(0, 12)}.css`;

/** The whole page in Packline's layout, as sent. */
export function renderPage(title: string, body: Html, options: PageOptions = {}): string {
  const { scripts = [], header, head } = options;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Packline</title><link rel="stylesheet" href="${STYLESHEET_PATH}">${head ?? ''}\
${scripts.map((src) => html`<script src="${src}" defer></script>`)}</head>
<body>${header ?? ''}<main><h1>${title}</h1>
${body}
</main></body></html>
`.text;
}

/** The headers of every page: its policy (no inline script), not cached unless `headers` say otherwise. */
export function pageHeaders(requestId: string, options: PageOptions = {}): Record<string, string> {
  const { headers = {}, formAction = [], scripts = [] } = options;
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': [
      "default-src 'none'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      ...(scripts.length ? ["script-src 'self'", "connect-src 'self'"] : []),
      ["form-action 'self'", ...formAction].join(' '),
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    // Not no-referrer: browsers then send `Origin: null` with the page's own forms, which the
    // same-origin check must refuse. same-origin still tells other sites nothing.
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-request-id': requestId,
    ...headers,
  };
}

export function sendHtml(res: ServerResponse, requestId: string, title: string, body: Html, options: PageOptions = {}): void {
  const { status = 200 } = options;
  const page = renderPage(title, body, options);
  res.writeHead(status, { ...pageHeaders(requestId, options), 'content-length': String(Buffer.byteLength(page)) });
  res.end(page);
}

/** 303 to another page (after a form), with cookies when given. */
export function seeOther(res: ServerResponse, location: string, requestId: string, cookies: string[] = []): void {
  res.writeHead(303, {
    location: headerSafe(location),
    'cache-control': 'no-store',
    'x-request-id': requestId,
    ...(cookies.length ? { 'set-cookie': cookies } : {}),
  });
  res.end();
}

/**
 * A Location value a header can carry: every character outside printable ASCII (CR, LF, Latin-1,
 * anything wider) percent-encoded as UTF-8, so no value can split the header or fail to be written.
 */
export function headerSafe(location: string): string {
  return location.replace(/[^\x21-\x7e]/gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
