import type { MemberGrantView } from '../../core/services/assistant-grant.service.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { AssistantGrantRef } from './assistant-access.type.ts';

// The applications an organization's members connected, as its admins see and end them.

const MemberGrantRef = builder.objectRef<MemberGrantView>('MemberAssistantGrant').implement({
  description: "A connected application of one of the organization's members, for the organization's admins.",
  authScopes: ORGANIZATION_ADMIN,
  fields: (t) => ({
    grant: t.field({ description: 'The grant: application, abilities, last use.', type: AssistantGrantRef, resolve: (g) => g }),
    memberName: t.exposeString('memberName', { description: 'The member the application acts for.' }),
    memberEmail: t.exposeString('memberEmail', { description: "That member's sign-in email." }),
  }),
});

builder.queryFields((t) => ({
  organizationAssistantGrants: t.field({
    type: [MemberGrantRef],
    description: "The active connected applications of an organization's members, newest first.",
    authScopes: ORGANIZATION_ADMIN,
    args: { organizationId: t.arg.id({ description: 'The organization whose members to look at.', required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.assistantGrants.organizationGrants(ctx.actor, String(organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  revokeOrganizationAssistantGrant: t.field({
    type: AssistantGrantRef,
    description: "An admin ends a member's connected application: the next call with its tokens is refused.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      organizationId: t.arg.id({ description: 'The organization the member belongs to.', required: true }),
      id: t.arg.id({ description: "The grant's id.", required: true }),
    },
    resolve: (_root, { organizationId, id }, ctx) =>
      ctx.services.assistantGrants.revokeForOrganization(ctx.actor, String(organizationId), String(id)),
  }),
}));
