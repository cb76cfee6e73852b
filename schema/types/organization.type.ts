import { PLANS } from '../../core/entities/index.ts';
import { PLAN_ALLOWANCES, type PlanAllowances } from '../../core/plans.ts';
import type { OrganizationProfile, OrganizationSummary } from '../../core/visibility.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { PlaceRef } from './place.type.ts';

export const PlanEnum = builder.enumType('Plan', { values: PLANS });

const PartnerPaymentRef = builder.objectRef<OrganizationProfile['partnerPayment']>('PartnerPayment').implement({
  description: 'Partner payment record: a rate and a count, never an amount.',
  fields: (t) => ({
    confirmedRatePercent: t.exposeInt('confirmedRatePercent', {
      nullable: true,
      description: 'Share of partner payments confirmed, 0 to 100; null before any payment is due.',
    }),
    partnersCount: t.exposeInt('partnersCount'),
  }),
});

const ProofsRef = builder.objectRef<OrganizationProfile['proofs']>('Proofs').implement({
  description: 'Track record, as counts.',
  fields: (t) => ({
    completedPacks: t.exposeInt('completedPacks'),
    references: t.exposeInt('references'),
    certifications: t.exposeInt('certifications'),
  }),
});

export const PlanAllowancesRef = builder.objectRef<PlanAllowances>('PlanAllowances').implement({
  fields: (t) => ({
    activeKeys: t.exposeInt('activeKeys'),
    monthlyQuota: t.exposeInt('monthlyQuota'),
    destinations: t.exposeInt('destinations'),
    retainedDeliveries: t.exposeInt('retainedDeliveries'),
    manualRetry: t.exposeBoolean('manualRetry'),
  }),
});

const internal = { authScopes: { internal: true } } as const;

export const OrganizationRef = builder.objectRef<OrganizationProfile>('Organization').implement({
  description: 'The public profile of an organization, plus administrative facts for internal callers.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    website: t.exposeString('website', { nullable: true }),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    sectors: t.exposeStringList('sectors'),
    capabilities: t.exposeStringList('capabilities'),
    place: t.expose('place', { type: PlaceRef }),
    networks: t.exposeStringList('networks'),
    partnerPayment: t.expose('partnerPayment', { type: PartnerPaymentRef }),
    proofs: t.expose('proofs', { type: ProofsRef }),
    profileUrl: t.exposeString('profileUrl'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    plan: t.field({ ...internal, type: PlanEnum, resolve: (o) => o.admin.plan }),
    listed: t.boolean({ ...internal, resolve: (o) => o.admin.listed }),
    demo: t.boolean({ ...internal, resolve: (o) => o.admin.demo }),
    complete: t.boolean({ ...internal, resolve: (o) => o.admin.complete }),
    createdAt: t.field({ ...internal, type: 'DateTime', resolve: (o) => o.admin.createdAt }),
    allowances: t.field({ ...internal, type: PlanAllowancesRef, resolve: (o) => PLAN_ALLOWANCES[o.admin.plan] }),
  }),
});

/** The name of the organization behind a public need or event, batched per request. */
export const OrganizationSummaryRef = builder.loadableObject('OrganizationSummary', {
  load: async (ids: string[], ctx: Context): Promise<(OrganizationSummary | Error)[]> => {
    const found = await ctx.services.organizations.summaries(ids);
    return found.map((o, i) => o ?? new Error(`No organization with id '${ids[i]}'`));
  },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
  }),
});
export type { OrganizationSummary };

const profileInput = <Required extends boolean>(name: string, required: Required) =>
  builder.inputType(name, {
    fields: (t) => ({
      name: t.string({ required }),
      plan: t.field({ type: PlanEnum, required }),
      listed: t.boolean(),
      demo: t.boolean({ description: 'A demonstration account: its content is never public output.' }),
      complete: t.boolean(),
      description: t.string(),
      website: t.string(),
      logoUrl: t.string(),
      sectors: t.stringList(),
      capabilities: t.stringList(),
      networks: t.stringList(),
      city: t.string(),
      region: t.string(),
      country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
    }),
  });

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  fields: (t) => ({
    id: t.id({ required: true, description: 'Lowercase slug: letters, digits and dashes, up to 64 characters.' }),
    profile: t.field({ type: profileInput('NewOrganizationProfile', true), required: true }),
  }),
});
const UpdateOrganizationInput = profileInput('OrganizationProfileChanges', false);

builder.queryFields((t) => ({
  organization: t.field({
    type: OrganizationRef,
    nullable: true,
    description: 'An organization profile. An API key reads only its own organization.',
    authScopes: { internal: true, apiScope: 'organization:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.organizations.getProfile(ctx.actor, String(id)),
  }),
  organizations: t.connection(
    {
      type: OrganizationRef,
      description: 'Every organization, by id.',
      authScopes: { internal: true },
      resolve: async (_root, args, ctx) => toConnection(await ctx.services.organizations.list(ctx.actor, forwardArgs(args))),
    },
    { name: 'OrganizationConnection' },
    { name: 'OrganizationEdge' },
  ),
}));

builder.mutationFields((t) => ({
  createOrganization: t.field({
    type: OrganizationRef,
    authScopes: { internal: true },
    args: { input: t.arg({ type: CreateOrganizationInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.organizations.create(ctx.actor, {
        ...withoutNulls(input.profile, CLEARABLE),
        id: String(input.id),
        name: input.profile.name,
        plan: input.profile.plan,
      }),
  }),
  updateOrganization: t.field({
    type: OrganizationRef,
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => ctx.services.organizations.update(ctx.actor, String(id), withoutNulls(input, CLEARABLE)),
  }),
}));

const CLEARABLE = ['website', 'logoUrl', 'city', 'region', 'country'] as const;
