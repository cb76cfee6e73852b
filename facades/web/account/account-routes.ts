import type { Router } from 'express';
import { DRAFT_REVIEW_PATH } from '../../../core/index.ts';
import { SETTINGS_PATH, type PageDeps } from '../../kit/page-support.ts';
import { accountHandlers } from './account-handlers.ts';
import { SIGN_OUTS } from './account-views.ts';

/**
 * The member's account pages: connected applications (revoke), what they did (audit log),
 * password change, sign-out everywhere, sign-out, and the review page of drafts.
 */
export function mountAccountPages(router: Router, deps: PageDeps): void {
  const pages = accountHandlers(deps);
  for (const signOut of SIGN_OUTS) router.get(signOut.path, pages.confirmSignOut(signOut));
  router.get(SETTINGS_PATH, pages.settings);
  router.post('/account/grants/:id/revoke', pages.revokeGrant);
  router.post('/account/password', pages.changePassword);
  router.post('/account/sign-out-everywhere', pages.signOutEverywhere);
  router.post('/account/sign-out', pages.signOut);
  router.get(`${DRAFT_REVIEW_PATH}:id`, pages.needReview);
  router.post(`${DRAFT_REVIEW_PATH}:id/publish`, pages.publishNeed);
  router.post(`${DRAFT_REVIEW_PATH}:id/discard`, pages.discardNeed);
}
