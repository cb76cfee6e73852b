import type { AssistantAccountView, TeamInvitationView } from '../../core/services/assistant.service.ts';
import type { NeedReviewView } from '../../core/services/need.service.ts';
import { builder } from '../builder.ts';
import { withoutNulls } from '../inputs.ts';
import { NeedStateEnum, OpportunityRef } from './need.type.ts';

// What the member connector's tools read and do, for an assistant acting for a member. The
// services check the grant and its abilities and write every call to the member's audit log.

const MemberOrganizationRef = builder.objectRef<AssistantAccountView['organizations'][number]>('MemberOrganization').implement({
  description: 'An organization the member belongs to, with the member’s role there.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    role: t.exposeString('role'),
    profileUrl: t.exposeString('profileUrl'),
  }),
});

const AssistantAccountRef = builder.objectRef<AssistantAccountView>('AssistantAccount').implement({
  description: 'The member an assistant acts for: name, profile address and organizations.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    profileUrl: t.exposeString('profileUrl'),
    organizations: t.expose('organizations', { type: [MemberOrganizationRef] }),
  }),
});

const InvitingOrganizationRef = builder.objectRef<TeamInvitationView['invitedBy']>('InvitingOrganization').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
});

const InvitationOpportunityRef = builder.objectRef<NonNullable<TeamInvitationView['opportunity']>>('InvitationOpportunity').implement({
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title'), url: t.exposeString('url') }),
});

const TeamInvitationRef = builder.objectRef<TeamInvitationView>('TeamInvitation').implement({
  description: 'A pending invitation to join a team. Accepting or refusing happens on the service, at `url`.',
  fields: (t) => ({
    id: t.exposeID('id'),
    teamName: t.exposeString('teamName'),
    invitedBy: t.expose('invitedBy', { type: InvitingOrganizationRef }),
    opportunity: t.expose('opportunity', {
      type: InvitationOpportunityRef,
      nullable: true,
      description: 'The public need the team forms around, if public.',
    }),
    invitedAt: t.expose('invitedAt', { type: 'DateTime' }),
    url: t.exposeString('url'),
  }),
});

/** A need seen by (or for) a member of its organization, with where to review it. */
export const NeedReviewRef = builder.objectRef<NeedReviewView>('NeedReview').implement({
  description: 'A need of one of the member’s organizations, and the page where the member reviews and publishes it.',
  fields: (t) => ({
    need: t.expose('need', { type: OpportunityRef }),
    state: t.field({ type: NeedStateEnum, resolve: (r) => r.need.admin.state }),
    reviewUrl: t.exposeString('reviewUrl'),
    revision: t.string({
      nullable: true,
      description: 'Changes whenever the need does; accountPublishNeed publishes only this revision. Null for an assistant.',
      resolve: (r) => r.revision ?? null,
    }),
    discardable: t.boolean({
      description:
        'Whether the signed-in member may discard it with accountDiscardNeed: a draft not prepared for another member. False for an assistant.',
      resolve: (r) => r.discardable ?? false,
    }),
  }),
});

const AssistantNeedDraftInput = builder.inputType('AssistantNeedDraftInput', {
  fields: (t) => ({
    organizationId: t.id({ description: 'Needed only when the member belongs to several organizations.' }),
    title: t.string({ required: true }),
    description: t.string(),
    requiredExpertise: t.stringList(),
    remoteAllowed: t.boolean(),
    city: t.string(),
    region: t.string(),
    country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
    deadline: t.field({ type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  assistantAccount: t.field({
    type: AssistantAccountRef,
    description: 'The member the assistant acts for (ability account:read). Audited.',
    authScopes: { assistant: true },
    resolve: (_root, _args, ctx) => ctx.services.assistant.account(ctx.actor),
  }),
  assistantInvitations: t.field({
    type: [TeamInvitationRef],
    description: 'The member’s pending team invitations, newest first (ability invitations:read). Audited.',
    authScopes: { assistant: true },
    resolve: (_root, _args, ctx) => ctx.services.assistant.invitations(ctx.actor),
  }),
}));

builder.mutationFields((t) => ({
  assistantDraftNeed: t.field({
    type: NeedReviewRef,
    description:
      'Prepares an unpublished draft need for the member (ability needs:draft). Nothing is published: the member opens reviewUrl. Audited.',
    authScopes: { assistant: true },
    args: { input: t.arg({ type: AssistantNeedDraftInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.assistant.draftNeed(ctx.actor, {
        ...withoutNulls(input),
        title: input.title,
        organizationId: input.organizationId == null ? null : String(input.organizationId),
      }),
  }),
}));
