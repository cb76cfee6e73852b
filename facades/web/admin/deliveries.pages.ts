import type { Request, Response, Router } from 'express';
import { DomainError } from '../../../core/index.ts';
import { USER_AGENT } from '../../../workers/tasks.ts';
import { html, type Html } from '../kit/html.ts';
import { plansLink } from './plans/plans-views.ts';
import type { AdminDeliveryFragment as Delivery, AdminDeliveryQuery } from '../../generated/web-admin.ts';
import type { OperationOutcome } from '../../operations.ts';
import { pathParam, type PageDeps } from '../kit/page-support.ts';
import {
  ADMIN_PATH,
  adminFailure,
  adminForm,
  adminPage,
  adminVisit,
  afterForm,
  exactly,
  orgPath,
  type AdminVisit,
} from './admin-support.ts';

type Attempt = AdminDeliveryQuery['webhookDelivery']['attempts'][number];
type Header = NonNullable<Attempt['requestHeaders']>[number];

export const webhooksPath = (visit: AdminVisit) => orgPath(visit.org.id, '/webhooks');
export const destinationPath = (visit: AdminVisit, id: string, rest = '') =>
  orgPath(visit.org.id, `/webhooks/${encodeURIComponent(id)}${rest}`);
const deliveryPath = (visit: AdminVisit, id: string, rest = '') => orgPath(visit.org.id, `/deliveries/${encodeURIComponent(id)}${rest}`);

/** Failures the service reports about a cursor read, for the page, as bad input. */
export const asPageFailure = (error: DomainError) =>
  error.code === 'invalid_cursor'
    ? new DomainError('invalid_input', 'This page of deliveries no longer exists; open the newest ones')
    : error;

/** What a delivery's state means: "retrying (attempt 3 of 8, next at …)" rather than "pending". */
export function deliveryState(d: Delivery, maxAttempts: number): string {
  if (d.status === 'succeeded') return d.attemptCount > 1 ? `succeeded at attempt ${d.attemptCount}` : 'succeeded';
  if (d.status === 'failed') return `failed after ${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}`;
  if (d.attemptCount === 0) return `queued (first attempt at ${exactly(d.nextAttemptAt)})`;
  return `retrying (attempt ${d.attemptCount + 1} of ${maxAttempts}, next at ${exactly(d.nextAttemptAt)})`;
}

/**
 * When the newest deliveries all failed (or are being retried after a failure): since when.
 * Null when the newest attempted delivery succeeded.
 */
export function failingSince(list: Delivery[]): string | null {
  let since: string | null = null;
  for (const d of list) {
    // A 410 disabled the destination: enabled again since, it starts afresh.
    if (d.status === 'succeeded' || d.lastStatusCode === 410) break;
    if (d.attemptCount === 0) continue;
    since = d.createdAt;
  }
  return since;
}

const eventLabel = (d: Delivery) => html`<code>${d.type}</code>${d.test ? ' (test)' : ''}`;

/** Retry, only where it can work: a failed delivery, or one waiting between attempts ("Retry now"), on a plan with manual retry. */
function retryButton(deps: PageDeps, visit: AdminVisit, d: Delivery): Html | '' {
  const waiting = d.status === 'pending' && d.attemptCount > 0;
  if (!visit.org.allowances.manualRetry || (d.status !== 'failed' && !waiting)) return '';
  return adminForm(
    deps,
    visit,
    deliveryPath(visit, d.id, '/retry'),
    `delivery-retry\n${d.id}`,
    html`<button type="submit">${waiting ? 'Retry now' : 'Retry'}<span class="visually-hidden"> the ${d.type} delivery of ${exactly(d.createdAt)}</span></button>`,
    {
      inline: true,
    },
  );
}

