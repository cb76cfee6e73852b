import { PLANS } from '../../core/entities/index.ts';
import { PLAN_ALLOWANCES, type PlanAllowances } from '../../core/plans.ts';
import type { OrganizationProfile, OrganizationSummary } from '../../core/public-views.ts';
import { builder, describedValues } from '../builder.ts';
import type { Context } from '../context.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { PlaceRef } from './place.type.ts';

/** A plan's allowances in words, from PLAN_ALLOWANCES. */
function allowed(plan: keyof typeof PLAN_ALLOWANCES): string {
  const a = PLAN_ALLOWANCES[plan];
  return `${a.activeKeys} active API key(s), ${a.monthlyQuota} calls a month, ${a.destinations} webhook destination(s), ${a.retainedDeliveries} deliveries kept${a.manualRetry ? ', manual retry' : ''}.`;
}

export const PlanEnum = builder.enumType('Plan', {
  description: "An organization's plan: it sets API keys, quotas, rate limits and webhook destinations (PlanAllowances).",
  values: describedValues(PLANS, { base: allowed('base'), alpha: allowed('alpha'), clan: allowed('clan') }),
});

const PartnerPaymentRef = builder.objectRef<OrganizationProfile['partnerPayment']>('PartnerPayment').implement({
  description: 'Partner payment record: a rate and a count, never an amount.',
  fields: (t) => ({
    confirmedRatePercent: t.exposeInt('confirmedRatePercent', {
      nullable: true,
      description: 'Share of partner payments confirmed, 0 to 100; null before any payment is due.',
    }),
    partnersCount: t.exposeInt('partnersCount', { description: 'Partner organizations it has worked with on the platform.' }),
  }),
});

const ProofsRef = builder.objectRef<OrganizationProfile['proofs']>('Proofs').implement({
  description: 'Track record, as counts.',
  fields: (t) => ({
    completedPacks: t.exposeInt('completedPacks', { description: 'Team engagements the organization completed on the platform.' }),
    references: t.exposeInt('references', { description: 'References the organization has on record.' }),
    certifications: t.exposeInt('certifications', { description: 'Certifications the organization has on record.' }),
  }),
});

export const PlanAllowancesRef = builder.objectRef<PlanAllowances>('PlanAllowances').implement({
  description: 'What a plan allows an organization.',
  fields: (t) => ({
    activeKeys: t.exposeInt('activeKeys', { description: 'API keys that may be active at once.' }),
    monthlyQuota: t.exposeInt('monthlyQuota', { description: 'Public API calls per calendar month (UTC), across all keys.' }),
    destinations: t.exposeInt('destinations', { description: 'Webhook destinations the organization may have.' }),
    retainedDeliveries: t.exposeInt('retainedDeliveries', { description: 'Deliveries kept per destination for the delivery log.' }),
    manualRetry: t.exposeBoolean('manualRetry', { description: 'Whether an admin may retry a failed delivery by hand.' }),
  }),
});

const internal = { authScopes: { internal: true } } as const;

export const OrganizationRef = builder.objectRef<OrganizationProfile>('Organization').implement({
  description: 'The public profile of an organization, plus administrative facts for internal callers.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The organization's id: a lowercase slug." }),
    name: t.exposeString('name', { description: "The organization's name." }),
    description: t.exposeString('description', { description: 'What the organization does, in plain text; empty when none was given.' }),
    website: t.exposeString('website', { description: "The organization's own website; null when none was given.", nullable: true }),
    logoUrl: t.exposeString('logoUrl', { description: "Address of the organization's logo; null when none was given.", nullable: true }),
    sectors: t.exposeStringList('sectors', { description: 'Sectors the organization works in.' }),
    capabilities: t.exposeStringList('capabilities', { description: 'What the organization can do: skills, trades, services.' }),
    place: t.expose('place', { description: 'Where the organization is based.', type: PlaceRef }),
    networks: t.exposeStringList('networks', { description: 'Networks and federations the organization belongs to.' }),
    partnerPayment: t.expose('partnerPayment', {
      description: 'How reliably the organization pays its partners: a rate and a count.',
      type: PartnerPaymentRef,
    }),
    proofs: t.expose('proofs', { description: "The organization's track record, as counts.", type: ProofsRef }),
    profileUrl: t.exposeString('profileUrl', { description: "The organization's public profile page." }),
    updatedAt: t.expose('updatedAt', { description: 'When the public profile last changed.', type: 'DateTime' }),
    plan: t.field({
      description: "The organization's plan; internal callers only.",
      ...internal,
      type: PlanEnum,
      resolve: (o) => o.admin.plan,
    }),
    listed: t.boolean({
      description: "Whether the organization appears in lists and the public assistant connector's results; internal callers only.",
      ...internal,
      resolve: (o) => o.admin.listed,
    }),
    demo: t.boolean({
      description: 'A demonstration account: its content is never public output. Internal callers only.',
      ...internal,
      resolve: (o) => o.admin.demo,
    }),
    complete: t.boolean({
      description: 'Whether the profile is complete enough for the public assistant connector; internal callers only.',
      ...internal,
      resolve: (o) => o.admin.complete,
    }),
    createdAt: t.field({
      description: 'When the organization was created; internal callers only.',
      ...internal,
      type: 'DateTime',
      resolve: (o) => o.admin.createdAt,
    }),
    allowances: t.field({
      description: 'What the plan allows; internal callers only.',
      ...internal,
      type: PlanAllowancesRef,
      resolve: (o) => PLAN_ALLOWANCES[o.admin.plan],
    }),
  }),
});

