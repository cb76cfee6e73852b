import type { Request, Response, Router } from 'express';
import { DomainError, KEY_ROLL_OVERLAPS, overlapNamed } from '../../../../core/index.ts';
import type { AdminKeyFragment as Key } from '../../../generated/web-admin.ts';
import { flashCookie } from '../../../kit/flash.ts';
import { html, seeOther } from '../../../kit/html.ts';
import { field, pathParam, requestIdOf, type PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH, orgPath } from '../admin-paths.ts';
import { adminFailure, adminForm, adminPage, adminVisit, type AdminVisit } from '../layout.ts';
import { rolledWarning, rollQuestion } from './roll-views.ts';

const ROLL = `${ADMIN_PATH}/orgs/:org/keys/:key/roll`;
const TITLE = 'Roll an API key';

/** Rolling a key: a page choosing how long the old key keeps working, its POST, and the new key shown once on the list. */
export function mountKeyRollPages(router: Router, deps: PageDeps): void {
  const keysPath = (visit: AdminVisit) => orgPath(visit.org.id, '/keys');

  async function ownKey(visit: AdminVisit, id: string): Promise<Key | undefined> {
    const outcome = await deps.operations.run('AdminKeys', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    return outcome.data.apiKeys.find((k) => k.id === id);
  }

  function page(res: Response, visit: AdminVisit, key: Key, error?: string) {
    const action = `${keysPath(visit)}/${encodeURIComponent(key.id)}/roll`;
    const form = (fields: ReturnType<typeof html>) => adminForm(deps, visit, action, `key-roll\n${key.id}`, fields);
    const body = html`${rollQuestion(key, form, error)}<p><a href="${keysPath(visit)}">Cancel</a></p>`;
    adminPage(res, visit, 'keys', TITLE, body, { status: error ? 400 : 200 });
  }

  router.get(ROLL, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const key = await ownKey(visit, pathParam(req, 'key'));
    if (!key) return adminFailure(res, visit, 'keys', notFound(pathParam(req, 'key')), keysPath(visit));
    if (key.status !== 'active') return adminFailure(res, visit, 'keys', notActive(key), keysPath(visit));
    page(res, visit, key);
  });

  router.post(ROLL, async (req: Request, res: Response) => {
    const id = pathParam(req, 'key');
    const visit = await adminVisit(deps, req, res, `key-roll\n${id}`);
    if (!visit) return;
    // Only a key of this organization: the service checks the admin, the page checks the address.
    const key = await ownKey(visit, id);
    if (!key) return adminFailure(res, visit, 'keys', notFound(id), keysPath(visit));
    // Absent, it is the preselected choice.
    const overlap = overlapNamed(KEY_ROLL_OVERLAPS, field(req, 'overlap') ?? 'one_hour');
    if (!overlap) return page(res, visit, key, 'Choose how long the old key keeps working.');
    const outcome = await deps.operations.run('AdminRollKey', { id, overlap }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'keys', outcome.error, keysPath(visit));
    // POST → 303 → GET: the new key crosses the redirect in the flash, once.
    const { key: secret, apiKey, rolled } = outcome.data.rollApiKey;
    const cookie = flashCookie(deps.browser, visit.session.token, keysPath(visit), {
      label: `Your new key “${apiKey.name}”`,
      secret,
      warning: rolledWarning(rolled),
    });
    seeOther(res, keysPath(visit), requestIdOf(res), [cookie]);
  });
}

const notFound = (id: string) => new DomainError('not_found', `No API key with id '${id}' in this organization`);
const notActive = (key: Key) => new DomainError('invalid_state', `Only an active key can be rolled; “${key.name}” is ${key.status}`);
