import { PLAN_ALLOWANCES, PLANS, type Plan, type PlanAllowances } from '../../../../core/index.ts';
import { html, type Html } from '../../../kit/html.ts';
import { orgPath } from '../admin-paths.ts';

/** What the organization uses now of each allowance that is counted. */
export interface CurrentUse {
  activeKeys: number;
  monthlyQuota: number;
  destinations: number;
}

const number = (n: number) => n.toLocaleString('en');

/** Each allowance: its row label and how a value reads; the rows follow PlanAllowances. */
const ROWS: { [K in keyof PlanAllowances]: { label: string; value: (v: PlanAllowances[K]) => string } } = {
  activeKeys: { label: 'Active API keys at once', value: (v) => `up to ${v}` },
  monthlyQuota: { label: 'API calls per month', value: (v) => number(v) },
  destinations: { label: 'Webhook destinations', value: (v) => `up to ${v}` },
  retainedDeliveries: { label: 'Deliveries kept per destination', value: (v) => `the newest ${v}` },
  manualRetry: { label: 'Sending a failed delivery again by hand', value: (v) => (v ? 'yes' : 'no') },
};

/** The link every limit message carries. */
export function plansLink(orgId: string): Html {
  return html`<a href="${orgPath(orgId, '/plans')}">Compare the plans</a>`;
}

/** The three plans side by side, the current one marked, with this organization's use. */
export function plansTable(current: Plan, use: CurrentUse): Html {
  const keys = Object.keys(ROWS) as (keyof PlanAllowances)[];
  const heading = (p: Plan) =>
    html`<th scope="col"${p === current ? html` aria-current="true"` : ''}>${p}${p === current ? ' (yours)' : ''}</th>`;
  return html`<table class="list plans"><caption>What each plan allows; your plan is ${current}</caption>
<thead><tr><th scope="col">Allowance</th>${PLANS.map(heading)}<th scope="col">You use now</th></tr></thead>
<tbody>${keys.map((k) => allowanceRow(k, use))}</tbody></table>`;
}

function allowanceRow(k: keyof PlanAllowances, use: CurrentUse): Html {
  const row = ROWS[k] as { label: string; value: (v: unknown) => string };
  const used = k in use ? number(use[k as keyof CurrentUse]) : '—';
  const allowed = PLANS.map((p) => html`<td data-label="${p}">${row.value(PLAN_ALLOWANCES[p][k])}</td>`);
  return html`<tr><th scope="row">${row.label}</th>${allowed}<td data-label="You use now">${used}</td></tr>`;
}

export const HOW_TO_CHANGE = html`<h2>Changing plan</h2>
<p>A plan is changed by the Packline operator, not on these pages: ask them, and they run \
<code>packline orgs update YOUR_ORG --plan clan</code> (or <code>alpha</code>, <code>base</code>). \
The new allowances apply at once; keys and destinations beyond a smaller plan’s limits keep working \
until you revoke or delete them, but you cannot add more.</p>`;
