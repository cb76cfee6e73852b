import { ROLES } from '../../core/entities/index.ts';
import type { MemberView } from '../../core/services/member.service.ts';
import { builder } from '../builder.ts';

const RoleEnum = builder.enumType('Role', { values: ROLES });

const MembershipRef = builder.objectRef<MemberView['memberships'][number]>('Membership').implement({
  fields: (t) => ({
    organizationId: t.exposeID('organizationId'),
    role: t.expose('role', { type: RoleEnum }),
  }),
});

export const MemberRef = builder.objectRef<MemberView>('Member').implement({
  description: 'A person with an account on the platform. Internal callers only.',
  authScopes: { internal: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    memberships: t.expose('memberships', { type: [MembershipRef] }),
  }),
});

const NewMemberInput = builder.inputType('NewMemberInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    name: t.string({ required: true }),
    password: t.string({ description: 'Lets the member sign in (consent and account pages). At least 10 characters.' }),
    organizationId: t.id({ description: 'Adds the member to this organization.' }),
    role: t.field({ type: RoleEnum, description: 'Role in that organization. Default member.' }),
  }),
});

builder.queryFields((t) => ({
  member: t.field({
    type: MemberRef,
    nullable: true,
    authScopes: { internal: true },
    args: { idOrEmail: t.arg.string({ required: true }) },
    resolve: (_root, { idOrEmail }, ctx) => ctx.services.members.get(ctx.actor, idOrEmail),
  }),
  members: t.field({
    type: [MemberRef],
    authScopes: { internal: true },
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.members.listByOrganization(ctx.actor, String(organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  createMember: t.field({
    type: MemberRef,
    authScopes: { internal: true },
    args: { input: t.arg({ type: NewMemberInput, required: true }) },
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
      memberId: t.arg.id({ required: true }),
      organizationId: t.arg.id({ required: true }),
      role: t.arg({ type: RoleEnum, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.members.setMembership(ctx.actor, String(args.memberId), String(args.organizationId), args.role),
  }),
  removeMembership: t.field({
    type: MemberRef,
    authScopes: { internal: true },
    args: { memberId: t.arg.id({ required: true }), organizationId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.members.removeMembership(ctx.actor, String(args.memberId), String(args.organizationId)),
  }),
}));
