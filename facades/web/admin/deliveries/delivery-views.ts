import type { DeliveryFormat, Language } from '../../../../core/index.ts';
import { renderBody, USER_AGENT } from '../../../../workers/tasks.ts';
import { exactly } from '../../../kit/dates.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import type { AdminDeliveryQuery, AdminDestinationsQuery } from '../../../generated/web-admin.ts';
import type { AdminVisit } from '../layout.ts';
import { plansLink } from '../plans/plans-views.ts';
import { destinationPath } from '../webhooks/webhook-paths.ts';
import { deliveryState, eventLabel, retryButton } from './delivery-list-view.ts';

// One delivery: its request (headers and body) and every attempt with the receiver's answer.

type Delivery = AdminDeliveryQuery['webhookDelivery'];
type Attempt = Delivery['attempts'][number];
type Header = NonNullable<Attempt['requestHeaders']>[number];
export type Target = AdminDestinationsQuery['webhookDestinations'][number];

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The body each attempt posted, rendered from the envelope as the dispatcher renders it. */
function postedBody(envelope: string, target: Target | undefined): string {
  if (!target || target.format === 'standard-json') return envelope;
  const job = { id: '', envelope, secrets: [], timestamp: 0 };
  return renderBody({ ...job, format: target.format as DeliveryFormat, language: target.language as Language });
}

/** The body every attempt posted, pretty-printed, with the size it is sent at; the envelope beside a rendered one. */
function requestBody(envelope: string | null, target: Target | undefined): Html {
  if (envelope === null) return html`<p class="note">The body of this delivery is no longer kept.</p>`;
  const body = postedBody(envelope, target);
  const bytes = html`<span id="body-size">${Buffer.byteLength(body, 'utf8').toLocaleString('en')} bytes</span>`;
  if (body === envelope)
    return html`<h3>Body</h3>
<p>The envelope, ${bytes} (sent as is; pretty-printed here):</p>
<pre id="body">${pretty(body)}</pre>`;
  return html`<h3>Body</h3>
<p>The body posted, ${bytes} (rendered for the ${target?.format} format from the envelope; pretty-printed here):</p>
<pre id="body">${pretty(body)}</pre>
<details><summary>The envelope it was rendered from</summary><pre id="envelope">${pretty(envelope)}</pre></details>`;
}

const headerRow = (name: Html, value: Html) => html`<tr><td data-label="Header">${name}</td><td data-label="Value">${value}</td></tr>`;

function headersTable(caption: string, headers: Header[]): Html {
  return html`<table class="list"><caption>${caption}</caption>
<thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
${headers.map((h) => headerRow(html`<code>${h.name}</code>`, html`<code>${h.value}</code>`))}
</tbody></table>`;
}

/** One attempt's request headers and the receiver's answer; the last one open. */
function attemptDetails(a: Attempt, open: boolean): Html {
  const answer = a.statusCode === null ? 'no answer' : `status ${a.statusCode}`;
  const sent = a.requestHeaders
    ? headersTable(`Headers sent at attempt ${a.number}`, a.requestHeaders)
    : html`<p class="note">The headers of this attempt were not recorded.</p>`;
  const received = a.responseHeaders
    ? headersTable(`Headers received at attempt ${a.number}`, a.responseHeaders)
    : html`<p class="note">No response headers${a.statusCode === null ? ' (no answer)' : ' recorded'}.</p>`;
  const excerpt = a.responseExcerpt
    ? html`<p>Body (first 2 KB):</p><pre>${a.responseExcerpt}</pre>`
    : html`<p class="note">Empty response body.</p>`;
  return html`<details id="attempt-${a.number}"${open ? html` open` : ''}>
<summary>Attempt ${a.number}: ${answer}, ${a.durationMs} ms, ${exactly(a.at)}</summary>
<h3>Request sent</h3>
${sent}
<h3>Response</h3>
<dl><dt>Status</dt><dd>${a.statusCode ?? '—'}</dd><dt>Duration</dt><dd>${a.durationMs} ms</dd>
<dt>Error</dt><dd>${a.error ?? '—'}</dd></dl>
${received}
${excerpt}
</details>`;
}

