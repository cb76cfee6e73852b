import type { Request, Response, Router } from 'express';
import { DomainError, ROLES } from '../../../../core/index.ts';
import { field, pathParam, type PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { adminFailure, adminPage, adminVisit, afterForm, notice, type AdminVisit } from '../layout.ts';
import { freshForm, refused, refusedStatus, sentValues, type FormState } from '../../../kit/forms.ts';
import { MEMBER_NOTICES, membersPath, membersView, removeView } from './member-views.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INVITE_FIELDS = ['email', 'role'] as const;
const MEMBERS = `${ADMIN_PATH}/orgs/:org/members`;

/** An organization's members page: the list, invitations by mail, role changes and removal. */
export function mountMemberPages(router: Router, deps: PageDeps): void {
  async function show(req: Request, res: Response, visit: AdminVisit, invite: FormState) {
    const outcome = await deps.operations.run('AdminMembers', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    const body = membersView(deps, visit, outcome.data.organizationMembers, invite, notice(req, MEMBER_NOTICES));
    adminPage(res, visit, 'members', 'Members', body, { status: refusedStatus(invite) });
  }

  router.get(MEMBERS, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (visit) await show(req, res, visit, freshForm());
  });

  router.post(`${MEMBERS}/invite`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res, 'invite');
    if (!visit) return;
    const values = sentValues(req, INVITE_FIELDS);
    const email = typeof values.email === 'string' ? values.email.trim() : '';
    const role = typeof values.role === 'string' ? values.role : '';
    const errors: Record<string, string> = {};
    if (!EMAIL.test(email)) errors.email = 'Enter an email address, like name@example.org.';
    if (!(ROLES as readonly string[]).includes(role)) errors.role = 'Choose a role: Admin or Member.';
    if (Object.keys(errors).length > 0) return show(req, res, visit, { values, errors });
    const outcome = await deps.operations.run('AdminInviteMember', { id: visit.org.id, email, role }, visit.session.context);
    if (!outcome.ok) return show(req, res, visit, refused(values, outcome.error, INVITE_FIELDS));
    afterForm(res, membersPath(visit.org.id), 'invited');
  });

  router.post(`${MEMBERS}/invitations/:invitation/withdraw`, async (req: Request, res: Response) => {
    const invitation = pathParam(req, 'invitation');
    const visit = await adminVisit(deps, req, res, `withdraw\n${invitation}`);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminWithdrawInvitation', { id: visit.org.id, invitation }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'members', outcome.error, membersPath(visit.org.id));
    afterForm(res, membersPath(visit.org.id), 'withdrawn');
  });

  router.post(`${MEMBERS}/:member/role`, async (req: Request, res: Response) => {
    const member = pathParam(req, 'member');
    const visit = await adminVisit(deps, req, res, `role\n${member}`);
    if (!visit) return;
    const role = field(req, 'role') ?? '';
    const outcome = await deps.operations.run('AdminChangeMemberRole', { id: visit.org.id, member, role }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'members', outcome.error, membersPath(visit.org.id));
    afterForm(res, membersPath(visit.org.id), 'role');
  });

  router.get(`${MEMBERS}/:member/remove`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminMembers', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    const id = pathParam(req, 'member');
    const member = outcome.data.organizationMembers.members.find((m) => m.id === id);
    if (!member) {
      const missing = new DomainError('not_found', `No member with id '${id}' in this organization`);
      return adminFailure(res, visit, 'members', missing, membersPath(visit.org.id));
    }
    adminPage(res, visit, 'members', `Remove ${member.name}?`, removeView(deps, visit, member));
  });

  router.post(`${MEMBERS}/:member/remove`, async (req: Request, res: Response) => {
    const member = pathParam(req, 'member');
    const visit = await adminVisit(deps, req, res, `remove\n${member}`);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminRemoveMember', { id: visit.org.id, member }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'members', outcome.error, membersPath(visit.org.id));
    afterForm(res, membersPath(visit.org.id), 'removed');
  });
}
