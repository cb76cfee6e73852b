import type { Request, Response, Router } from 'express';
import { API_SCOPES, DomainError } from '../../../core/index.ts';
import { flashCookie, takeFlash, type Flash } from '../kit/flash.ts';
import { html, seeOther } from '../kit/html.ts';
import type { AdminKeyFragment as Key } from '../../generated/web-admin.ts';
import { pathParam, requestIdOf, type PageDeps } from '../kit/page-support.ts';
import {
  ADMIN_PATH,
  adminFailure,
  adminForm,
  adminPage,
  adminVisit,
  afterForm,
  at,
  choicesOf,
  COPY_SCRIPT_PATH,
  errorSummary,
  fieldAttrs,
  fieldError,
  freshForm,
  groupAttrs,
  notice,
  orgPath,
  refused,
  refusedStatus,
  sentValues,
  shownOnce,
  fieldValue,
  type AdminVisit,
  type FormState,
} from './admin-support.ts';
import { keyActions, keyExpiry } from './keys-roll/roll-views.ts';
import { plansLink } from './plans/plans-views.ts';

const SCOPE_LABELS: Record<string, string> = {
  'organization:read': 'organization:read — your organization’s public profile',
  'opportunities:read': 'opportunities:read — public needs',
  'events:read': 'events:read — public events',
};

const FIELDS = ['name', 'scopes', 'expires_on'] as const;
const FIELD_LABELS: Record<string, string> = { name: 'Name', scopes: 'Scopes', expires_on: 'Expires on' };

const DONE = { revoked: 'The key is revoked. Calls with it are refused from now on.' };
const DEFAULT_LIFETIME_DAYS = 90;

