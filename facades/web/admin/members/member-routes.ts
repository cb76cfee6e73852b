import type { Request, Response, Router } from 'express';
import { DomainError } from '../../../../core/index.ts';
import { field, pathParam, type PageDeps } from '../../../kit/page-support.ts';
import { ADMIN_PATH } from '../admin-paths.ts';
import { adminFailure, adminPage, adminVisit, afterForm, notice, type AdminVisit } from '../layout.ts';
import { freshForm, refused, refusedAll, refusedStatus, sentValues, type FormState } from '../../../kit/forms.ts';
import { checkInviteForm, INVITE_WORDS, roleProblem } from './member-form-check.ts';
import { MEMBER_NOTICES, membersPath, membersView, removeView } from './member-views.ts';

const INVITE_FIELDS = ['email', 'role'] as const;
const MEMBERS = `${ADMIN_PATH}/orgs/:org/members`;
/** A row gone since the page was shown (the service's words name ids, for API callers). */
const GONE = {
  member: 'This person is not a member of the organization any more.',
  invitation: 'This invitation was already accepted or withdrawn.',
};

/** A refusal of a change to a member or an invitation, in the admin's words. */
function plainly(error: DomainError, gone: string): DomainError {
  if (error.code === 'not_found') return new DomainError('not_found', gone);
  if (error.code === 'invalid_input' && error.field === 'role') return new DomainError('invalid_input', INVITE_WORDS.role!, 'role');
  return error;
}

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
    const mistakes = checkInviteForm(values);
    if (Object.keys(mistakes).length > 0) return show(req, res, visit, refusedAll(values, mistakes));
    const email = String(values.email).trim();
    const variables = { id: visit.org.id, email, role: String(values.role) };
    const outcome = await deps.operations.run('AdminInviteMember', variables, visit.session.context);
    if (!outcome.ok) return show(req, res, visit, refused(values, outcome.error, INVITE_FIELDS, {}, INVITE_WORDS));
    afterForm(res, membersPath(visit.org.id), 'invited');
  });

  router.post(`${MEMBERS}/invitations/:invitation/withdraw`, async (req: Request, res: Response) => {
    const invitation = pathParam(req, 'invitation');
    const visit = await adminVisit(deps, req, res, `withdraw\n${invitation}`);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminWithdrawInvitation', { id: visit.org.id, invitation }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'members', plainly(outcome.error, GONE.invitation), membersPath(visit.org.id));
    afterForm(res, membersPath(visit.org.id), 'withdrawn');
  });

  router.post(`${MEMBERS}/:member/role`, async (req: Request, res: Response) => {
    const member = pathParam(req, 'member');
    const visit = await adminVisit(deps, req, res, `role\n${member}`);
    if (!visit) return;
    const role = field(req, 'role') ?? '';
    const forged = roleProblem(role);
    if (forged) return adminFailure(res, visit, 'members', new DomainError('invalid_input', forged, 'role'), membersPath(visit.org.id));
    const outcome = await deps.operations.run('AdminChangeMemberRole', { id: visit.org.id, member, role }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'members', plainly(outcome.error, GONE.member), membersPath(visit.org.id));
    afterForm(res, membersPath(visit.org.id), 'role');
  });

  router.get(`${MEMBERS}/:member/remove`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminMembers', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    const id = pathParam(req, 'member');
    const member = outcome.data.organizationMembers.members.find((m) => m.id === id);
    if (!member) return adminFailure(res, visit, 'members', new DomainError('not_found', GONE.member), membersPath(visit.org.id));
    adminPage(res, visit, 'members', `Remove ${member.name}?`, removeView(deps, visit, member));
  });

  router.post(`${MEMBERS}/:member/remove`, async (req: Request, res: Response) => {
    const member = pathParam(req, 'member');
    const visit = await adminVisit(deps, req, res, `remove\n${member}`);
    if (!visit) return;
    const outcome = await deps.operations.run('AdminRemoveMember', { id: visit.org.id, member }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'members', plainly(outcome.error, GONE.member), membersPath(visit.org.id));
    afterForm(res, membersPath(visit.org.id), 'removed');
  });
}
