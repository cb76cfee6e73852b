import type { Request, Response, Router } from 'express';
import { html, sendHtml } from '../../../kit/html.ts';
import { requestIdOf, runAs, SETTINGS_PATH, signedIn, siteHeader, toLogin, type PageDeps } from '../../../kit/page-support.ts';
import { DRAFTS_PATH, draftsList } from './drafts-views.ts';

/** The drafts the member's assistants prepared, nothing published until the member reviews each. */
export function mountDraftPages(router: Router, deps: PageDeps): void {
  router.get(DRAFTS_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, DRAFTS_PATH, requestId);
    const outcome = await runAs(deps, session, 'AccountDrafts', {});
    if (!outcome.ok) throw outcome.error;
    const body = html`<p>Needs your assistants drafted for your organizations. Nothing is published until you review one and publish it yourself.</p>
${draftsList(outcome.data.accountDrafts)}
<p><a href="${SETTINGS_PATH}">Account settings</a></p>`;
    sendHtml(res, requestId, 'Drafts to review', body, { header: siteHeader(outcome.data.account, 'account') });
  });
}
