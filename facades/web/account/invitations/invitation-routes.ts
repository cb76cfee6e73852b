import type { Request, Response, Router } from 'express';
import { INVITATION_PATH, type DomainError } from '../../../../core/index.ts';
import { SESSION_COOKIE } from '../../../kit/browser.ts';
import { freshForm, refused, refusedAll, sentValues, textOf, type FormState } from '../../../kit/forms.ts';
import { sendHtml, seeOther, type Html } from '../../../kit/html.ts';
import { field, refuseForm, requestIdOf, runAs, signedIn, siteHeader, type PageDeps, type SignedIn } from '../../../kit/page-support.ts';
import {
  CREATE_PATH,
  createView,
  invitationTitle,
  invitationUrl,
  JOINED_PATH,
  joinedView,
  joinView,
  otherAccountView,
  signInView,
  unusableInvitationView,
} from './invitation-views.ts';
import { checkJoinForm, JOIN_FIELDS, JOIN_WORDS } from './join-form-check.ts';

/**
 * The page an invitation link opens: a member signed in with the invited email joins; an account
 * with that email signs in first; a new person creates an account (with that email) and joins.
 */
export function mountInvitationPages(router: Router, deps: PageDeps): void {
  const { browser } = deps;
  const page = (res: Response, title: string, body: Html, status = 200, member: SignedIn | null = null) =>
    sendHtml(res, requestIdOf(res), title, body, { status, header: siteHeader(member ? { name: '' } : null) });
  const joinForm = (token: string) => `invitation\n${token}`;

  function unusable(res: Response, error: DomainError) {
    if (error.code !== 'invalid_state' && error.code !== 'invalid_input') throw error;
    page(res, 'This invitation does not work', unusableInvitationView(error.message), 400);
  }

  router.get(INVITATION_PATH, async (req: Request, res: Response) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const session = await signedIn(deps, req);
    if (session) {
      const outcome = await runAs(deps, session, 'AccountInvitationSignedIn', { token });
      if (!outcome.ok) return unusable(res, outcome.error);
      const { account, invitation } = outcome.data;
      const body =
        account.email === invitation.email
          ? joinView(invitation, token, browser.csrf(session.token, joinForm(token)))
          : otherAccountView(invitation, account.email);
      return page(res, invitationTitle(invitation), body, 200, session);
    }
    const outcome = await runAs(deps, 'internal', 'AccountInvitation', { token });
    if (!outcome.ok) return unusable(res, outcome.error);
    const { invitation } = outcome.data;
    page(
      res,
      invitationTitle(invitation),
      invitation.accountExists ? signInView(invitation, token) : createView(invitation, token, freshForm()),
    );
  });

  router.post(INVITATION_PATH, async (req: Request, res: Response) => {
    const token = field(req, 'token') ?? '';
    const session = await signedIn(deps, req);
    if (!session) return seeOther(res, invitationUrl(token), requestIdOf(res));
    if (!browser.sameOrigin(req) || !browser.checkCsrf(session.token, joinForm(token), field(req, 'csrf')))
      return refuseForm(res, requestIdOf(res), invitationUrl(token));
    const outcome = await runAs(deps, session, 'AccountAcceptInvitation', { token });
    if (!outcome.ok) {
      if (outcome.error.code !== 'forbidden') return unusable(res, outcome.error);
      return page(res, 'That did not work', unusableInvitationView(outcome.error.message), 403, session);
    }
    seeOther(res, `${JOINED_PATH}${outcome.data.acceptInvitation.role === 'admin' ? '?as=admin' : ''}`, requestIdOf(res));
  });

  router.post(CREATE_PATH, async (req: Request, res: Response) => {
    const token = field(req, 'token') ?? '';
    if (!browser.sameOrigin(req)) return refuseForm(res, requestIdOf(res), invitationUrl(token));
    const found = await runAs(deps, 'internal', 'AccountInvitation', { token });
    if (!found.ok) return unusable(res, found.error);
    const typed = sentValues(req, JOIN_FIELDS);
    // What was typed comes back, never a password.
    const kept = { name: textOf(typed.name) };
    const again = (state: FormState) =>
      page(res, invitationTitle(found.data.invitation), createView(found.data.invitation, token, state), state.status ?? 400);
    const mistakes = checkJoinForm(typed);
    if (Object.keys(mistakes).length > 0) return again(refusedAll(kept, mistakes));
    const input = { token, name: kept.name.trim(), password: textOf(typed.password) };
    const outcome = await runAs(deps, 'internal', 'AccountAcceptInvitationWithNewAccount', input);
    if (!outcome.ok) {
      if (outcome.error.code === 'invalid_state') return unusable(res, outcome.error);
      return again(refused(kept, outcome.error, JOIN_FIELDS, {}, JOIN_WORDS));
    }
    const { token: session, expiresAt } = outcome.data.acceptInvitationWithNewAccount;
    const cookie = browser.cookie(SESSION_COOKIE, session, { maxAgeSeconds: (Date.parse(expiresAt) - Date.now()) / 1000 });
    seeOther(res, `${JOINED_PATH}${found.data.invitation.role === 'admin' ? '?as=admin' : ''}`, requestIdOf(res), [cookie]);
  });

  router.get(JOINED_PATH, async (req: Request, res: Response) =>
    page(res, 'Welcome', joinedView(req.query.as === 'admin'), 200, await signedIn(deps, req)),
  );
}
