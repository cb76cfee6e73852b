import { orgPath } from '../admin-paths.ts';
import type { AdminVisit } from '../layout.ts';

// Where an organization's webhook destinations and deliveries live.

export const webhooksPath = (visit: AdminVisit) => orgPath(visit.org.id, '/webhooks');
export const destinationPath = (visit: AdminVisit, id: string, rest = '') =>
  orgPath(visit.org.id, `/webhooks/${encodeURIComponent(id)}${rest}`);
export const deliveryPath = (visit: AdminVisit, id: string, rest = '') =>
  orgPath(visit.org.id, `/deliveries/${encodeURIComponent(id)}${rest}`);
