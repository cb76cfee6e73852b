import type { AssistantAccountView } from '../../core/services/assistant.service.ts';
import type { NeedReviewView } from '../../core/services/need.service.ts';
import { builder } from '../builder.ts';
import { withoutNulls } from '../inputs.ts';
import { NeedStateEnum, OpportunityRef } from './need.type.ts';
import { TeamInvitationRef } from './team-invitation.type.ts';

// What the member connector's tools read and do, for an assistant acting for a member. The
// services check the grant and its abilities and write every call to the member's audit log.

const MemberOrganizationRef = builder.objectRef<AssistantAccountView['organizations'][number]>('MemberOrganization').implement({
  description: 'An organization the member belongs to, with the member’s role there.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The organization's id." }),
    name: t.exposeString('name', { description: "The organization's name." }),
    role: t.exposeString('role', { description: 'admin or member.' }),
    profileUrl: t.exposeString('profileUrl', { description: "The organization's public profile page." }),
  }),
});

const AssistantAccountRef = builder.objectRef<AssistantAccountView>('AssistantAccount').implement({
  description: 'The member an assistant acts for: name, account page and organizations.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The member's id." }),
    name: t.exposeString('name', { description: "The member's display name." }),
    profileUrl: t.exposeString('profileUrl', {
      description: "The member's own account page on the service; it asks the member to sign in (members have no public page).",
    }),
    organizations: t.expose('organizations', { description: 'The organizations the member belongs to.', type: [MemberOrganizationRef] }),
  }),
});

/** A need seen by (or for) a member of its organization, with where to review it. */
export const NeedReviewRef = builder.objectRef<NeedReviewView>('NeedReview').implement({
  description: 'A need of one of the member’s organizations, and the page where the member reviews and publishes it.',
  fields: (t) => ({
    need: t.expose('need', { description: 'The need as internal callers see it.', type: OpportunityRef }),
    state: t.field({
      description: "The need's state: draft until the member publishes it.",
      type: NeedStateEnum,
      resolve: (r) => r.need.admin.state,
    }),
    reviewUrl: t.exposeString('reviewUrl', {
      description: 'The page where the member reviews the need, and publishes or discards a draft.',
    }),
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
  description: 'A draft need an assistant prepares for the member; the member publishes it or not.',
  fields: (t) => ({
    organizationId: t.id({ description: 'Needed only when the member belongs to several organizations.' }),
    title: t.string({ description: 'A short title of the need.', required: true }),
    description: t.string({ description: 'What the organization needs, in plain text.' }),
    requiredExpertise: t.stringList({ description: 'Skills or trades the need calls for.' }),
    remoteAllowed: t.boolean({ description: 'Whether the work can be done remotely.' }),
    city: t.string({ description: 'City or town where the work takes place.' }),
    region: t.string({ description: 'Region, county or state where the work takes place.' }),
    country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
    deadline: t.field({ description: 'When answers are due.', type: 'DateTime' }),
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
    args: {
      input: t.arg({
        description: "The draft's content, and its organization when the member has several.",
        type: AssistantNeedDraftInput,
        required: true,
      }),
    },
    resolve: (_root, { input }, ctx) =>
      ctx.services.assistant.draftNeed(ctx.actor, {
        ...withoutNulls(input),
        title: input.title,
        organizationId: input.organizationId == null ? null : String(input.organizationId),
      }),
  }),
}));
