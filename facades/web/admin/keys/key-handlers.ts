import type { Request, Response } from 'express';
import { DomainError } from '../../../../core/index.ts';
import { flashCookie, takeFlash, type Flash } from '../../../kit/flash.ts';
import { freshForm, refused, refusedAll, refusedStatus, sentValues, type FormState } from '../../../kit/forms.ts';
import { seeOther } from '../../../kit/html.ts';
import { resumedForm } from '../../../kit/resume.ts';
import { pathParam, requestIdOf, type PageDeps } from '../../../kit/page-support.ts';
import { COPY_SCRIPT_PATH } from '../admin-paths.ts';
import { adminFailure, adminPage, adminVisit, afterForm, notice, type AdminVisit } from '../layout.ts';
import { checkKeyForm, endOfDay, PLAIN_WORDS } from './key-form-check.ts';
import { FIELDS, keyListView, keysPath, revokeView, type Key } from './key-views.ts';

// The API key pages' handlers: each reads its request, runs one operation and hands a view its data.

type Created = Flash | null;
type Handler = (req: Request, res: Response) => Promise<void>;

const DONE = { revoked: 'The key is revoked. Calls with it are refused from now on.' };
const DEFAULT_LIFETIME_DAYS = 90;
const DAY_MS = 86_400_000;
const KEEP_IT = 'Copy it now and keep it secret: it is never shown again.';
const IF_LOST = 'If you lose it, revoke it and create another.';

const notFound = (id: string) => new DomainError('not_found', `No API key with id '${id}' in this organization`);
const dayIn = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 10);

export function keyHandlers(deps: PageDeps) {
  async function keys(visit: AdminVisit): Promise<Key[]> {
    const outcome = await deps.operations.run('AdminKeys', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    return outcome.data.apiKeys;
  }

  function listPage(req: Request, res: Response, visit: AdminVisit, list: Key[], created: Created, form = freshForm()) {
    const expiry = {
      tomorrow: dayIn(DAY_MS),
      suggested: dayIn(DEFAULT_LIFETIME_DAYS * DAY_MS),
      latest: dayIn(2 * 365 * DAY_MS),
    };
    const body = keyListView(deps, visit, { list, created, form, done: notice(req, DONE), expiry });
    const scripts = created ? [COPY_SCRIPT_PATH] : [];
    adminPage(res, visit, 'keys', 'API keys', body, { scripts, status: refusedStatus(form) });
  }

  const list: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    listPage(req, res, visit, await keys(visit), await takeFlash(deps, req, res, visit.session.token), resumedForm(deps.browser, req));
  };

  const create: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res, 'key-create');
    if (!visit) return;
    const values: Record<string, string | string[]> = { scopes: [], ...sentValues(req, FIELDS) };
    const again = async (form: FormState) => listPage(req, res, visit, await keys(visit), null, form);
    const mistakes = checkKeyForm(values);
    if (Object.keys(mistakes).length) return again(refusedAll(values, mistakes));
    const scopes = ([] as string[]).concat(values.scopes ?? []);
    const name = typeof values.name === 'string' ? values.name : undefined;
    const input = { organizationId: visit.org.id, name, scopes, expiresAt: endOfDay(String(values.expires_on).trim()) ?? '' };
    const outcome = await deps.operations.run('AdminCreateKey', { input }, visit.session.context);
    if (!outcome.ok) return again(refused(values, outcome.error, FIELDS, { expires_at: 'expires_on' }, PLAIN_WORDS));
    // POST → 303 → GET: a reload creates nothing more. The key crosses the redirect in the flash, once.
    const { key, apiKey } = outcome.data.createApiKey;
    const cookie = flashCookie(deps.browser, visit.session.token, keysPath(visit), {
      label: `Your new key “${apiKey.name}”`,
      secret: key,
      warning: `${KEEP_IT} ${IF_LOST}`,
    });
    seeOther(res, keysPath(visit), requestIdOf(res), [cookie]);
  };

  const confirmRevoke: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const key = (await keys(visit)).find((k) => k.id === pathParam(req, 'key'));
    if (!key) return adminFailure(res, visit, 'keys', notFound(pathParam(req, 'key')), keysPath(visit));
    adminPage(res, visit, 'keys', 'Revoke an API key', revokeView(deps, visit, key));
  };

  const revoke: Handler = async (req, res) => {
    const id = pathParam(req, 'key');
    const visit = await adminVisit(deps, req, res, `key-revoke\n${id}`);
    if (!visit) return;
    // Only a key of this organization: the service checks the admin, the page checks the address.
    const owned = (await keys(visit)).some((k) => k.id === id);
    if (!owned) return adminFailure(res, visit, 'keys', notFound(id), keysPath(visit));
    const outcome = await deps.operations.run('AdminRevokeKey', { id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'keys', outcome.error, keysPath(visit));
    afterForm(res, keysPath(visit), 'revoked');
  };

  return { list, create, confirmRevoke, revoke };
}
