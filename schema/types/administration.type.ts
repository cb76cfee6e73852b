import type { KeyAnswers, KeyRateWindow, UsageReport } from '../../core/services/usage.service.ts';
import type { AccountOrganization } from '../../core/services/member-account.service.ts';
import { PLAN_ALLOWANCES } from '../../core/plans.ts';
import type { OrganizationProfile } from '../../core/public-views.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { OrganizationRef, PlanAllowancesRef, PlanEnum } from './organization.type.ts';

// What an organization's admins see of it: the public profile, the plan and its allowances, and
// what the API keys used. Read by the administration pages (the signed-in admin) and internal callers.

const QuotaUsageRef = builder.objectRef<UsageReport['quota']>('QuotaUsage').implement({
  description: 'This calendar month (UTC) against the plan’s monthly quota.',
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'Calls allowed this month by the plan.' }),
    used: t.exposeInt('used', { description: "Calls counted this month, across all of the organization's keys." }),
    remaining: t.exposeInt('remaining', { description: 'Calls left this month; never below zero.' }),
    resetsAt: t.expose('resetsAt', {
      description: 'The first instant of next month (UTC), when the count starts again.',
      type: 'DateTime',
    }),
  }),
});

const KeyRateWindowRef = builder.objectRef<KeyRateWindow>('KeyRateWindow').implement({
  description: 'The current one-minute rate window of an active API key.',
  fields: (t) => ({
    keyId: t.exposeID('keyId', { description: "The API key's id." }),
    name: t.exposeString('name', { description: "The API key's label." }),
    prefix: t.exposeString('prefix', { description: 'First characters of the key, to tell keys apart.' }),
    limit: t.exposeInt('limit', { description: 'Calls allowed per minute by the plan.' }),
    used: t.exposeInt('used', { description: 'Calls counted in the current minute.' }),
    remaining: t.exposeInt('remaining', { description: 'Calls left in the current minute.' }),
    resetsAt: t.expose('resetsAt', { description: "When the current minute's window ends.", type: 'DateTime' }),
  }),
});

const DailyCallsRef = builder.objectRef<UsageReport['days'][number]>('DailyCalls').implement({
  description: "API calls of one day (UTC), across the organization's keys.",
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD, UTC.' }),
    calls: t.exposeInt('calls', { description: 'Calls counted that day.' }),
  }),
});

const KeyAnswersRef = builder.objectRef<KeyAnswers>('KeyAnswers').implement({
  description: "An API key's answers of one status class over a month.",
  fields: (t) => ({
    keyId: t.exposeID('keyId', { description: "The API key's id." }),
    name: t.exposeString('name', { nullable: true, description: "The API key's label; null for a key deleted since." }),
    prefix: t.exposeString('prefix', { nullable: true, description: 'First characters of the key; null for a key deleted since.' }),
    answer: t.exposeString('answer', {
      description: 'The status class: 2xx, 3xx, 4xx, 5xx, or 429 for the calls refused by the rate limit or the monthly quota.',
    }),
    calls: t.exposeInt('calls', { description: 'Answers of that class to that key over the month.' }),
  }),
});

const ApiUsageRef = builder.objectRef<UsageReport>('ApiUsage').implement({
  description: "How an organization's API keys used the public API in a month.",
  fields: (t) => ({
    month: t.exposeString('month', { description: 'YYYY-MM, UTC: the month reported.' }),
    current: t.exposeBoolean('current', { description: 'Whether the month reported is the current one.' }),
    months: t.exposeStringList('months', { description: 'The months with recorded usage and the current month, newest first.' }),
    answers: t.expose('answers', {
      type: [KeyAnswersRef],
      description: "The month's answers per key and status class, refusals (429) included.",
    }),
    quota: t.expose('quota', { description: "The month's calls against the plan's monthly quota.", type: QuotaUsageRef }),
    rateWindows: t.expose('rateWindows', {
      type: [KeyRateWindowRef],
      nullable: true,
      description: 'Null where this process serves no API (its limiter holds the windows).',
    }),
    days: t.expose('days', {
      type: [DailyCallsRef],
      description: 'Calls per day from the first of the month to today, or to its last day for a past month.',
    }),
  }),
});

const OrganizationAdministrationRef = builder.objectRef<OrganizationProfile>('OrganizationAdministration').implement({
  description: 'An organization as its admins see it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The organization's id." }),
    profile: t.field({ type: OrganizationRef, description: 'The public profile, as the public API shows it.', resolve: (o) => o }),
    plan: t.field({
      description: "The organization's plan: it sets API keys, quotas, rate limits and webhook destinations.",
      type: PlanEnum,
      resolve: (o) => o.admin.plan,
    }),
    allowances: t.field({ description: 'What the plan allows.', type: PlanAllowancesRef, resolve: (o) => PLAN_ALLOWANCES[o.admin.plan] }),
    listed: t.boolean({
      description: "Whether the organization appears in lists and the public assistant connector's results.",
      resolve: (o) => o.admin.listed,
    }),
    complete: t.boolean({
      description: 'Whether the profile is complete enough to be returned by the public assistant connector.',
      resolve: (o) => o.admin.complete,
    }),
    usage: t.field({
      description: "A month's use of the public API by the organization's keys; this month when no month is given.",
      type: ApiUsageRef,
      args: { month: t.arg.string({ description: 'YYYY-MM, UTC, up to this month; this month when absent.' }) },
      resolve: (o, { month }, ctx) => ctx.services.usage.report(ctx.actor, o.id, month ?? undefined),
    }),
  }),
});

const AccountOrganizationRef = builder.objectRef<AccountOrganization>('AccountOrganization').implement({
  description: 'An organization the signed-in member belongs to.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The organization's id." }),
    name: t.exposeString('name', { description: "The organization's name." }),
    role: t.exposeString('role', { description: 'admin or member.' }),
    plan: t.field({ description: "The organization's plan.", type: PlanEnum, resolve: (o) => o.plan }),
  }),
});

builder.queryFields((t) => ({
  organizationAdministration: t.field({
    type: OrganizationAdministrationRef,
    description: 'An organization for its admins. FORBIDDEN for a member who is not one of its admins.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The organization's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.organizations.administered(ctx.actor, String(id)),
  }),
  accountOrganizations: t.field({
    type: [AccountOrganizationRef],
    description: 'The organizations of the signed-in member, with their role.',
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.accounts.organizations(ctx.actor),
  }),
}));