/** A destination's retained deliveries, newest first, each linking to its attempts. */
export function deliveriesTable(deps: PageDeps, visit: AdminVisit, list: Delivery[], maxAttempts: number): Html {
  if (list.length === 0) return html`<p class="note">No delivery here yet. Send a test event to see one.</p>`;
  const manual = visit.org.allowances.manualRetry;
  return html`<table class="list"><thead><tr><th>Created</th><th>Event</th><th>Status</th><th>Attempts</th><th>Last response</th><th>Last attempt</th><th><span class="visually-hidden">Details</span></th>${manual ? html`<th><span class="visually-hidden">Retry</span></th>` : ''}</tr></thead><tbody>
${list.map(
  (
    d,
  ) => html`<tr${d.status === 'pending' ? html` data-pending` : ''}><td data-label="Created">${exactly(d.createdAt)}</td><td data-label="Event">${eventLabel(d)}</td><td data-label="Status" class="status-${d.status === 'pending' && d.attemptCount > 0 ? 'retrying' : d.status}">${deliveryState(d, maxAttempts)}</td>
<td data-label="Attempts">${d.attemptCount}</td><td data-label="Last response">${d.lastStatusCode ?? d.lastError ?? '—'}</td><td data-label="Last attempt">${exactly(d.lastAttemptAt)}</td>
<td><a href="${deliveryPath(visit, d.id)}">Attempts<span class="visually-hidden"> of the ${d.type} delivery of ${exactly(d.createdAt)}</span></a></td>${manual ? html`<td>${retryButton(deps, visit, d)}</td>` : ''}</tr>`,
)}
</tbody></table>`;
}

/** The envelope every attempt carried, pretty-printed, with the size it is sent at. */
function requestBody(body: string | null, format: string | undefined): Html {
  if (body === null) return html`<p class="note">The body of this delivery is no longer kept.</p>`;
  let pretty = body;
  try {
    pretty = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // Shown as stored.
  }
  const bytes = Buffer.byteLength(body, 'utf8');
  const sent = format === undefined || format === 'standard-json' ? 'sent as is' : `rendered for the ${format} format from it`;
  return html`<h3>Body</h3>
<p>The envelope, <span id="body-size">${bytes.toLocaleString('en')} bytes</span> (${sent}; pretty-printed here):</p>
<pre id="body">${pretty}</pre>`;
}

function headersTable(caption: string, headers: Header[]): Html {
  return html`<table class="list"><caption>${caption}</caption><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
${headers.map((h) => html`<tr><td data-label="Header"><code>${h.name}</code></td><td data-label="Value"><code>${h.value}</code></td></tr>`)}
</tbody></table>`;
}

/** One attempt's request headers and the receiver's answer; the last one open. */
function attemptDetails(a: Attempt, open: boolean): Html {
  const answer = a.statusCode === null ? 'no answer' : `status ${a.statusCode}`;
  return html`<details id="attempt-${a.number}"${open ? html` open` : ''}><summary>Attempt ${a.number}: ${answer}, ${a.durationMs} ms, ${exactly(a.at)}</summary>
<h3>Request sent</h3>
${a.requestHeaders ? headersTable(`Headers sent at attempt ${a.number}`, a.requestHeaders) : html`<p class="note">The headers of this attempt were not recorded.</p>`}
<h3>Response</h3>
<dl><dt>Status</dt><dd>${a.statusCode ?? '—'}</dd><dt>Duration</dt><dd>${a.durationMs} ms</dd><dt>Error</dt><dd>${a.error ?? '—'}</dd></dl>
${a.responseHeaders ? headersTable(`Headers received at attempt ${a.number}`, a.responseHeaders) : html`<p class="note">No response headers${a.statusCode === null ? ' (no answer)' : ' recorded'}.</p>`}
${a.responseExcerpt ? html`<p>Body (first 2 KB):</p><pre>${a.responseExcerpt}</pre>` : html`<p class="note">Empty response body.</p>`}
</details>`;
}

/** The delivery when it belongs to the organization in the address; a foreign one reads as absent. */
function ofOrganization<D extends { organizationId: string }>(
  visit: AdminVisit,
  id: string,
  outcome: OperationOutcome<{ webhookDelivery: D }>,
): { ok: true; delivery: D } | { ok: false; error: DomainError } {
  if (!outcome.ok) return outcome;
  if (outcome.data.webhookDelivery.organizationId !== visit.org.id)
    return { ok: false, error: new DomainError('not_found', `No delivery with id '${id}'`) };
  return { ok: true, delivery: outcome.data.webhookDelivery };
}

