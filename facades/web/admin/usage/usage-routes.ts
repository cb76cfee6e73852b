import type { Request, Response, Router } from 'express';
import type { PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { adminPage, adminVisit } from '../layout.ts';
import { usageView } from './usage-view.ts';

/** Usage: this month's quota, each key's current minute, and calls per day as a server-drawn chart. */
export function mountUsagePages(router: Router, deps: PageDeps): void {
  router.get(`${ADMIN_PATH}/orgs/:org/usage`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminUsage', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    adminPage(res, visit, 'usage', 'Usage', usageView(outcome.data.organizationAdministration.usage));
  });
}
