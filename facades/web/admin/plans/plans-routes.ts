import type { Request, Response, Router } from 'express';
import { html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { adminPage, adminVisit } from '../layout.ts';
import { HOW_TO_CHANGE, plansTable } from './plans-views.ts';

/** The plans compared with the organization's current use, and how a change is made. */
export function mountPlanPages(router: Router, deps: PageDeps): void {
  router.get(`${ADMIN_PATH}/orgs/:org/plans`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminPlanUse', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    const { apiKeys, webhookDestinations, organizationAdministration } = outcome.data;
    const use = {
      activeKeys: apiKeys.filter((k) => k.status === 'active').length,
      monthlyQuota: organizationAdministration.usage.quota.used,
      destinations: webhookDestinations.length,
    };
    const body = html`<p>Your organization is on the <strong>${visit.org.plan}</strong> plan. \
Calls are counted from the 1st of the month, UTC; a rolled key winding down does not count as active.</p>
${plansTable(visit.org.plan, use)}
${HOW_TO_CHANGE}`;
    adminPage(res, visit, 'plans', 'Plans', body);
  });
}
