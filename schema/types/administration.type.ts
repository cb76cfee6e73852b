import type { KeyRateWindow, UsageReport } from '../../core/services/usage.service.ts';
import type { AccountOrganization } from '../../core/services/member-account.service.ts';
import { PLAN_ALLOWANCES } from '../../core/plans.ts';
import type { OrganizationProfile } from '../../core/visibility.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { OrganizationRef, PlanAllowancesRef, PlanEnum } from './organization.type.ts';

// What an organization's admins see of it: the public profile, the plan and its allowances, and
// what the API keys used. Read by the administration pages (the signed-in admin) and internal callers.

const QuotaUsageRef = builder.objectRef<UsageReport['quota']>('QuotaUsage').implement({
  description: 'This calendar month (UTC) against the plan’s monthly quota.',
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    remaining: t.exposeInt('remaining'),
    resetsAt: t.expose('resetsAt', { type: 'DateTime' }),
  }),
});

const KeyRateWindowRef = builder.objectRef<KeyRateWindow>('KeyRateWindow').implement({
  description: 'The current one-minute rate window of an active API key.',
  fields: (t) => ({
    keyId: t.exposeID('keyId'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix'),
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    remaining: t.exposeInt('remaining'),
    resetsAt: t.expose('resetsAt', { type: 'DateTime' }),
  }),
});

const DailyCallsRef = builder.objectRef<UsageReport['days'][number]>('DailyCalls').implement({
  fields: (t) => ({ day: t.exposeString('day', { description: 'YYYY-MM-DD, UTC.' }), calls: t.exposeInt('calls') }),
});

const ApiUsageRef = builder.objectRef<UsageReport>('ApiUsage').implement({
  fields: (t) => ({
    month: t.exposeString('month', { description: 'YYYY-MM, UTC.' }),
    quota: t.expose('quota', { type: QuotaUsageRef }),
    rateWindows: t.expose('rateWindows', {
      type: [KeyRateWindowRef],
      nullable: true,
      description: 'Null where this process serves no API (its limiter holds the windows).',
    }),
    days: t.expose('days', { type: [DailyCallsRef], description: 'Calls per day from the first of the month to today.' }),
  }),
});

const OrganizationAdministrationRef = builder.objectRef<OrganizationProfile>('OrganizationAdministration').implement({
  description: 'An organization as its admins see it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    profile: t.field({ type: OrganizationRef, description: 'The public profile, as the public API shows it.', resolve: (o) => o }),
    plan: t.field({ type: PlanEnum, resolve: (o) => o.admin.plan }),
    allowances: t.field({ type: PlanAllowancesRef, resolve: (o) => PLAN_ALLOWANCES[o.admin.plan] }),
    listed: t.boolean({ resolve: (o) => o.admin.listed }),
    complete: t.boolean({ resolve: (o) => o.admin.complete }),
    usage: t.field({ type: ApiUsageRef, resolve: (o, _args, ctx) => ctx.services.usage.report(ctx.actor, o.id) }),
  }),
});

const AccountOrganizationRef = builder.objectRef<AccountOrganization>('AccountOrganization').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    role: t.exposeString('role', { description: 'admin or member.' }),
    plan: t.field({ type: PlanEnum, resolve: (o) => o.plan }),
  }),
});

builder.queryFields((t) => ({
  organizationAdministration: t.field({
    type: OrganizationAdministrationRef,
    description: 'An organization for its admins. FORBIDDEN for a member who is not one of its admins.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.organizations.administered(ctx.actor, String(id)),
  }),
  accountOrganizations: t.field({
    type: [AccountOrganizationRef],
    description: 'The organizations of the signed-in member, with their role.',
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.accounts.organizations(ctx.actor),
  }),
}));