/** The headers every attempt sends, as the dispatcher builds them (workers/tasks.ts). */
function requestHeaders(d: Delivery, target: Target | undefined): Html {
  const signed =
    target?.format === 'standard-json'
      ? html`${headerRow(
          html`<code>x-service-signature</code>`,
          html`<code>t=&lt;attempt time&gt;,v1=&lt;HMAC-SHA256&gt;</code>,
 computed at each attempt with the signing secret`,
        )}
${headerRow(
  html`<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>`,
  html`the Standard Webhooks signature of the same body`,
)}`
      : '';
  return html`<table class="list"><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
${headerRow(
  html`<code>host</code>, <code>connection</code>, <code>content-length</code>`,
  html`the receiver’s host, <code>keep-alive</code>, the body’s size in bytes`,
)}
${headerRow(html`<code>content-type</code>`, html`<code>application/json</code>`)}
${headerRow(html`<code>user-agent</code>`, html`<code>${USER_AGENT}</code>`)}
${headerRow(
  html`<code>x-service-event-id</code>, <code>idempotency-key</code>`,
  html`<code>${d.eventId}</code> (the same on every attempt)`,
)}
${headerRow(html`<code>x-service-delivery-format</code>`, html`<code>${target?.format ?? '—'}</code>`)}
${signed}
${d.test ? headerRow(html`<code>x-service-test</code>`, html`<code>1</code>`) : ''}
</tbody></table>`;
}

function attemptsTable(attempts: Attempt[]): Html {
  if (attempts.length === 0) return html`<p class="note">No attempt yet.</p>`;
  return html`<table class="list"><thead><tr><th>#</th><th>Time</th><th>Duration</th><th>Status code</th>
<th>Error</th><th>Response (first 2 KB)</th></tr></thead><tbody>
${attempts.map(
  (a) => html`<tr><td data-label="Attempt"><a href="#attempt-${a.number}">${a.number}</a></td>
<td data-label="Time">${exactly(a.at)}</td><td data-label="Duration">${a.durationMs} ms</td>
<td data-label="Status code">${a.statusCode ?? '—'}</td><td data-label="Error">${a.error ?? '—'}</td>
<td data-label="Response">${a.responseExcerpt ? html`<pre>${a.responseExcerpt}</pre>` : '—'}</td></tr>`,
)}
</tbody></table>
${attempts.map((a, i) => attemptDetails(a, i === attempts.length - 1))}`;
}

const destinationTerm = (visit: AdminVisit, target: Target) => {
  const link = html`<a href="${destinationPath(visit, target.id)}">${target.name || target.format}</a>`;
  return html`<dt>Destination</dt><dd>${link} <code>${target.url}</code></dd>`;
};

/** One delivery with its request and every attempt. */
export function deliveryView(
  deps: PageDeps,
  visit: AdminVisit,
  d: Delivery,
  target: Target | undefined,
  maxAttempts: number,
  done: Html | '' = '',
): Html {
  const disabledNote = html`<p class="note">The destination is ${target?.status}: enable it to retry this delivery.
</p>`;
  const planNote = html`<p class="note">Manual retry is part of the clan plan. ${plansLink(visit.org.id)}</p>`;
  const where = target ? html`<code>${target.url}</code> (masked)` : 'the destination’s URL';
  return html`${done}<p><a href="${destinationPath(visit, d.destinationId)}">Back to the destination</a></p>
<dl>${target ? destinationTerm(visit, target) : ''}
<dt>Event</dt><dd>${eventLabel(d)}</dd><dt>Event id</dt><dd><code>${d.eventId}</code></dd>
<dt>Status</dt><dd class="status-${d.status}">${deliveryState(d, maxAttempts)}</dd>
<dt>Created</dt><dd>${exactly(d.createdAt)}</dd>
${d.deliveredAt ? html`<dt>Delivered</dt><dd>${exactly(d.deliveredAt)}</dd>` : ''}</dl>
${retryButton(deps, visit, d, target?.status === 'active')}
${target && target.status !== 'active' && d.status === 'failed' ? disabledNote : ''}
${d.status === 'failed' && !visit.org.allowances.manualRetry ? planNote : ''}
<h2>Request</h2>
<p>Each attempt is a <code>POST</code> to ${where} with these headers:</p>
${requestHeaders(d, target)}
${requestBody(d.body, target)}
<p class="note">Each attempt below keeps the headers it sent, with the signature values computed for it,
 and the receiver’s status, headers (cookies are not kept), the first 2 KB of its answer, duration and error.</p>
<h2>Attempts</h2>
${attemptsTable(d.attempts)}`;
}
