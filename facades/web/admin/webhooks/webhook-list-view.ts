import { DELIVERY_FORMATS, type TeamChatProvider } from '../../../../core/index.ts';
import { at } from '../../../kit/dates.ts';
import { errorSummary, fieldAttrs, fieldError, fieldValue, freshForm, type FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { orgPath } from '../admin-paths.ts';
import { adminForm, type AdminVisit } from '../layout.ts';
import { destinationPath, webhooksPath } from './webhook-paths.ts';
import { plansLink } from '../plans/plans-views.ts';
import { destinationUrl } from '../signing/signing-views.ts';
import {
  CREATE_LABELS,
  FORMAT_LABELS,
  FORMAT_NAMES,
  labelFields,
  labelOf,
  lastDayText,
  settingsFields,
  statusText,
  titleOf,
  type Destination,
} from './webhook-fields.ts';

// The list of an organization's webhook destinations, with the forms that add one.

export interface ListView {
  list: Destination[];
  form: FormState;
  done: Html | '';
  teamChat: TeamChatProvider | undefined;
}

function destinationRow(visit: AdminVisit, d: Destination): Html {
  const description = d.description ? html`<br><span class="note">${d.description}</span>` : '';
  return html`<tr><td data-label="Destination"><a href="${destinationPath(visit, d.id)}">${titleOf(d)}</a>${description}</td>
<td data-label="URL">${destinationUrl(d)}</td><td data-label="Format">${labelOf(FORMAT_NAMES, d.format)}</td>
<td data-label="Language">${d.language}</td><td data-label="Event kinds">${d.kinds.join(', ')}</td>
<td data-label="Scope">${d.scope}</td>
<td data-label="Status" class="status-${d.status}">${statusText(d)}</td>
<td data-label="Last 24 h">${lastDayText(d)}</td>
<td data-label="Signing secret">${d.secret ? html`<code>${d.secret}</code>` : 'none (unsigned format)'}</td>
<td data-label="Created">${at(d.createdAt)}</td></tr>`;
}

function destinationTable(visit: AdminVisit, list: Destination[]): Html {
  if (list.length === 0) return html`<p class="note">No destination yet.</p>`;
  return html`<table class="list"><thead><tr><th>Destination</th><th>URL</th><th>Format</th><th>Language</th>
<th>Event kinds</th><th>Scope</th><th>Status</th><th>Last 24 h</th><th>Signing secret</th><th>Created</th></tr>
</thead><tbody>
${list.map((d) => destinationRow(visit, d))}
</tbody></table>`;
}

function createForm(deps: PageDeps, visit: AdminVisit, form: FormState): Html {
  const format = fieldValue(form, 'format', 'standard-json');
  const formats = DELIVERY_FORMATS.map(
    (f) => html`<option value="${f}"${f === format ? html` selected` : ''}>${FORMAT_LABELS[f]}</option>`,
  );
  return adminForm(
    deps,
    visit,
    webhooksPath(visit),
    'webhook-create',
    html`
${labelFields(form)}
<label for="f-format">Format</label><select name="format"${fieldAttrs(form, 'format')}>${formats}</select>
${fieldError(form, 'format')}
<label for="f-url">URL</label>
<input type="url" name="url" required maxlength="2000" placeholder="https://" value="${fieldValue(form, 'url')}"${fieldAttrs(form, 'url', 'url-help')}>
${fieldError(form, 'url')}
<p id="url-help" class="note">An https address on the public internet.
 Standard JSON deliveries are signed with a secret shown once, after you add the destination.
 For the team-chat and collaboration-suite formats, paste the channel’s incoming webhook URL:
 it is stored encrypted and shown masked.</p>
${settingsFields(form)}
<button type="submit" class="primary">Add destination</button>`,
  );
}

const NO_ONE_CLICK =
  'One-click connection is not available on this service; ' + 'paste the channel’s incoming webhook URL with the team-chat format.';

function teamChatPart(deps: PageDeps, visit: AdminVisit, view: ListView): Html {
  if (view.teamChat) {
    const connect = html`${settingsFields(freshForm(), 'chat')}<button type="submit">Connect a team-chat channel</button>`;
    return html`<p>You pick the channel on the team-chat provider’s site.
 Packline asks only for permission to post to that channel and keeps no access token.</p>
${adminForm(deps, visit, orgPath(visit.org.id, '/webhooks/team-chat'), 'webhook-team-chat', connect)}`;
  }
  return html`<p class="note">${NO_ONE_CLICK}</p>`;
}

/** Whether the plan leaves room for another destination. */
export const isFull = (visit: AdminVisit, list: Destination[]) => list.length >= visit.org.allowances.destinations;

export function listView(deps: PageDeps, visit: AdminVisit, view: ListView): Html {
  const { plan } = visit.org;
  const limit = visit.org.allowances.destinations;
  const s = limit === 1 ? '' : 's';
  const larger = plan === 'clan' ? '' : ', or move to a larger plan';
  const refusal = `The ${plan} plan allows ${limit} webhook destination${s}. Delete one before adding another${larger}.`;
  const add = isFull(visit, view.list)
    ? html`<p class="error" role="alert">${refusal} ${plansLink(visit.org.id)}</p>`
    : html`${createForm(deps, visit, view.form)}
<h3>Connect a team-chat channel</h3>
${teamChatPart(deps, visit, view)}`;
  return html`${errorSummary(view.form, CREATE_LABELS)}${view.done}
<p>The ${plan} plan allows up to ${limit} destination${s} (${view.list.length} in use).</p>
<h2>Your destinations</h2>
${destinationTable(visit, view.list)}
<h2>Add a destination</h2>
${add}`;
}
