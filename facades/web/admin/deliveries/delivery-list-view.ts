import { DomainError } from '../../../../core/index.ts';
import { exactly } from '../../../kit/dates.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import type { AdminDeliveryFragment as Delivery } from '../../../generated/web-admin.ts';
import { adminForm, type AdminVisit } from '../layout.ts';
import { deliveryPath, destinationPath } from '../webhooks/webhook-paths.ts';

// A destination's deliveries as a table, with what each delivery's state means and its Retry.

/** How long a due delivery may wait for its lane before the page says it waits behind another. */
const QUEUE_GRACE_MS = 5_000;

/** Failures the service reports about a cursor read, for the page, as bad input. */
export const asPageFailure = (error: DomainError) =>
  error.code === 'invalid_cursor'
    ? new DomainError('invalid_input', 'This page of deliveries no longer exists; open the newest ones')
    : error;

/** How the delivery list is shown: whether Retry can work, and whether a filter emptied it. */
export interface ListOptions {
  /** Whether the destination receives deliveries (Retry is offered on an active one only). */
  isActive: (destinationId: string) => boolean;
  /** A filter or search is applied (an empty list then says nothing matches). */
  filtered?: boolean;
  /** Across destinations: each row names its destination. */
  destinationOf?: (destinationId: string) => { id: string; name: string; format: string } | undefined;
}

/** The states a delivery list can be filtered by. */
export const DELIVERY_STATUSES_SHOWN = ['pending', 'succeeded', 'failed'] as const;

/** What a delivery's state means: "retrying (attempt 3 of 8, next at …)" rather than "pending". */
export function deliveryState(d: Delivery, maxAttempts: number, now = Date.now()): string {
  if (d.status === 'succeeded') return d.attemptCount > 1 ? `succeeded at attempt ${d.attemptCount}` : 'succeeded';
  if (d.status === 'failed') return `failed after ${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}`;
  // Due and not sent: a lane sends in order, so an earlier delivery is still being attempted.
  if (d.attemptCount === 0 && d.nextAttemptAt && Date.parse(d.nextAttemptAt) < now - QUEUE_GRACE_MS)
    return `waiting behind an earlier delivery to this destination (due since ${exactly(d.nextAttemptAt)})`;
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

/** The delivery a row's button or link acts on, for screen readers. */
const ofDelivery = (d: Delivery) => html`<span class="visually-hidden"> the ${d.type} delivery of ${exactly(d.createdAt)}</span>`;

export const eventLabel = (d: Delivery) => html`<code>${d.type}</code>${d.test ? ' (test)' : ''}`;

/**
 * Retry, only where it can work: a failed delivery, or one waiting between attempts ("Retry now"),
 * on a plan with manual retry.
 */
export function retryButton(deps: PageDeps, visit: AdminVisit, d: Delivery, active: boolean): Html | '' {
  const waiting = d.status === 'pending' && d.attemptCount > 0;
  if (!active || !visit.org.allowances.manualRetry || (d.status !== 'failed' && !waiting)) return '';
  const label = html`<button type="submit">${waiting ? 'Retry now' : 'Retry'}${ofDelivery(d)}</button>`;
  return adminForm(deps, visit, deliveryPath(visit, d.id, '/retry'), `delivery-retry\n${d.id}`, label, {
    inline: true,
  });
}

const destinationCell = (visit: AdminVisit, d: Delivery, t: { name: string; format: string }) =>
  html`<td data-label="Destination"><a href="${destinationPath(visit, d.destinationId)}">${t.name || t.format}</a>
</td>`;

function deliveryRow(deps: PageDeps, visit: AdminVisit, d: Delivery, maxAttempts: number, options: ListOptions): Html {
  const status = d.status === 'pending' && d.attemptCount > 0 ? 'retrying' : d.status;
  const named = options.destinationOf;
  const target = named ? (named(d.destinationId) ?? { name: '', format: '—' }) : null;
  const retry = retryButton(deps, visit, d, options.isActive(d.destinationId));
  return html`<tr${d.status === 'pending' ? html` data-pending` : ''}>
<td data-label="Created">${exactly(d.createdAt)}</td>${target ? destinationCell(visit, d, target) : ''}
<td data-label="Event">${eventLabel(d)}</td>
<td data-label="Status" class="status-${status}">${deliveryState(d, maxAttempts)}</td>
<td data-label="Attempts">${d.attemptCount}</td>
<td data-label="Last response">${d.lastStatusCode ?? d.lastError ?? '—'}</td>
<td data-label="Last attempt">${exactly(d.lastAttemptAt)}</td>
<td><a href="${deliveryPath(visit, d.id)}">Attempts<span class="visually-hidden"> of</span>${ofDelivery(d)}</a></td>
${visit.org.allowances.manualRetry ? html`<td>${retry}</td>` : ''}</tr>`;
}

/** A destination's retained deliveries, newest first, each linking to its attempts. */
export function deliveriesTable(deps: PageDeps, visit: AdminVisit, list: Delivery[], maxAttempts: number, options: ListOptions): Html {
  if (list.length === 0 && options.filtered) return html`<p class="note">No delivery matches these filters.</p>`;
  if (list.length === 0) return html`<p class="note">No delivery here yet. Send a test event to see one.</p>`;
  const manual = visit.org.allowances.manualRetry;
  const across = options.destinationOf ? html`<th>Destination</th>` : '';
  return html`<table class="list"><thead><tr><th>Created</th>${across}<th>Event</th><th>Status</th><th>Attempts</th>
<th>Last response</th><th>Last attempt</th><th><span class="visually-hidden">Details</span></th>
${manual ? html`<th><span class="visually-hidden">Retry</span></th>` : ''}</tr></thead><tbody>
${list.map((d) => deliveryRow(deps, visit, d, maxAttempts, options))}
</tbody></table>`;
}
