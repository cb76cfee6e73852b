import { ROLES } from '../../core/entities/index.ts';
import type { MemberView } from '../../core/services/member.service.ts';
import { builder, describedValues } from '../builder.ts';

export const RoleEnum = builder.enumType('Role', {
  description: "A member's role in one organization.",
  values: describedValues(ROLES, {
    admin: 'Administers the organization on Packline: its API keys, webhook destinations and needs.',
    member: 'Belongs to the organization, without administering it.',
  }),
});

const MembershipRef = builder.objectRef<MemberView['memberships'][number]>('Membership').implement({
  description: "A member's place in one organization.",
  fields: (t) => ({
    organizationId: t.exposeID('organizationId', { description: 'The organization.' }),
    role: t.expose('role', { description: "The member's role there.", type: RoleEnum }),
  }),
});

export const MemberRef = builder.objectRef<MemberView>('Member').implement({
  description: 'A person with an account on the platform. Internal callers only.',
  authScopes: { internal: true },
  fields: (t) => ({
    id: t.exposeID('id', { description: "The member's id." }),
    email: t.exposeString('email', { description: "The member's sign-in email, lower case. Never in any public output." }),
    name: t.exposeString('name', { description: "The member's display name." }),
    createdAt: t.expose('createdAt', { description: 'When the account was created.', type: 'DateTime' }),
    memberships: t.expose('memberships', {
      description: 'The organizations the member belongs to, with the role in each.',
      type: [MembershipRef],
    }),
  }),
});

const NewMemberInput = builder.inputType('NewMemberInput', {
  description: 'A new member account, optionally joined to an organization.',
  fields: (t) => ({
    email: t.string({ description: 'Sign-in email; CONFLICT when another member has it.', required: true }),
    name: t.string({ description: 'Display name.', required: true }),
    password: t.string({ description: 'Lets the member sign in (consent and account pages). At least 10 characters.' }),
    organizationId: t.id({ description: 'Adds the member to this organization.' }),
    role: t.field({ type: RoleEnum, description: 'Role in that organization. Default member.' }),
  }),
});

builder.queryFields((t) => ({
  member: t.field({
    description: 'A member by id or email; null when there is none.',
    type: MemberRef,
    nullable: true,
    authScopes: { internal: true },
    args: { idOrEmail: t.arg.string({ description: "The member's id, or the email they sign in with.", required: true }) },
    resolve: (_root, { idOrEmail }, ctx) => ctx.services.members.get(ctx.actor, idOrEmail),
  }),
  members: t.field({
    description: 'The members of an organization.',
    type: [MemberRef],
    authScopes: { internal: true },
    args: { organizationId: t.arg.id({ description: 'The organization whose members to list.', required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.members.listByOrganization(ctx.actor, String(organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  createMember: t.field({
    description: 'Creates a member account, and its membership when an organization is given.',
    type: MemberRef,
    authScopes: { internal: true },
    args: {
      input: t.arg({
        description: "The new member's email, name and optional password and membership.",
        type: NewMemberInput,
        required: true,
      }),
    },
    resolve: (_root, { input }, ctx) =>
      ctx.services.members.create(ctx.actor, {
        email: input.email,
        name: input.name,
        ...(input.password != null ? { password: input.password } : {}),
        organizationId: input.organizationId == null ? undefined : String(input.organizationId),
        role: input.role ?? undefined,
      }),
  }),
  setMembership: t.field({
    type: MemberRef,
    description: "Adds a member to an organization, or changes the member's role there.",
    authScopes: { internal: true },
    args: {
      memberId: t.arg.id({ description: "The member's id.", required: true }),
      organizationId: t.arg.id({ description: 'The organization.', required: true }),
      role: t.arg({ description: 'The role to hold there.', type: RoleEnum, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.members.setMembership(ctx.actor, String(args.memberId), String(args.organizationId), args.role),
  }),
  removeMembership: t.field({
    description: 'Removes a member from an organization; the account itself stays.',
    type: MemberRef,
    authScopes: { internal: true },
    args: {
      memberId: t.arg.id({ description: "The member's id.", required: true }),
      organizationId: t.arg.id({ description: 'The organization to leave.', required: true }),
    },
    resolve: (_root, args, ctx) => ctx.services.members.removeMembership(ctx.actor, String(args.memberId), String(args.organizationId)),
  }),
}));
