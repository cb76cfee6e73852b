import { NEED_STATES } from '../../core/entities/index.ts';
import type { NeedView } from '../../core/visibility.ts';
import { builder, type InputFields } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { OrganizationSummaryRef } from './organization.type.ts';
import { PlaceRef } from './place.type.ts';

export const NeedStateEnum = builder.enumType('NeedState', { values: NEED_STATES });

const NeedAdminRef = builder.objectRef<NeedView['admin']>('NeedAdmin').implement({
  description: 'Lifecycle facts of a need, for internal callers.',
  fields: (t) => ({
    state: t.expose('state', { type: NeedStateEnum }),
    discreet: t.exposeBoolean('discreet', { description: 'Readable in the API, never pushed by webhook.' }),
    demo: t.exposeBoolean('demo', { description: 'Demonstration content: never public output.' }),
    version: t.exposeInt('version', { description: 'Bumped on every public change; part of webhook event ids.' }),
    withdrawnAt: t.expose('withdrawnAt', { type: 'DateTime', nullable: true }),
  }),
});

export const OpportunityRef = builder.objectRef<NeedView>('Opportunity').implement({
  description: 'A need an organization published (an opportunity).',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    requiredExpertise: t.exposeStringList('requiredExpertise'),
    remoteAllowed: t.exposeBoolean('remoteAllowed'),
    place: t.expose('place', { type: PlaceRef, nullable: true }),
    organization: t.field({ type: OrganizationSummaryRef, resolve: (n) => n.organization ?? n.organizationId }),
    url: t.exposeString('url'),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deadline: t.expose('deadline', { type: 'DateTime', nullable: true }),
    admin: t.field({ type: NeedAdminRef, authScopes: { internal: true }, resolve: (n) => n.admin }),
  }),
});

const contentFields = (t: InputFields) => ({
  title: t.string(),
  description: t.string(),
  requiredExpertise: t.stringList(),
  remoteAllowed: t.boolean(),
  city: t.string(),
  region: t.string(),
  country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
  deadline: t.field({ type: 'DateTime' }),
});

const NewNeedInput = builder.inputType('NewNeedInput', {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    ...contentFields(t),
    title: t.string({ required: true }),
    discreet: t.boolean({ description: 'Readable in the API, never pushed by webhook.' }),
    demo: t.boolean({ description: 'Demonstration content: never public output.' }),
  }),
});

const NeedChangesInput = builder.inputType('NeedChangesInput', { fields: (t) => contentFields(t) });

const CLEARABLE = ['city', 'region', 'country', 'deadline'] as const;

builder.queryFields((t) => ({
  opportunity: t.field({
    type: OpportunityRef,
    nullable: true,
    description: 'A public need; NOT_FOUND when absent or no longer public.',
    authScopes: { internal: true, apiScope: 'opportunities:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.getPublic(ctx.actor, String(id)),
  }),
  opportunities: t.connection(
    {
      type: OpportunityRef,
      description: 'Public needs, newest published first. Forward pagination only (first ≤ 50).',
      authScopes: { internal: true, apiScope: 'opportunities:read' },
      resolve: async (_root, args, ctx) => toConnection(await ctx.services.needs.listPublic(ctx.actor, forwardArgs(args))),
    },
    { name: 'OpportunityConnection' },
    { name: 'OpportunityEdge' },
  ),
  need: t.field({
    type: OpportunityRef,
    nullable: true,
    description: 'Any need, whatever its state.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.get(ctx.actor, String(id)),
  }),
  needs: t.connection(
    {
      type: OpportunityRef,
      description: 'Needs in any state, newest created first.',
      authScopes: { internal: true },
      args: { organizationId: t.arg.id(), state: t.arg({ type: NeedStateEnum }) },
      resolve: async (_root, args, ctx) =>
        toConnection(
          await ctx.services.needs.listAll(
            ctx.actor,
            { organizationId: args.organizationId == null ? undefined : String(args.organizationId), state: args.state ?? undefined },
            forwardArgs(args),
          ),
        ),
    },
    { name: 'NeedConnection' },
    { name: 'NeedEdge' },
  ),
}));

builder.mutationFields((t) => ({
  publishNeed: t.field({
    type: OpportunityRef,
    description: 'Creates a need and publishes it: need.created.',
    authScopes: { internal: true },
    args: { input: t.arg({ type: NewNeedInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.needs.publish(ctx.actor, { ...withoutNulls(input), organizationId: String(input.organizationId), title: input.title }),
  }),
  createNeedDraft: t.field({
    type: OpportunityRef,
    description: 'Creates an unpublished draft; nothing is public.',
    authScopes: { internal: true },
    args: { input: t.arg({ type: NewNeedInput, required: true }) },
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
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.publishExisting(ctx.actor, String(id)),
  }),
  updateNeed: t.field({
    type: OpportunityRef,
    description: 'Changes content; a public need whose public content changed sends need.updated.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: NeedChangesInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => ctx.services.needs.update(ctx.actor, String(id), withoutNulls(input, CLEARABLE)),
  }),
  withdrawNeed: t.field({
    type: OpportunityRef,
    description: 'Withdraws the need for good: need.withdrawn if it was public.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.withdraw(ctx.actor, String(id)),
  }),
  makeNeedPrivate: t.field({
    type: OpportunityRef,
    description: 'Hides the need from public output: need.withdrawn if it was public.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.makePrivate(ctx.actor, String(id)),
  }),
}));
