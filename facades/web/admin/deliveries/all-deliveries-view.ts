import { SIGNAL_TYPES } from '../../../../core/index.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import type { AdminDeliveriesQuery } from '../../../generated/web-admin.ts';
import type { AdminVisit } from '../layout.ts';
import { deliveriesTable, DELIVERY_STATUSES_SHOWN } from './delivery-list-view.ts';

// Every delivery of the organization's destinations, filtered by status, kind, dates and id.

/** The filters as read from the address, each known or absent. */
export interface AllFilters {
  status?: string;
  type?: string;
  /** Days, YYYY-MM-DD, both included. */
  from?: string;
  to?: string;
  search?: string;
}

const option = (value: string, chosen: string | undefined) =>
  html`<option value="${value}"${value === chosen ? html` selected` : ''}>${value}</option>`;

function filterForm(path: string, f: AllFilters): Html {
  const any = Object.values(f).some(Boolean);
  return html`<form method="get" action="${path}" class="filters" aria-label="Filter the deliveries">
<label for="filter-status">Status</label>
<select name="status" id="filter-status"><option value="">Any status</option>
${DELIVERY_STATUSES_SHOWN.map((s) => option(s, f.status))}</select>
<label for="filter-type">Event kind</label>
<select name="type" id="filter-type"><option value="">Any event kind</option>
${SIGNAL_TYPES.map((k) => option(k, f.type))}</select>
<label for="filter-from">From</label><input type="date" name="from" id="filter-from" value="${f.from ?? ''}">
<label for="filter-to">To</label><input type="date" name="to" id="filter-to" value="${f.to ?? ''}">
<label for="filter-search">Delivery or event id</label>
<input type="search" name="q" id="filter-search" value="${f.search ?? ''}">
<button type="submit">Show</button>${any ? html` <a href="${path}">Show all</a>` : ''}
</form>`;
}

/** The deliveries across destinations, each naming its destination; links to the next page. */
export function allDeliveriesView(
  deps: PageDeps,
  visit: AdminVisit,
  data: AdminDeliveriesQuery,
  view: { path: string; filters: AllFilters; older: string | null; maxAttempts: number },
): Html {
  const byId = new Map(data.webhookDestinations.map((d) => [d.id, d]));
  const list = data.webhookDeliveries.edges.map((e) => e.node);
  const options = {
    isActive: (id: string) => byId.get(id)?.status === 'active',
    filtered: Object.values(view.filters).some(Boolean),
    destinationOf: (id: string) => byId.get(id),
  };
  return html`<p class="note">Every retained delivery of the organization’s destinations, newest first.</p>
${filterForm(view.path, view.filters)}
${deliveriesTable(deps, visit, list, view.maxAttempts, options)}
${view.older ? html`<p><a href="${view.older}">Older deliveries</a></p>` : ''}`;
}
