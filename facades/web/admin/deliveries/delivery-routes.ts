import type { Request, Response, Router } from 'express';
import { DomainError } from '../../../../core/index.ts';
import type { OperationOutcome } from '../../../operation-runner.ts';
import { pathParam, type PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { adminFailure, adminPage, adminVisit, afterForm, notice, type AdminVisit } from '../layout.ts';
import { deliveryPath, webhooksPath } from '../webhooks/webhook-paths.ts';
import { deliveryView } from './delivery-views.ts';
import { mountAllDeliveries } from './all-deliveries-route.ts';

/** The delivery when it belongs to the organization in the address; a foreign one reads as absent. */
function ofOrganization<D extends { organizationId: string }>(
  visit: AdminVisit,
  id: string,
  outcome: OperationOutcome<{ webhookDelivery: D }>,
): { ok: true; delivery: D } | { ok: false; error: DomainError } {
  if (!outcome.ok) return outcome;
  if (outcome.data.webhookDelivery.organizationId !== visit.org.id)
    return { ok: false, error: new DomainError('not_found', `No delivery with id '${id}'`) };
  return { ok: true, delivery: outcome.data.webhookDelivery };
}

const DELIVERY_DONE = { retried: 'The delivery is queued again and sent now.' };

/** One delivery with every attempt, and manual retry (Clan), which comes back to it. */
export function mountDeliveryPages(router: Router, deps: PageDeps, maxAttempts: number): void {
  mountAllDeliveries(router, deps, maxAttempts);
  router.get(`${ADMIN_PATH}/orgs/:org/deliveries/:delivery`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const id = pathParam(req, 'delivery');
    const found = ofOrganization(visit, id, await deps.operations.run('AdminDelivery', { id }, visit.session.context));
    if (!found.ok) return adminFailure(res, visit, 'webhooks', found.error, webhooksPath(visit));
    const d = found.delivery;
    const destinations = await deps.operations.run('AdminDestinations', { id: visit.org.id }, visit.session.context);
    if (!destinations.ok) throw destinations.error;
    const target = destinations.data.webhookDestinations.find((x) => x.id === d.destinationId);
    const body = deliveryView(deps, visit, d, target, maxAttempts, notice(req, DELIVERY_DONE));
    adminPage(res, visit, 'webhooks', 'Delivery', body);
  });

  router.post(`${ADMIN_PATH}/orgs/:org/deliveries/:delivery/retry`, async (req: Request, res: Response) => {
    const id = pathParam(req, 'delivery');
    const visit = await adminVisit(deps, req, res, `delivery-retry\n${id}`);
    if (!visit) return;
    // Only a delivery of this organization: the service checks the admin, the page checks the address.
    const summary = await deps.operations.run('AdminDeliverySummary', { id }, visit.session.context);
    const found = ofOrganization(visit, id, summary);
    if (!found.ok) return adminFailure(res, visit, 'webhooks', found.error, webhooksPath(visit));
    const back = deliveryPath(visit, id);
    const outcome = await deps.operations.run('AdminRetryDelivery', { id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, back);
    afterForm(res, back, 'retried');
  });
}
