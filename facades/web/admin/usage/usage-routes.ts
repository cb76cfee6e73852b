import type { Request, Response, Router } from 'express';
import type { PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH, orgPath } from '../admin-paths.ts';
import { adminFailure, adminPage, adminVisit } from '../layout.ts';
import { usageView } from './usage-view.ts';

/**
 * Usage of a month (`?month=YYYY-MM`, this month by default): the quota, calls per day as a
 * server-drawn chart, the answers by key and by status, and this minute's window of each key.
 */
export function mountUsagePages(router: Router, deps: PageDeps): void {
  router.get(`${ADMIN_PATH}/orgs/:org/usage`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const month = typeof req.query.month === 'string' && req.query.month !== '' ? req.query.month : undefined;
    const outcome = await deps.operations.run('AdminUsage', { id: visit.org.id, month }, visit.session.context);
    const back = orgPath(visit.org.id, '/usage');
    if (!outcome.ok) return adminFailure(res, visit, 'usage', outcome.error, back);
    adminPage(res, visit, 'usage', 'Usage', usageView(outcome.data.organizationAdministration.usage, back));
  });
}
