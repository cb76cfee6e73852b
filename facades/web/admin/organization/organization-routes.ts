import type { Request, Response, Router } from 'express';
import { seeOther } from '../../../kit/html.ts';
import { requestIdOf, signedIn, toLogin, type PageDeps } from '../../../kit/page-support.ts';
import { organizationJson } from '../../../representations/resources.ts';
import { ADMIN_PATH, orgPath } from '../admin-paths.ts';
import { adminPage, adminVisit, notice } from '../layout.ts';
import { organizationView, organizationsView } from './organization-views.ts';

const SAVED = { profile: 'The public profile is saved: the API, the directory and the connectors show it now.' };

/** The entry page (which organization) and an organization's overview: public profile, plan, allowances. */
export function mountOrganizationPages(router: Router, deps: PageDeps): void {
  router.get(ADMIN_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, ADMIN_PATH, requestId);
    const outcome = await deps.operations.run('AdminAccount', {}, session.context);
    if (!outcome.ok) throw outcome.error;
    const { account, accountOrganizations } = outcome.data;
    const administered = accountOrganizations.filter((o) => o.role === 'admin');
    if (administered.length === 1) return seeOther(res, orgPath(administered[0]!.id), requestId);
    const status = administered.length === 0 ? 403 : 200;
    adminPage(res, { account }, undefined, 'Your organizations', organizationsView(administered), { status });
  });

  router.get(`${ADMIN_PATH}/orgs/:org`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const { org } = visit;
    adminPage(res, visit, 'organization', org.profile.name, organizationView(org, organizationJson(org.profile), notice(req, SAVED)));
  });
}
