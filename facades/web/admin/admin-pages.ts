import type { Request, Response, Router } from 'express';
import type { PageDeps } from '../../kit/page-support.ts';
import { COPY_SCRIPT, REFRESH_SCRIPT } from './admin-scripts.ts';
import { COPY_SCRIPT_PATH, REFRESH_SCRIPT_PATH } from './admin-paths.ts';
import { mountKeyPages } from './keys/key-routes.ts';
import { mountOrganizationPages } from './organization/organization-routes.ts';
import { mountProfilePages } from './organization/profile-routes.ts';
import { mountUsagePages } from './usage/usage-routes.ts';
import { mountWebhookPages, type WebhookPagesOptions } from './webhooks/webhook-routes.ts';
import { mountMemberPages } from './members/member-routes.ts';
import { mountApplicationPages } from './applications/applications-routes.ts';
import { mountKeyRollPages } from './keys-roll/roll-routes.ts';
import { mountSigningPages } from './signing/signing-routes.ts';
import { mountPlanPages } from './plans/plans-routes.ts';

export { ADMIN_PATH } from './admin-paths.ts';

/**
 * The administration pages under /admin, for an organization's admins signed in in person:
 * organization, API keys, webhook destinations and deliveries, usage. Server-rendered, working
 * without script but for the copy button; every form carries a CSRF token bound to the session.
 */
export function mountAdminPages(router: Router, deps: PageDeps, webhooks: WebhookPagesOptions): void {
  router.get(COPY_SCRIPT_PATH, (_req: Request, res: Response) => {
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
    res.end(COPY_SCRIPT);
  });
  router.get(REFRESH_SCRIPT_PATH, (_req: Request, res: Response) => {
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
    res.end(REFRESH_SCRIPT);
  });
  mountOrganizationPages(router, deps);
  mountProfilePages(router, deps);
  mountMemberPages(router, deps);
  mountKeyPages(router, deps);
  mountKeyRollPages(router, deps);
  mountSigningPages(router, deps);
  mountWebhookPages(router, deps, webhooks);
  mountUsagePages(router, deps);
  mountApplicationPages(router, deps);
  mountPlanPages(router, deps);
}
