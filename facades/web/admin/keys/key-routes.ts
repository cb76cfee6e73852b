import type { Router } from 'express';
import type { PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { keyHandlers } from './key-handlers.ts';

/** API keys: list, create (the value shown once), revoke after confirmation; the plan's limit shown and enforced. */
export function mountKeyPages(router: Router, deps: PageDeps): void {
  const KEYS = `${ADMIN_PATH}/orgs/:org/keys`;
  const pages = keyHandlers(deps);
  router.get(KEYS, pages.list);
  router.post(KEYS, pages.create);
  router.get(`${KEYS}/:key/revoke`, pages.confirmRevoke);
  router.post(`${KEYS}/:key/revoke`, pages.revoke);
}