/** API keys: list, create (the value shown once), revoke after confirmation; the plan's limit shown and enforced. */
export function mountKeyPages(router: Router, deps: PageDeps): void {
  const keysPath = (visit: AdminVisit) => orgPath(visit.org.id, '/keys');

  async function keys(visit: AdminVisit): Promise<Key[]> {
    const outcome = await deps.operations.run('AdminKeys', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    return outcome.data.apiKeys;
  }

  function listPage(req: Request, res: Response, visit: AdminVisit, list: Key[], created: Flash | null, form: FormState = freshForm()) {
    const limit = visit.org.allowances.activeKeys;
    const active = list.filter((k) => k.status === 'active').length;
    const full = active >= limit;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const suggested = new Date(Date.now() + DEFAULT_LIFETIME_DAYS * 86_400_000).toISOString().slice(0, 10);
    const latest = new Date(Date.now() + 2 * 365 * 86_400_000).toISOString().slice(0, 10);
    const body = html`
${errorSummary(form, FIELD_LABELS)}
${created ? shownOnce(created.label, created.secret, created.warning) : ''}
${notice(req, DONE)}
<p>The ${visit.org.plan} plan allows up to ${limit} active key${limit === 1 ? '' : 's'} (${active} in use).</p>
<h2>Your keys</h2>
${
  list.length === 0
    ? html`<p class="note">No key yet.</p>`
    : html`<table class="list"><thead><tr><th>Name</th><th>Prefix</th><th>Scopes</th><th>Created</th><th>Expires</th><th>Last used</th><th>Status</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${list.map(
  (
    k,
  ) => html`<tr><td data-label="Name">${k.name}</td><td data-label="Prefix"><code>${k.prefix}</code></td><td data-label="Scopes">${k.scopes.join(', ')}</td>
<td data-label="Created">${at(k.createdAt)}</td><td data-label="Expires">${keyExpiry(k)}</td><td data-label="Last used">${k.lastUsedAt ? at(k.lastUsedAt) : 'never'}</td>
<td data-label="Status" class="status-${k.status}">${k.status}</td>
<td>${keyActions(keysPath(visit), k)}</td></tr>`,
)}
</tbody></table>`
}
<h2>Create a key</h2>
${
  full
    ? html`<p class="error" role="alert">The ${visit.org.plan} plan allows ${limit} active key${limit === 1 ? '' : 's'}. Revoke one before creating another${visit.org.plan === 'clan' ? '' : ', or move to a larger plan'}. ${plansLink(visit.org.id)}</p>`
    : adminForm(
        deps,
        visit,
        keysPath(visit),
        'key-create',
        html`
<label for="f-name">Name</label><input name="name" maxlength="100" required value="${fieldValue(form, 'name', 'API key')}"${fieldAttrs(form, 'name', 'name-help')}>
${fieldError(form, 'name')}<p id="name-help" class="note">To tell your keys apart, such as the system that uses it.</p>
<fieldset${groupAttrs(form, 'scopes')}><legend>Scopes</legend>${fieldError(form, 'scopes')}
${API_SCOPES.map((s, i) => html`<label><input type="checkbox" name="scopes" value="${s}"${i === 0 ? html` id="f-scopes"` : ''}${choicesOf(form, 'scopes', API_SCOPES).includes(s) ? html` checked` : ''}> ${SCOPE_LABELS[s] ?? s}</label>`)}
</fieldset>
<label for="f-expires_on">Expires on (end of day, UTC)</label><input type="date" name="expires_on" required min="${tomorrow}" max="${latest}" value="${fieldValue(form, 'expires_on', suggested)}"${fieldAttrs(form, 'expires_on')}>
${fieldError(form, 'expires_on')}
<button type="submit">Create key</button>`,
      )
}`;
    adminPage(res, visit, 'keys', 'API keys', body, { scripts: created ? [COPY_SCRIPT_PATH] : [], status: refusedStatus(form) });
  }

  router.get(`${ADMIN_PATH}/orgs/:org/keys`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    listPage(req, res, visit, await keys(visit), await takeFlash(deps, req, res, visit.session.token));
  });

  router.post(`${ADMIN_PATH}/orgs/:org/keys`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res, 'key-create');
    if (!visit) return;
    const values = sentValues(req, FIELDS);
    const scopes = ([] as string[]).concat(values.scopes ?? []);
    const day = typeof values.expires_on === 'string' ? values.expires_on : '';
    const again = async (error: DomainError) =>
      listPage(req, res, visit, await keys(visit), null, refused({ scopes: [], ...values }, error, FIELDS, { expires_at: 'expires_on' }));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T23:59:59Z`)))
      return again(invalid('Choose the expiry date as a calendar date.'));
    const outcome = await deps.operations.run(
      'AdminCreateKey',
      {
        input: {
          organizationId: visit.org.id,
          name: typeof values.name === 'string' ? values.name : undefined,
          scopes,
          expiresAt: `${day}T23:59:59Z`,
        },
      },
      visit.session.context,
    );
    if (!outcome.ok) return again(outcome.error);
    // POST → 303 → GET: a reload creates nothing more. The key crosses the redirect in the flash, once.
    const { key, apiKey } = outcome.data.createApiKey;
    const cookie = flashCookie(deps.browser, visit.session.token, keysPath(visit), {
      label: `Your new key “${apiKey.name}”`,
      secret: key,
      warning: 'Copy it now and keep it secret: it is never shown again. If you lose it, revoke it and create another.',
    });
    seeOther(res, keysPath(visit), requestIdOf(res), [cookie]);
  });

  router.get(`${ADMIN_PATH}/orgs/:org/keys/:key/revoke`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const key = (await keys(visit)).find((k) => k.id === pathParam(req, 'key'));
    if (!key) return adminFailure(res, visit, 'keys', notFound(pathParam(req, 'key')), keysPath(visit));
    const body = html`<p>Revoke the key <strong>${key.name}</strong> (<code>${key.prefix}…</code>, scopes ${key.scopes.join(', ')})?</p>
<p>Every call made with it is refused from then on. This cannot be undone.</p>
${adminForm(deps, visit, `${keysPath(visit)}/${encodeURIComponent(key.id)}/revoke`, `key-revoke\n${key.id}`, html`<button type="submit" class="danger">Revoke the key</button>`)}
<p><a href="${keysPath(visit)}">Cancel</a></p>`;
    adminPage(res, visit, 'keys', 'Revoke an API key', body);
  });

  router.post(`${ADMIN_PATH}/orgs/:org/keys/:key/revoke`, async (req: Request, res: Response) => {
    const id = pathParam(req, 'key');
    const visit = await adminVisit(deps, req, res, `key-revoke\n${id}`);
    if (!visit) return;
    // Only a key of this organization: the service checks the admin, the page checks the address.
    if (!(await keys(visit)).some((k) => k.id === id)) return adminFailure(res, visit, 'keys', notFound(id), keysPath(visit));
    const outcome = await deps.operations.run('AdminRevokeKey', { id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'keys', outcome.error, keysPath(visit));
    afterForm(res, keysPath(visit), 'revoked');
  });
}

const invalid = (message: string) => new DomainError('invalid_input', message, 'expires_at');
const notFound = (id: string) => new DomainError('not_found', `No API key with id '${id}' in this organization`);
