import type { AcceptedInvitation, InvitationView } from '../../core/services/invitation.service.ts';
import type {
  OrganizationMembersView,
  OrganizationMemberView,
  PendingInvitationView,
} from '../../core/services/organization-members.service.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { MemberSessionOpenedRef } from './member-account.type.ts';
import { RoleEnum } from './member.type.ts';

// An organization's members as its admins manage them (the members page), and invitations as the
// invited person accepts them (the invitation page).

const OrganizationMemberRef = builder.objectRef<OrganizationMemberView>('OrganizationMember').implement({
  description: 'A member of an organization, as its admins see them.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The member's id." }),
    name: t.exposeString('name', { description: "The member's display name." }),
    email: t.exposeString('email', { description: 'The email the member signs in with.' }),
    role: t.expose('role', { description: "The member's role in the organization.", type: RoleEnum }),
    joinedAt: t.expose('joinedAt', { description: 'When the member joined the organization.', type: 'DateTime' }),
  }),
});

const PendingInvitationRef = builder.objectRef<PendingInvitationView>('PendingInvitation').implement({
  description: 'An invitation mailed to someone, not accepted yet, whose link still works.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The invitation's id (not its link's token, which only the invited person has)." }),
    email: t.exposeString('email', { description: 'The address invited.' }),
    role: t.expose('role', { description: 'The role the invited person gets on accepting.', type: RoleEnum }),
    createdAt: t.expose('createdAt', { description: 'When it was sent.', type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { description: 'When its link stops working (7 days after sending).', type: 'DateTime' }),
  }),
});

const OrganizationMembersRef = builder.objectRef<OrganizationMembersView>('OrganizationMembers').implement({
  description: "An organization's members and pending invitations.",
  fields: (t) => ({
    organizationId: t.exposeID('organizationId', { description: 'The organization.' }),
    members: t.expose('members', { description: 'Its members, by name.', type: [OrganizationMemberRef] }),
    invitations: t.expose('invitations', { description: 'Invitations not accepted yet, newest first.', type: [PendingInvitationRef] }),
  }),
});

const InvitationRef = builder.objectRef<InvitationView>('Invitation').implement({
  description: 'An invitation whose link still works, as the invited person sees it.',
  fields: (t) => ({
    organizationId: t.exposeID('organizationId', { description: 'The organization to join.' }),
    organizationName: t.exposeString('organizationName', { description: "The organization's name." }),
    email: t.exposeString('email', { description: 'The address invited: the account that joins has this email.' }),
    role: t.expose('role', { description: 'The role given on accepting.', type: RoleEnum }),
    expiresAt: t.expose('expiresAt', { description: 'When the link stops working.', type: 'DateTime' }),
    accountExists: t.exposeBoolean('accountExists', {
      description: 'True when an account has the invited email: its owner signs in to accept.',
    }),
  }),
});

const AcceptedInvitationRef = builder.objectRef<AcceptedInvitation>('AcceptedInvitation').implement({
  description: 'The organization the signed-in member joined.',
  fields: (t) => ({
    organizationId: t.exposeID('organizationId', { description: 'The organization joined.' }),
    organizationName: t.exposeString('organizationName', { description: "The organization's name." }),
    role: t.expose('role', { description: "The member's role there.", type: RoleEnum }),
  }),
});

builder.queryFields((t) => ({
  organizationMembers: t.field({
    type: OrganizationMembersRef,
    description: "An organization's members and pending invitations: for its admins.",
    authScopes: ORGANIZATION_ADMIN,
    args: { organizationId: t.arg.id({ description: 'The organization.', required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.organizationMembers.list(ctx.actor, String(organizationId)),
  }),
  invitation: t.field({
    type: InvitationRef,
    description: 'The invitation a link carries; INVALID_STATE once used, withdrawn or expired.',
    authScopes: { internal: true, memberSession: true },
    args: { token: t.arg.string({ description: 'The token of the invitation link.', required: true }) },
    resolve: (_root, { token }, ctx) => ctx.services.invitations.show(ctx.actor, token),
  }),
}));

builder.mutationFields((t) => ({
  inviteMember: t.field({
    type: PendingInvitationRef,
    description: 'Mails a single-use invitation link, valid 7 days. CONFLICT when the address is a member already.',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      organizationId: t.arg.id({ description: 'The organization to join.', required: true }),
      email: t.arg.string({ description: 'The address to invite.', required: true }),
      role: t.arg.string({ description: 'admin or member.', required: true }),
    },
    resolve: (_root, { organizationId, email, role }, ctx) =>
      ctx.services.organizationMembers.invite(ctx.actor, String(organizationId), { email, role }),
  }),
  withdrawInvitation: t.field({
    type: PendingInvitationRef,
    description: 'Withdraws an invitation not accepted yet: its link stops working.',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      organizationId: t.arg.id({ description: 'The organization.', required: true }),
      id: t.arg.id({ description: "The invitation's id.", required: true }),
    },
    resolve: (_root, { organizationId, id }, ctx) =>
      ctx.services.organizationMembers.withdraw(ctx.actor, String(organizationId), String(id)),
  }),
  changeMemberRole: t.field({
    type: OrganizationMemberRef,
    description: "Sets a member's role. From admin to member, their sessions and assistant grants end. INVALID_STATE for the last admin.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      organizationId: t.arg.id({ description: 'The organization.', required: true }),
      memberId: t.arg.id({ description: 'The member.', required: true }),
      role: t.arg.string({ description: 'admin or member.', required: true }),
    },
    resolve: (_root, { organizationId, memberId, role }, ctx) =>
      ctx.services.organizationMembers.changeRole(ctx.actor, String(organizationId), String(memberId), role),
  }),
  removeMember: t.field({
    type: OrganizationMemberRef,
    description: 'Removes a member from the organization; their sessions and assistant grants end. INVALID_STATE for the last admin.',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      organizationId: t.arg.id({ description: 'The organization.', required: true }),
      memberId: t.arg.id({ description: 'The member.', required: true }),
    },
    resolve: (_root, { organizationId, memberId }, ctx) =>
      ctx.services.organizationMembers.remove(ctx.actor, String(organizationId), String(memberId)),
  }),
  acceptInvitationWithNewAccount: t.field({
    type: MemberSessionOpenedRef,
    description: 'Creates the invited person’s account (with the invited email) in the organization, and signs them in.',
    authScopes: { internal: true },
    args: {
      token: t.arg.string({ description: 'The token of the invitation link.', required: true }),
      name: t.arg.string({ description: 'Their display name.', required: true }),
      password: t.arg.string({ description: 'Their password: at least 10 characters.', required: true }),
    },
    resolve: (_root, { token, name, password }, ctx) => ctx.services.invitations.acceptWithNewAccount(ctx.actor, token, { name, password }),
  }),
  acceptInvitation: t.field({
    type: AcceptedInvitationRef,
    description: 'The signed-in member, invited by their own email, joins the organization.',
    authScopes: { memberSession: true },
    args: { token: t.arg.string({ description: 'The token of the invitation link.', required: true }) },
    resolve: (_root, { token }, ctx) => ctx.services.invitations.accept(ctx.actor, token),
  }),
}));
