import type { Router } from 'express';
import type { PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { mountDeliveryPages } from '../deliveries/index.ts';
import { webhookHandlers, type WebhookPagesOptions } from './webhook-handlers.ts';

export type { WebhookPagesOptions } from './webhook-handlers.ts';

/**
 * Webhook destinations: list, add (typed URL, or the team-chat connection flow), details with
 * the retained deliveries, test signal, secret rotation, enabling and deletion; delivery pages.
 */
export function mountWebhookPages(router: Router, deps: PageDeps, options: WebhookPagesOptions): void {
  const LIST = `${ADMIN_PATH}/orgs/:org/webhooks`;
  const ONE = `${LIST}/:destination`;
  const pages = webhookHandlers(deps, options);

  router.get(LIST, pages.list);
  router.post(LIST, pages.create);
  router.post(`${LIST}/team-chat`, pages.teamChat);
  router.get(ONE, pages.destination);
  router.get(`${ONE}/edit`, pages.editForm);
  router.get(`${ONE}/delete`, pages.confirmed('delete'));
  for (const [action, act] of Object.entries(pages.actions)) {
    router.post(`${ONE}/${action}`, pages.onDestination(action, act));
  }

  mountDeliveryPages(router, deps, options.maxAttempts);
}
