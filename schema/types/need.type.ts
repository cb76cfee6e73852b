import { NEED_STATES } from '../../core/entities/index.ts';
import type { NeedView } from '../../core/public-views.ts';
import { builder, describedValues, type InputFields } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { OrganizationSummaryRef } from './organization.type.ts';
import { PlaceRef } from './place.type.ts';

export const NeedStateEnum = builder.enumType('NeedState', {
  description: 'Where a need stands in its life.',
  values: describedValues(NEED_STATES, {
    draft: 'Prepared, not published: nothing is public.',
    public: 'Published: public output unless discreet or demonstration content.',
    private: 'Hidden from public output; can be published again.',
    withdrawn: 'Withdrawn for good: never public again.',
  }),
});

const NeedAdminRef = builder.objectRef<NeedView['admin']>('NeedAdmin').implement({
  description: 'Lifecycle facts of a need, for internal callers.',
  fields: (t) => ({
    state: t.expose('state', { description: 'draft, public, private or withdrawn.', type: NeedStateEnum }),
    discreet: t.exposeBoolean('discreet', { description: 'Readable in the API, never pushed by webhook.' }),
    demo: t.exposeBoolean('demo', { description: 'Demonstration content: never public output.' }),
    version: t.exposeInt('version', { description: 'Bumped on every public change; part of webhook event ids.' }),
    withdrawnAt: t.expose('withdrawnAt', {
      description: 'When the need was withdrawn; null while it was not.',
      type: 'DateTime',
      nullable: true,
    }),
  }),
});

export const OpportunityRef = builder.objectRef<NeedView>('Opportunity').implement({
  description: 'A need an organization published (an opportunity).',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The need's id." }),
    title: t.exposeString('title', { description: 'A short title of the need.' }),
    description: t.exposeString('description', { description: 'What the organization needs, in plain text; empty when none was given.' }),
    requiredExpertise: t.exposeStringList('requiredExpertise', { description: 'Skills or trades the need calls for.' }),
    remoteAllowed: t.exposeBoolean('remoteAllowed', { description: 'Whether the work can be done remotely.' }),
    place: t.expose('place', { description: 'Where the work takes place; null when not given.', type: PlaceRef, nullable: true }),
    organization: t.field({
      description: 'The organization that published the need.',
      type: OrganizationSummaryRef,
      resolve: (n) => n.organization ?? n.organizationId,
    }),
    url: t.exposeString('url', { description: "The need's public page." }),
    publishedAt: t.expose('publishedAt', {
      description: 'When the need was published; null for a draft.',
      type: 'DateTime',
      nullable: true,
    }),
    updatedAt: t.expose('updatedAt', { description: 'When public content last changed.', type: 'DateTime' }),
    deadline: t.expose('deadline', { description: 'When answers are due; null when open-ended.', type: 'DateTime', nullable: true }),
    admin: t.field({
      description: 'Lifecycle facts; internal callers only.',
      type: NeedAdminRef,
      authScopes: { internal: true },
      resolve: (n) => n.admin,
    }),
  }),
});

const contentFields = (t: InputFields) => ({
  title: t.string({ description: 'A short title of the need.' }),
  description: t.string({ description: 'What the organization needs, in plain text.' }),
  requiredExpertise: t.stringList({ description: 'Skills or trades the need calls for.' }),
  remoteAllowed: t.boolean({ description: 'Whether the work can be done remotely.' }),
  city: t.string({ description: 'City or town where the work takes place. In changes, null clears it.' }),
  region: t.string({ description: 'Region, county or state where the work takes place. In changes, null clears it.' }),
  country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
  deadline: t.field({ description: 'When answers are due. In changes, null clears it.', type: 'DateTime' }),
});

const NewNeedInput = builder.inputType('NewNeedInput', {
  description: 'A new need of an organization.',
  fields: (t) => ({
    organizationId: t.id({ description: 'The organization the need belongs to.', required: true }),
    ...contentFields(t),
    title: t.string({ description: 'A short title of the need.', required: true }),
    discreet: t.boolean({ description: 'Readable in the API, never pushed by webhook.' }),
    demo: t.boolean({ description: 'Demonstration content: never public output.' }),
  }),
});

