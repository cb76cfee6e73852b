import type { Router } from 'express';
import { TEAM_INVITATION_PATH } from '../../../../core/index.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { teamInvitationHandlers } from './team-invitation-handlers.ts';

/** A team invitation, as the member connector's `my_invitations` links to it: read it, accept or refuse it. */
export function mountTeamInvitationPages(router: Router, deps: PageDeps): void {
  const pages = teamInvitationHandlers(deps);
  router.get(`${TEAM_INVITATION_PATH}:id`, pages.show);
  router.post(`${TEAM_INVITATION_PATH}:id/accept`, pages.accept);
  router.post(`${TEAM_INVITATION_PATH}:id/refuse`, pages.refuse);
}
