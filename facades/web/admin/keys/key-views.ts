import { API_SCOPES } from '../../../../core/index.ts';
import type { AdminKeyFragment } from '../../../generated/web-admin.ts';
import { at } from '../../../kit/dates.ts';
import type { Flash } from '../../../kit/flash.ts';
import { choicesOf, errorSummary, fieldAttrs, fieldError, fieldValue, groupAttrs } from '../../../kit/forms.ts';
import type { FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { orgPath } from '../admin-paths.ts';
import { adminForm, shownOnce, type AdminVisit } from '../layout.ts';
import { keyActions, keyExpiry } from '../keys-roll/roll-views.ts';
import { plansLink } from '../plans/plans-views.ts';

// The API key pages: the list with the form that creates a key, and the question before a revocation.

export type Key = AdminKeyFragment;

const SCOPE_LABELS: Record<string, string> = {
  'organization:read': 'organization:read — your organization’s public profile',
  'opportunities:read': 'opportunities:read — public needs',
  'events:read': 'events:read — public events',
};

export const FIELDS = ['name', 'scopes', 'expires_on'] as const;
const FIELD_LABELS: Record<string, string> = { name: 'Name', scopes: 'Scopes', expires_on: 'Expires on' };

export const keysPath = (visit: AdminVisit) => orgPath(visit.org.id, '/keys');
export const revokePath = (visit: AdminVisit, id: string) => `${keysPath(visit)}/${encodeURIComponent(id)}/revoke`;

export interface KeyListView {
  list: Key[];
  /** The new key, shown once after it was created. */
  created: Flash | null;
  form: FormState;
  done: Html | '';
  /** The expiry dates the form offers (YYYY-MM-DD): the first, the one suggested, the last. */
  expiry: { tomorrow: string; suggested: string; latest: string };
}

function keyRow(visit: AdminVisit, k: Key): Html {
  return html`<tr><td data-label="Name">${k.name}</td><td data-label="Prefix"><code>${k.prefix}</code></td>\
<td data-label="Scopes">${k.scopes.join(', ')}</td>
<td data-label="Created">${at(k.createdAt)}</td><td data-label="Expires">${keyExpiry(k)}</td>\
<td data-label="Last used">${k.lastUsedAt ? at(k.lastUsedAt) : 'never'}</td>
<td data-label="Status" class="status-${k.status}">${k.status}</td>
<td>${keyActions(keysPath(visit), k)}</td></tr>`;
}

function keyTable(visit: AdminVisit, list: Key[]): Html {
  if (list.length === 0) return html`<p class="note">No key yet.</p>`;
  return html`<table class="list"><thead><tr><th>Name</th><th>Prefix</th><th>Scopes</th><th>Created</th>\
<th>Expires</th><th>Last used</th><th>Status</th>\
<th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${list.map((k) => keyRow(visit, k))}
</tbody></table>`;
}

function createForm(deps: PageDeps, visit: AdminVisit, form: FormState, expiry: KeyListView['expiry']): Html {
  const chosen = choicesOf(form, 'scopes', API_SCOPES);
  const scope = (s: string, i: number) =>
    html`<label><input type="checkbox" name="scopes" value="${s}"${i === 0 ? html` id="f-scopes"` : ''}\
${chosen.includes(s) ? html` checked` : ''}> ${SCOPE_LABELS[s] ?? s}</label>`;
  const name = fieldValue(form, 'name', 'API key');
  const expires = fieldValue(form, 'expires_on', expiry.suggested);
  return adminForm(
    deps,
    visit,
    keysPath(visit),
    'key-create',
    html`
<label for="f-name">Name</label>\
<input name="name" maxlength="100" required value="${name}"${fieldAttrs(form, 'name', 'name-help')}>
${fieldError(form, 'name')}<p id="name-help" class="note">To tell your keys apart, such as the system that uses it.</p>
<fieldset${groupAttrs(form, 'scopes')}><legend>Scopes</legend>${fieldError(form, 'scopes')}
${API_SCOPES.map(scope)}
</fieldset>
<label for="f-expires_on">Expires on (end of day, UTC)</label>\
<input type="date" name="expires_on" required min="${expiry.tomorrow}" max="${expiry.latest}" value="${expires}"\
${fieldAttrs(form, 'expires_on')}>
${fieldError(form, 'expires_on')}
<button type="submit" class="primary">Create key</button>`,
  );
}

export function keyListView(deps: PageDeps, visit: AdminVisit, view: KeyListView): Html {
  const { plan } = visit.org;
  const limit = visit.org.allowances.activeKeys;
  const active = view.list.filter((k) => k.status === 'active').length;
  const s = limit === 1 ? '' : 's';
  const larger = plan === 'clan' ? '' : ', or move to a larger plan';
  const create =
    active >= limit
      ? html`<p class="error" role="alert">The ${plan} plan allows ${limit} active key${s}. \
Revoke one before creating another${larger}. ${plansLink(visit.org.id)}</p>`
      : createForm(deps, visit, view.form, view.expiry);
  const { created } = view;
  return html`
${errorSummary(view.form, FIELD_LABELS)}
${created ? shownOnce(created.label, created.secret, created.warning) : ''}
${view.done}
<p>The ${plan} plan allows up to ${limit} active key${s} (${active} in use).</p>
<h2>Your keys</h2>
${keyTable(visit, view.list)}
<h2>Create a key</h2>
${create}`;
}

export function revokeView(deps: PageDeps, visit: AdminVisit, key: Key): Html {
  const button = html`<button type="submit" class="danger">Revoke the key</button>`;
  const which = html`<strong>${key.name}</strong> (<code>${key.prefix}…</code>, scopes ${key.scopes.join(', ')})`;
  return html`<p>Revoke the key ${which}?</p>
<p>Every call made with it is refused from then on. This cannot be undone.</p>
${adminForm(deps, visit, revokePath(visit, key.id), `key-revoke\n${key.id}`, button)}
<p><a href="${keysPath(visit)}">Cancel</a></p>`;
}
