import { SIGNAL_TYPES } from '../../../../core/index.ts';
import type { AdminDestinationQuery } from '../../../generated/web-admin.ts';
import { at } from '../../../kit/dates.ts';
import type { Flash } from '../../../kit/flash.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { deliveriesTable } from '../deliveries/index.ts';
import { adminForm, shownOnce, type AdminVisit } from '../layout.ts';
import { destinationUrl, secretActions } from '../signing/signing-views.ts';
import { FORMAT_LABELS, LANGUAGE_LABELS, SCOPE_LABELS, labelOf, lastDayText, statusText, titleOf } from './webhook-fields.ts';
import type { Destination } from './webhook-fields.ts';
import { destinationPath, webhooksPath } from './webhook-paths.ts';

// One webhook destination: its settings, the actions on it, and its retained deliveries.

export const STATUS_FILTERS = ['pending', 'succeeded', 'failed'] as const;

type Deliveries = AdminDestinationQuery['webhookDeliveries'];
type Delivery = Deliveries['edges'][number]['node'];

export interface DestinationView {
  destination: Destination;
  deliveries: Delivery[];
  pageInfo: Deliveries['pageInfo'];
  /** The signing secret shown once, after the destination was added or its secret rotated. */
  shown: Flash | null;
  done: Html | '';
  /** Since when the newest deliveries fail, when they all do. */
  failing: string | null;
  /** A test event is on its way: the page refreshes the deliveries until it arrives. */
  waiting: boolean;
  filters: { status?: string; type?: string; after?: string };
  maxAttempts: number;
}

const FAILING_NOTE = 'its newest deliveries did not succeed (see below)';
const TEST_NOTE = 'A sample event of that kind, marked as a test.';
const PAUSE_NOTE = 'Nothing is sent until you resume it; events published meanwhile are not sent later.';
const PAUSED_NOTE = 'Paused: this destination receives nothing, and events published meanwhile are not kept for it.';
const ENABLE_AGAIN = 'Enable it again once the receiver accepts deliveries; it receives events from then on.';

function settings(d: Destination, failing: string | null): Html {
  const status = failing
    ? html`<dd class="status-failed">failing since ${at(failing)}: ${FAILING_NOTE}</dd>`
    : html`<dd class="status-${d.status}">${statusText(d)}</dd>`;
  const until = d.previousSecretExpiresAt;
  const previous = until ? ` (the previous secret also signs until ${at(until)})` : '';
  return html`<dl><dt>Name</dt><dd>${titleOf(d)}</dd>
${d.description ? html`<dt>Description</dt><dd>${d.description}</dd>` : ''}
<dt>Format</dt><dd>${labelOf(FORMAT_LABELS, d.format)}</dd>
<dt>URL</dt><dd>${destinationUrl(d)}</dd>
<dt>Language</dt><dd>${labelOf(LANGUAGE_LABELS, d.language)}</dd>
<dt>Event kinds</dt><dd>${d.kinds.join(', ')}</dd>
<dt>Scope</dt><dd>${labelOf(SCOPE_LABELS, d.scope)}</dd>
<dt>Status</dt>${status}
<dt>Last 24 h</dt><dd>${lastDayText(d)}</dd>
${d.secret ? html`<dt>Signing secret</dt><dd><code>${d.secret}</code>${previous}</dd>` : ''}
<dt>Added</dt><dd>${at(d.createdAt)}${d.connectedVia === 'oauth' ? ' through the team-chat connection' : ''}</dd></dl>`;
}

function actions(deps: PageDeps, visit: AdminVisit, d: Destination): Html {
  const path = destinationPath(visit, d.id);
  const button = (action: string, label: string, after: Html | '' = '') => {
    const content = html`<button type="submit">${label}</button>${after}`;
    return adminForm(deps, visit, `${path}/${action}`, `webhook-${action}\n${d.id}`, content);
  };
  if (d.status === 'active') {
    const kinds = d.kinds.map((k) => html`<option value="${k}">${k}</option>`);
    const test = html`<label for="test-kind">Event kind</label><select name="kind" id="test-kind">${kinds}</select>
<button type="submit">Send a test event</button> <span class="note">${TEST_NOTE}</span>`;
    return html`${adminForm(deps, visit, `${path}/test`, `webhook-test\n${d.id}`, test)}
${button('pause', 'Pause', html` <span class="note">${PAUSE_NOTE}</span>`)}`;
  }
  if (d.status === 'paused') return html`<p class="note">${PAUSED_NOTE}</p>${button('enable', 'Resume')}`;
  const reason = d.disabledReason ? ` (${d.disabledReason})` : '';
  const enable = button('enable', 'Enable the destination again');
  return html`<p class="note">Disabled${reason}: this destination receives nothing. ${ENABLE_AGAIN}</p>${enable}`;
}

