import type { Request, Response } from 'express';
import { html, sendHtml, seeOther } from '../../../kit/html.ts';
import {
  failurePage,
  pathParam,
  requestIdOf,
  runAs,
  SETTINGS_PATH,
  signedIn,
  siteHeader,
  toLogin,
  type PageDeps,
} from '../../../kit/page-support.ts';
import { memberPost } from '../account-handlers.ts';
import { answerForm, teamInvitationPath, teamInvitationView, TEAM_INVITATION_TITLE, type Answer } from './team-invitation-views.ts';

// The team invitation page's handlers: read it, or answer it (POST → 303 → GET with a notice).

type Handler = (req: Request, res: Response) => Promise<void>;

const DONE: Record<string, string> = {
  accepted: 'You accepted the invitation.',
  refused: 'You refused the invitation.',
};

const backToSettings = html`<p><a href="${SETTINGS_PATH}">Back to your account settings</a></p>`;
const backTo = (page: string) => html`<p><a href="${page}">Back to the invitation</a></p>`;

export function teamInvitationHandlers(deps: PageDeps) {
  const show: Handler = async (req, res) => {
    const requestId = requestIdOf(res);
    const id = pathParam(req, 'id');
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, teamInvitationPath(id), requestId);
    const outcome = await runAs(deps, session, 'AccountTeamInvitation', { id });
    if (!outcome.ok) return failurePage(res, requestId, outcome.error, backToSettings);
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    const body = teamInvitationView(deps.browser, session, outcome.data.accountTeamInvitation, done);
    sendHtml(res, requestId, TEAM_INVITATION_TITLE, body, { header: siteHeader(outcome.data.account, 'account') });
  };

  const answer =
    (choice: Answer): Handler =>
    async (req, res) => {
      const id = pathParam(req, 'id');
      const page = teamInvitationPath(id);
      const session = await memberPost(deps, req, res, answerForm(id, choice), page);
      if (!session) return;
      const outcome =
        choice === 'accept'
          ? await runAs(deps, session, 'AccountAcceptTeamInvitation', { id })
          : await runAs(deps, session, 'AccountRefuseTeamInvitation', { id });
      if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, backTo(page));
      seeOther(res, `${page}?done=${choice === 'accept' ? 'accepted' : 'refused'}`, requestIdOf(res));
    };

  return { show, accept: answer('accept'), refuse: answer('refuse') };
}
