import type { Request, Response, Router } from 'express';
import { DomainError, MAX_PAGE_SIZE, SIGNAL_TYPES } from '../../../../core/index.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH, orgPath } from '../admin-paths.ts';
import { adminFailure, adminPage, adminVisit } from '../layout.ts';
import { allDeliveriesView, type AllFilters } from './all-deliveries-view.ts';
import { asPageFailure, DELIVERY_STATUSES_SHOWN } from './delivery-list-view.ts';

const DAY = /^\d{4}-\d\d-\d\d$/;
const query = (req: Request, name: string) => (typeof req.query[name] === 'string' ? req.query[name].trim() : '');
const known = (value: string, among: readonly string[]) => (among.includes(value) ? value : undefined);

/** A day of the address as the instant it starts; a malformed one is bad input. */
function dayStart(name: string, value: string | undefined, plus = 0): Date | undefined {
  if (!value) return undefined;
  const at = DAY.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw new DomainError('invalid_input', `${name} must be a day such as 2025-01-31`);
  return new Date(at.getTime() + plus);
}

/** Every delivery of the organization's destinations, filtered by status, kind, days and id. */
export function mountAllDeliveries(router: Router, deps: PageDeps, maxAttempts: number): void {
  router.get(`${ADMIN_PATH}/orgs/:org/deliveries`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const path = orgPath(visit.org.id, '/deliveries');
    const filters: AllFilters = {
      status: known(query(req, 'status'), DELIVERY_STATUSES_SHOWN),
      type: known(query(req, 'type'), SIGNAL_TYPES),
      from: query(req, 'from') || undefined,
      to: query(req, 'to') || undefined,
      search: query(req, 'q') || undefined,
    };
    let from: Date | undefined;
    let to: Date | undefined;
    try {
      from = dayStart('from', filters.from);
      to = dayStart('to', filters.to, 86_400_000);
    } catch (error) {
      return adminFailure(res, visit, 'deliveries', error as DomainError, path);
    }
    const after = query(req, 'after') || undefined;
    const first = Math.min(MAX_PAGE_SIZE, visit.org.allowances.retainedDeliveries);
    const variables = {
      organizationId: visit.org.id,
      first,
      after,
      ...filters,
      from: from?.toISOString(),
      to: to?.toISOString(),
    };
    const outcome = await deps.operations.run('AdminDeliveries', variables, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'deliveries', asPageFailure(outcome.error), path);
    const { pageInfo } = outcome.data.webhookDeliveries;
    const next = new URLSearchParams({ ...pick(req), after: pageInfo.endCursor ?? '' });
    const older = pageInfo.hasNextPage ? `${path}?${next}` : null;
    const body = allDeliveriesView(deps, visit, outcome.data, { path, filters, older, maxAttempts });
    adminPage(res, visit, 'deliveries', 'Deliveries', body);
  });
}

const pick = (req: Request) =>
  Object.fromEntries(['status', 'type', 'from', 'to', 'q'].map((n) => [n, query(req, n)]).filter(([, v]) => v));