function links(path: string, d: Destination): Html {
  return html`<ul><li><a href="${path}/edit">Edit name, address, language, event kinds or scope</a></li>${secretActions(path, d)}\
<li><a href="${path}/delete">Delete the destination</a></li></ul>`;
}

function filterForm(path: string, { status, type }: DestinationView['filters']): Html {
  const option = (value: string, chosen: string | undefined) =>
    html`<option value="${value}"${value === chosen ? html` selected` : ''}>${value}</option>`;
  return html`<form method="get" action="${path}" class="filters" aria-label="Filter the deliveries">
<label for="filter-status">Status</label><select name="status" id="filter-status">\
<option value="">Any status</option>${STATUS_FILTERS.map((s) => option(s, status))}</select>
<label for="filter-type">Event kind</label><select name="type" id="filter-type">\
<option value="">Any event kind</option>${SIGNAL_TYPES.map((k) => option(k, type))}</select>
<button type="submit">Show</button>${status || type ? html` <a href="${path}">Show all</a>` : ''}
</form>`;
}

function deliveriesPart(deps: PageDeps, visit: AdminVisit, view: DestinationView): Html {
  const { destination: d, filters, waiting, pageInfo } = view;
  const path = destinationPath(visit, d.id);
  const { allowances, plan } = visit.org;
  const withFilters = (extra: Record<string, string> = {}) => {
    const { status, type } = filters;
    const chosen = { ...(status ? { status } : {}), ...(type ? { type } : {}) };
    const query = new URLSearchParams({ ...chosen, ...extra }).toString();
    return query ? `?${query}` : '';
  };
  const retained = `the newest ${allowances.retainedDeliveries} finished deliveries of each destination`;
  const retry = allowances.manualRetry
    ? 'A failed delivery can be sent again with Retry.'
    : 'Retrying a failed delivery by hand is part of the clan plan.';
  const reload = html`<a href="${path}${withFilters({ done: 'test' })}">reload</a>`;
  const newest = filters.after ? html`<a href="${path}${withFilters()}">Newest deliveries</a> ` : '';
  const older =
    pageInfo.hasNextPage && pageInfo.endCursor
      ? html`<a href="${path}${withFilters({ after: pageInfo.endCursor })}">Older deliveries</a>`
      : '';
  return html`<h2>Deliveries</h2>
<p class="note">The ${plan} plan keeps ${retained}; older ones are deleted. Deliveries still being attempted are kept.
${retry}</p>
${filterForm(path, filters)}
<p class="note" role="status" data-refresh-status>\
${waiting ? html`Waiting for the test event to be delivered: ${reload} to see it.` : ''}</p>
<div id="deliveries" ${waiting ? html`data-refresh` : ''}>
${deliveriesTable(deps, visit, view.deliveries, view.maxAttempts, {
  isActive: () => view.destination.status === 'active',
  filtered: Boolean(view.filters.status || view.filters.type),
})}
</div>
${filters.after || pageInfo.hasNextPage ? html`<p>${newest}${older}</p>` : ''}`;
}

export function destinationView(deps: PageDeps, visit: AdminVisit, view: DestinationView): Html {
  const { destination: d, shown } = view;
  return html`${shown ? shownOnce(shown.label, shown.secret, shown.warning) : ''}
${view.done}
<p><a href="${webhooksPath(visit)}">All destinations</a></p>
${settings(d, view.failing)}
<h2>Actions</h2>
${actions(deps, visit, d)}
${links(destinationPath(visit, d.id), d)}
${deliveriesPart(deps, visit, view)}`;
}