const NeedChangesInput = builder.inputType('NeedChangesInput', {
  description: 'Changes to a need: omitted fields stay as they are.',
  fields: (t) => contentFields(t),
});

const CLEARABLE = ['city', 'region', 'country', 'deadline'] as const;

builder.queryFields((t) => ({
  opportunity: t.field({
    type: OpportunityRef,
    nullable: true,
    description: 'A public need; NOT_FOUND when absent or no longer public.',
    // public: the public pages at its url.
    authScopes: { internal: true, public: true, apiScope: 'opportunities:read' },
    args: { id: t.arg.id({ description: "The need's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.getPublic(ctx.actor, String(id)),
  }),
  opportunities: t.connection(
    {
      type: OpportunityRef,
      description: 'Public needs, newest published first. Forward pagination only (first ≤ 50).',
      authScopes: { internal: true, apiScope: 'opportunities:read' },
      resolve: async (_root, args, ctx) => toConnection(await ctx.services.needs.listPublic(ctx.actor, forwardArgs(args))),
    },
    { name: 'OpportunityConnection', description: 'A page of public needs.' },
    { name: 'OpportunityEdge', description: 'A public need and its cursor.' },
  ),
  need: t.field({
    type: OpportunityRef,
    nullable: true,
    description: 'Any need, whatever its state.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: "The need's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.get(ctx.actor, String(id)),
  }),
  needs: t.connection(
    {
      type: OpportunityRef,
      description: 'Needs in any state, newest created first.',
      authScopes: { internal: true },
      args: {
        organizationId: t.arg.id({ description: 'Only the needs of this organization.' }),
        state: t.arg({ description: 'Only the needs in this state.', type: NeedStateEnum }),
      },
      resolve: async (_root, args, ctx) =>
        toConnection(
          await ctx.services.needs.listAll(
            ctx.actor,
            { organizationId: args.organizationId == null ? undefined : String(args.organizationId), state: args.state ?? undefined },
            forwardArgs(args),
          ),
        ),
    },
    { name: 'NeedConnection', description: 'A page of needs in any state.' },
    { name: 'NeedEdge', description: 'A need and its cursor.' },
  ),
}));

builder.mutationFields((t) => ({
  publishNeed: t.field({
    type: OpportunityRef,
    description: 'Creates a need and publishes it: need.created.',
    authScopes: { internal: true },
    args: { input: t.arg({ description: "The need's organization and content.", type: NewNeedInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.needs.publish(ctx.actor, { ...withoutNulls(input), organizationId: String(input.organizationId), title: input.title }),
  }),
  createNeedDraft: t.field({
    type: OpportunityRef,
    description: 'Creates an unpublished draft; nothing is public.',
    authScopes: { internal: true },
    args: { input: t.arg({ description: "The draft's organization and content.", type: NewNeedInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.needs.createDraft(ctx.actor, {
        ...withoutNulls(input),
        organizationId: String(input.organizationId),
        title: input.title,
      }),
  }),
  publishNeedDraft: t.field({
    type: OpportunityRef,
    description: 'Publishes a draft or private need: need.created.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: 'The id of the draft or private need.', required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.publishExisting(ctx.actor, String(id)),
  }),
  updateNeed: t.field({
    type: OpportunityRef,
    description: 'Changes content; a public need whose public content changed sends need.updated.',
    authScopes: { internal: true },
    args: {
      id: t.arg.id({ description: "The need's id.", required: true }),
      input: t.arg({ description: 'The fields to change.', type: NeedChangesInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) => ctx.services.needs.update(ctx.actor, String(id), withoutNulls(input, CLEARABLE)),
  }),
  withdrawNeed: t.field({
    type: OpportunityRef,
    description: 'Withdraws the need for good: need.withdrawn if it was public.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: "The need's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.withdraw(ctx.actor, String(id)),
  }),
  makeNeedPrivate: t.field({
    type: OpportunityRef,
    description: 'Hides the need from public output: need.withdrawn if it was public.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: "The need's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.makePrivate(ctx.actor, String(id)),
  }),
}));