/** One delivery with every attempt, and manual retry (Clan). */
export function mountDeliveryPages(router: Router, deps: PageDeps, maxAttempts: number): void {
  router.get(`${ADMIN_PATH}/orgs/:org/deliveries/:delivery`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const id = pathParam(req, 'delivery');
    const found = ofOrganization(visit, id, await deps.operations.run('AdminDelivery', { id }, visit.session.context));
    if (!found.ok) return adminFailure(res, visit, 'webhooks', found.error, webhooksPath(visit));
    const d = found.delivery;
    const destinations = await deps.operations.run('AdminDestinations', { id: visit.org.id }, visit.session.context);
    if (!destinations.ok) throw destinations.error;
    const target = destinations.data.webhookDestinations.find((x) => x.id === d.destinationId);
    const body = html`<p><a href="${destinationPath(visit, d.destinationId)}">Back to the destination</a></p>
<dl>${target ? html`<dt>Destination</dt><dd><a href="${destinationPath(visit, target.id)}">${target.name || target.format}</a> <code>${target.url}</code></dd>` : ''}<dt>Event</dt><dd>${eventLabel(d)}</dd><dt>Event id</dt><dd><code>${d.eventId}</code></dd>
<dt>Status</dt><dd class="status-${d.status}">${deliveryState(d, maxAttempts)}</dd><dt>Created</dt><dd>${exactly(d.createdAt)}</dd>
${d.deliveredAt ? html`<dt>Delivered</dt><dd>${exactly(d.deliveredAt)}</dd>` : ''}</dl>
${retryButton(deps, visit, d)}
${d.status === 'failed' && !visit.org.allowances.manualRetry ? html`<p class="note">Manual retry is part of the clan plan. ${plansLink(visit.org.id)}</p>` : ''}
<h2>Request</h2>
<p>Each attempt is a <code>POST</code> to ${target ? html`<code>${target.url}</code> (masked)` : 'the destination’s URL'} with these headers:</p>
<table class="list"><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
<tr><td data-label="Header"><code>content-type</code></td><td data-label="Value"><code>application/json</code></td></tr>
<tr><td data-label="Header"><code>user-agent</code></td><td data-label="Value"><code>${USER_AGENT}</code></td></tr>
<tr><td data-label="Header"><code>x-service-event-id</code>, <code>idempotency-key</code></td><td data-label="Value"><code>${d.eventId}</code> (the same on every attempt)</td></tr>
<tr><td data-label="Header"><code>x-service-delivery-format</code></td><td data-label="Value"><code>${target?.format ?? '—'}</code></td></tr>
${
  target?.format === 'standard-json'
    ? html`<tr><td data-label="Header"><code>x-service-signature</code></td><td data-label="Value"><code>t=&lt;attempt time&gt;,v1=&lt;HMAC-SHA256&gt;</code>, computed at each attempt with the signing secret</td></tr>
<tr><td data-label="Header"><code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code></td><td data-label="Value">the Standard Webhooks signature of the same body</td></tr>`
    : ''
}
${d.test ? html`<tr><td data-label="Header"><code>x-service-test</code></td><td data-label="Value"><code>1</code></td></tr>` : ''}
</tbody></table>
${requestBody(d.body, target?.format)}
<p class="note">Each attempt below keeps the headers it sent, with the signature values computed for it, and the receiver’s status, headers (cookies are not kept), the first 2 KB of its answer, duration and error.</p>
<h2>Attempts</h2>
${
  d.attempts.length === 0
    ? html`<p class="note">No attempt yet.</p>`
    : html`<table class="list"><thead><tr><th>#</th><th>Time</th><th>Duration</th><th>Status code</th><th>Error</th><th>Response (first 2 KB)</th></tr></thead><tbody>
${d.attempts.map(
  (
    a,
  ) => html`<tr><td data-label="Attempt"><a href="#attempt-${a.number}">${a.number}</a></td><td data-label="Time">${exactly(a.at)}</td><td data-label="Duration">${a.durationMs} ms</td>
<td data-label="Status code">${a.statusCode ?? '—'}</td><td data-label="Error">${a.error ?? '—'}</td>
<td data-label="Response">${a.responseExcerpt ? html`<pre>${a.responseExcerpt}</pre>` : '—'}</td></tr>`,
)}
</tbody></table>
${d.attempts.map((a, i) => attemptDetails(a, i === d.attempts.length - 1))}`
}`;
    adminPage(res, visit, 'webhooks', 'Delivery', body);
  });

  router.post(`${ADMIN_PATH}/orgs/:org/deliveries/:delivery/retry`, async (req: Request, res: Response) => {
    const id = pathParam(req, 'delivery');
    const visit = await adminVisit(deps, req, res, `delivery-retry\n${id}`);
    if (!visit) return;
    // Only a delivery of this organization: the service checks the admin, the page checks the address.
    const found = ofOrganization(visit, id, await deps.operations.run('AdminDeliverySummary', { id }, visit.session.context));
    if (!found.ok) return adminFailure(res, visit, 'webhooks', found.error, webhooksPath(visit));
    const back = destinationPath(visit, found.delivery.destinationId);
    const outcome = await deps.operations.run('AdminRetryDelivery', { id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, back);
    afterForm(res, back, 'retried');
  });
}
