import type { Request, Response, Router } from 'express';
import { DomainError, overlapNamed, SECRET_OVERLAPS } from '../../../../core/index.ts';
import type { AdminDestinationFragment as Destination } from '../../../generated/web-admin.ts';
import { flashCookie } from '../../../kit/flash.ts';
import { html, seeOther, type Html } from '../../../kit/html.ts';
import { clientAddress, field, pathParam, requestIdOf, tooManyAttempts, type PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { adminFailure, adminForm, adminPage, adminVisit, type AdminVisit } from '../layout.ts';
import { destinationPath, webhooksPath } from '../webhooks/webhook-paths.ts';
import { revealQuestion, rotatedWarning, rotateQuestion, SECRET_NOTICE } from './signing-views.ts';

const ONE = `${ADMIN_PATH}/orgs/:org/webhooks/:destination`;
const titleOf = (d: Destination) => d.name || 'this destination';

/**
 * A destination's signing secret: revealed again after the admin's password (counted by the
 * sign-in budgets), and rotated with a chosen overlap. Each new or revealed secret crosses the
 * POST → 303 → GET in the flash and shows on the destination page.
 */
export function mountSigningPages(router: Router, deps: PageDeps): void {
  async function owned(visit: AdminVisit, id: string): Promise<Destination | undefined> {
    const outcome = await deps.operations.run('AdminDestinations', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    return outcome.data.webhookDestinations.find((d) => d.id === id);
  }

  /** GET and POST of one action on a standard JSON destination of this organization. */
  function action(
    name: 'reveal' | 'rotate',
    title: string,
    question: (d: Destination, form: (fields: Html) => Html, error?: string) => Html,
    act: (req: Request, res: Response, visit: AdminVisit, d: Destination, again: (error: string) => void) => Promise<void>,
  ) {
    const show = (res: Response, visit: AdminVisit, d: Destination, error?: string) => {
      const path = destinationPath(visit, d.id);
      const form = (fields: Html) => adminForm(deps, visit, `${path}/${name}`, `webhook-${name}\n${d.id}`, fields);
      adminPage(res, visit, 'webhooks', title, html`${question(d, form, error)}<p><a href="${path}">Cancel</a></p>`, {
        status: error ? 400 : 200,
      });
    };
    const standard = async (res: Response, visit: AdminVisit, id: string) => {
      const d = await owned(visit, id);
      if (!d) adminFailure(res, visit, 'webhooks', notFound(id), webhooksPath(visit));
      else if (d.format !== 'standard-json') adminFailure(res, visit, 'webhooks', noSecret(), destinationPath(visit, d.id));
      else return d;
      return undefined;
    };
    router.get(`${ONE}/${name}`, async (req: Request, res: Response) => {
      const visit = await adminVisit(deps, req, res);
      if (!visit) return;
      const d = await standard(res, visit, pathParam(req, 'destination'));
      if (d) show(res, visit, d);
    });
    router.post(`${ONE}/${name}`, async (req: Request, res: Response) => {
      const id = pathParam(req, 'destination');
      const visit = await adminVisit(deps, req, res, `webhook-${name}\n${id}`);
      if (!visit) return;
      const d = await standard(res, visit, id);
      if (d) await act(req, res, visit, d, (error) => show(res, visit, d, error));
    });
  }

  action(
    'reveal',
    'Reveal the signing secret',
    (d, form, error) => revealQuestion(d, titleOf(d), form, error),
    async (req, res, visit, d, again) => {
      // A password check like sign-in: the same budgets, spent before it.
      const address = clientAddress(deps, req);
      const account = visit.session.context.actor.kind === 'memberSession' ? `member:${visit.session.context.actor.memberId}` : 'member:?';
      const attempt = await deps.signInLimits.attempt(address, account);
      const path = destinationPath(visit, d.id);
      if (!attempt.allowed) return tooManyAttempts(res, requestIdOf(res), attempt.retryAfter, html`<p><a href="${path}">Back</a></p>`);
      const outcome = await deps.operations.run(
        'AdminRevealSecret',
        { id: d.id, password: field(req, 'password') ?? '' },
        visit.session.context,
      );
      if (!outcome.ok) {
        if (outcome.error.field === 'password') return again('That is not your password. Nothing was shown.');
        return adminFailure(res, visit, 'webhooks', outcome.error, path);
      }
      await deps.signInLimits.succeeded(address, account);
      const { secret } = outcome.data.revealWebhookSecret;
      if (secret === null) throw new Error('A standard JSON destination gave no secret');
      const cookie = flashCookie(deps.browser, visit.session.token, path, {
        title: 'Signing secret',
        label: 'The signing secret',
        secret,
        warning: `${SECRET_NOTICE} It is shown on this page only; a reload hides it.`,
      });
      seeOther(res, path, requestIdOf(res), [cookie]);
    },
  );

  action(
    'rotate',
    'Rotate the signing secret',
    (d, form, error) => rotateQuestion(d, titleOf(d), form, error),
    async (req, res, visit, d, again) => {
      // Absent, it is the preselected choice: what rotation always gave.
      const overlap = overlapNamed(SECRET_OVERLAPS, field(req, 'overlap') ?? 'one_day');
      if (!overlap) return again('Choose how long the current secret keeps signing.');
      const outcome = await deps.operations.run('AdminRotateSecret', { id: d.id, overlap }, visit.session.context);
      const path = destinationPath(visit, d.id);
      if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, path);
      const { secret, destination } = outcome.data.rotateWebhookSecret;
      if (secret === null) throw new Error('A rotated standard JSON destination gave no secret');
      const cookie = flashCookie(deps.browser, visit.session.token, path, {
        title: 'New signing secret',
        label: 'The new signing secret',
        secret,
        warning: rotatedWarning(destination.previousSecretExpiresAt),
      });
      seeOther(res, path, requestIdOf(res), [cookie]);
    },
  );
}

const notFound = (id: string) => new DomainError('not_found', `No webhook destination with id '${id}' in this organization`);
const noSecret = () => new DomainError('invalid_state', 'Only standard JSON destinations have a signing secret');