/** The name of the organization behind a public need or event, batched per request. */
export const OrganizationSummaryRef = builder.loadableObject('OrganizationSummary', {
  description: 'The id and name of the organization behind a need or an event.',
  load: async (ids: string[], ctx: Context): Promise<(OrganizationSummary | Error)[]> => {
    const found = await ctx.services.organizations.summaries(ids);
    return found.map((o, i) => o ?? new Error(`No organization with id '${ids[i]}'`));
  },
  fields: (t) => ({
    id: t.exposeID('id', { description: "The organization's id." }),
    name: t.exposeString('name', { description: "The organization's name." }),
  }),
});
export type { OrganizationSummary };

const profileInput = <Required extends boolean>(name: string, required: Required, description: string) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({
      name: t.string({ description: "The organization's name.", required }),
      plan: t.field({ description: "The organization's plan.", type: PlanEnum, required }),
      listed: t.boolean({ description: "Whether the organization appears in lists and the public assistant connector's results." }),
      demo: t.boolean({ description: 'A demonstration account: its content is never public output.' }),
      complete: t.boolean({ description: 'Whether the profile is complete enough for the public assistant connector.' }),
      description: t.string({ description: 'What the organization does, in plain text.' }),
      website: t.string({ description: "The organization's own website, an http(s) address." }),
      logoUrl: t.string({ description: "Address of the organization's logo, an http(s) address." }),
      sectors: t.stringList({ description: 'Sectors the organization works in.' }),
      capabilities: t.stringList({ description: 'What the organization can do: skills, trades, services.' }),
      networks: t.stringList({ description: 'Networks and federations the organization belongs to.' }),
      city: t.string({ description: 'City or town where the organization is based.' }),
      region: t.string({ description: 'Region, county or state where the organization is based.' }),
      country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
    }),
  });

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  description: 'A new organization: its id and profile.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'Lowercase slug: letters, digits and dashes, up to 64 characters.' }),
    profile: t.field({
      description: "The organization's profile and administrative facts.",
      type: profileInput('NewOrganizationProfile', true, 'The profile and administrative facts of a new organization.'),
      required: true,
    }),
  }),
});
const UpdateOrganizationInput = profileInput(
  'OrganizationProfileChanges',
  false,
  'Changes to an organization: omitted fields stay as they are; null clears website, logoUrl, city, region and country.',
);

builder.queryFields((t) => ({
  organization: t.field({
    type: OrganizationRef,
    nullable: true,
    description: 'An organization profile. An API key reads only its own organization.',
    authScopes: { internal: true, apiScope: 'organization:read' },
    args: { id: t.arg.id({ description: "The organization's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.organizations.getProfile(ctx.actor, String(id)),
  }),
  organizations: t.connection(
    {
      type: OrganizationRef,
      description: 'Every organization, by id.',
      authScopes: { internal: true },
      resolve: async (_root, args, ctx) => toConnection(await ctx.services.organizations.list(ctx.actor, forwardArgs(args))),
    },
    { name: 'OrganizationConnection', description: 'A page of organizations.' },
    { name: 'OrganizationEdge', description: 'An organization and its cursor.' },
  ),
}));

builder.mutationFields((t) => ({
  createOrganization: t.field({
    description: 'Creates an organization; CONFLICT when the id is taken.',
    type: OrganizationRef,
    authScopes: { internal: true },
    args: { input: t.arg({ description: "The new organization's id and profile.", type: CreateOrganizationInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.organizations.create(ctx.actor, {
        ...withoutNulls(input.profile, CLEARABLE),
        id: String(input.id),
        name: input.profile.name,
        plan: input.profile.plan,
      }),
  }),
  updateOrganization: t.field({
    description: "Changes an organization's profile or administrative facts.",
    type: OrganizationRef,
    authScopes: { internal: true },
    args: {
      id: t.arg.id({ description: "The organization's id.", required: true }),
      input: t.arg({ description: 'The fields to change.', type: UpdateOrganizationInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) => ctx.services.organizations.update(ctx.actor, String(id), withoutNulls(input, CLEARABLE)),
  }),
}));

const CLEARABLE = ['website', 'logoUrl', 'city', 'region', 'country'] as const;
