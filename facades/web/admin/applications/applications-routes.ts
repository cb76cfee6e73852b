import type { Request, Response, Router } from 'express';
import { DomainError } from '../../../../core/index.ts';
import { html } from '../../../kit/html.ts';
import { NEVER, pathParam, type PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH, orgPath } from '../admin-paths.ts';
import { adminFailure, adminForm, adminPage, adminVisit, afterForm, notice, type AdminVisit } from '../layout.ts';
import { applicationsTable, type MemberGrant } from './applications-views.ts';

const LIST = `${ADMIN_PATH}/orgs/:org/applications`;
const DONE = { revoked: 'The application is disconnected. Its next call is refused; the member can connect it again.' };

/** The assistant applications the organization's members connected, and their revocation by an admin. */
export function mountApplicationPages(router: Router, deps: PageDeps): void {
  const listPath = (visit: AdminVisit) => orgPath(visit.org.id, '/applications');

  router.get(LIST, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminApplications', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    const revoke = (g: MemberGrant) => {
      const button = html`<button type="submit" class="danger">Disconnect\
<span class="visually-hidden"> ${g.grant.application.name} of ${g.memberName}</span></button>`;
      const path = `${listPath(visit)}/${encodeURIComponent(g.grant.id)}/revoke`;
      return adminForm(deps, visit, path, `application-revoke\n${g.grant.id}`, button, { inline: true });
    };
    const body = html`${notice(req, DONE)}
<p>Assistant applications your members connected to their Packline account through the member connector. \
Each acts for one member, with the abilities that member granted. ${NEVER}</p>
${applicationsTable(outcome.data.organizationAssistantGrants, revoke)}`;
    adminPage(res, visit, 'applications', 'Connected applications', body);
  });

  router.post(`${LIST}/:grant/revoke`, async (req: Request, res: Response) => {
    const id = pathParam(req, 'grant');
    const visit = await adminVisit(deps, req, res, `application-revoke\n${id}`);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminRevokeApplication', { organizationId: visit.org.id, id }, visit.session.context);
    if (!outcome.ok) {
      const error =
        outcome.error.code === 'not_found'
          ? new DomainError('not_found', `No connected application '${id}' of this organization's members`)
          : outcome.error;
      return adminFailure(res, visit, 'applications', error, listPath(visit));
    }
    afterForm(res, listPath(visit), 'revoked');
  });
}
