import type { FilterQuery } from '@mikro-orm/core';
import { requireInternal, type Actor } from '../actor.ts';
import { OrganizationEntity, PLANS, type Organization, type Plan } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { ORGANIZATION_ID, isPlausibleId } from '../ids.ts';
import { PLAN_ALLOWANCES, type PlanAllowances } from '../plans.ts';
import * as v from '../validate.ts';
import { isOrganizationDiscoverable, organizationProfile } from '../visibility.ts';
import type { OrganizationProfile, OrganizationSummary } from '../public-views.ts';
import { recordChange, type PublicList } from '../components/change-feed.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';
import { keysetPage, pageArgs, type Page, type PageArgs } from '../service-kit/paging.ts';
import { LazyEmService } from '../service-kit/lazy-em-service.ts';

export interface OrganizationProfileInput {
  name?: string;
  plan?: Plan;
  listed?: boolean;
  demo?: boolean;
  complete?: boolean;
  description?: string;
  website?: string | null;
  logoUrl?: string | null;
  sectors?: string[];
  capabilities?: string[];
  networks?: string[];
  city?: string | null;
  region?: string | null;
  country?: string | null;
}

export interface NewOrganization extends OrganizationProfileInput {
  id: string;
  name: string;
  plan: Plan;
}

/** Lists whose items embed their organization's name (needs, events): an organization's change retires them. */
const EMBEDDED_IN: readonly PublicList[] = ['opportunities', 'events'];

export class OrganizationService extends LazyEmService {
  async create(actor: Actor, input: NewOrganization): Promise<OrganizationProfile> {
    requireInternal(actor, 'create organizations');
    if (!ORGANIZATION_ID.test(input.id)) {
      throw invalidInput('id', 'id must be 1 to 64 lowercase letters, digits or dashes, not starting or ending with a dash');
    }
    const fields = checkProfile(input);
    const { profile, change } = await this.em.transactional(async (em) => {
      if (await em.count(OrganizationEntity, { id: input.id })) {
        throw new DomainError('conflict', `An organization with id '${input.id}' already exists`, 'id');
      }
      const now = new Date();
      const org = em.create(OrganizationEntity, {
        id: input.id,
        name: fields.name ?? input.name,
        plan: fields.plan ?? input.plan,
        listed: fields.listed ?? true,
        demo: fields.demo ?? false,
        complete: fields.complete ?? true,
        description: fields.description ?? '',
        website: fields.website ?? null,
        logoUrl: fields.logoUrl ?? null,
        sectors: fields.sectors ?? [],
        capabilities: fields.capabilities ?? [],
        networks: fields.networks ?? [],
        city: fields.city ?? null,
        region: fields.region ?? null,
        country: fields.country ?? null,
        // Set here, not left to column defaults: the answer is built from this instance.
        partnerPaymentsDue: 0,
        partnerPaymentsConfirmed: 0,
        partnersCount: 0,
        completedPacks: 0,
        referencesCount: 0,
        certificationsCount: 0,
        billingEmail: null,
        internalNotes: null,
        createdAt: now,
        updatedAt: now,
      });
      const change = recordChange(em, { kind: 'organization', id: org.id, lists: EMBEDDED_IN });
      return { profile: organizationProfile(org, this.deps.links), change };
    });
    this.deps.feed.changed([change]);
    return profile;
  }

  async update(actor: Actor, id: string, input: OrganizationProfileInput): Promise<OrganizationProfile> {
    requireInternal(actor, 'update organizations');
    const fields = checkProfile(input);
    const { profile, change } = await this.em.transactional(async (em) => {
      const org = await em.findOne(OrganizationEntity, { id }, this.deps.forUpdate);
      if (!org) throw notFound('organization', id);
      for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined) (org as Record<string, unknown>)[key] = value;
      }
      org.updatedAt = new Date();
      const change = recordChange(em, { kind: 'organization', id: org.id, lists: EMBEDDED_IN });
      return { profile: organizationProfile(org, this.deps.links), change };
    });
    this.deps.feed.changed([change]);
    return profile;
  }

  /**
   * The public profile, as the caller may see it: an API key sees only its own organization;
   * the public (no account) sees only discoverable organizations; internal callers see all.
   */
  async getProfile(actor: Actor, id: string): Promise<OrganizationProfile> {
    if (actor.kind === 'apiKey' && actor.organizationId !== id) throw notFound('organization', id);
    if (!isPlausibleId(id)) throw notFound('organization', id);
    const profile = await this.deps.reads.organizationProfile(id);
    if (!profile || (actor.kind === 'public' && !isOrganizationDiscoverable(profile.admin))) throw notFound('organization', id);
    return profile;
  }

  /** The profile with its administrative facts, for internal callers and the organization's admins. */
  async administered(actor: Actor, id: string): Promise<OrganizationProfile> {
    if (!isPlausibleId(id)) throw notFound('organization', id);
    await requireOrganizationAdmin(this.em, actor, id, 'administer it');
    const org = await this.em.findOne(OrganizationEntity, { id });
    if (!org) throw notFound('organization', id);
    return organizationProfile(org, this.deps.links);
  }

  /** Names of the organizations behind public needs and events. */
  summaries(ids: readonly string[]): Promise<(OrganizationSummary | null)[]> {
    return this.deps.reads.organizationNames(ids);
  }

  /** Every organization, by id (internal callers). */
  async list(actor: Actor, args: PageArgs): Promise<Page<OrganizationProfile>> {
    requireInternal(actor, 'list organizations');
    const { first, after } = pageArgs(args);
    const where: FilterQuery<Organization> = after ? { id: { $gt: this.deps.cursors.decode('organizations', after).id } } : {};
    const rows = await this.em.find(OrganizationEntity, where, { orderBy: { id: 'asc' }, limit: first + 1 });
    return keysetPage(
      this.deps.cursors,
      'organizations',
      rows,
      first,
      (o) => organizationProfile(o, this.deps.links),
      () => 0,
    );
  }

  allowances(plan: Plan): PlanAllowances {
    return PLAN_ALLOWANCES[plan];
  }
}

function checkProfile(input: OrganizationProfileInput): OrganizationProfileInput {
  const out: OrganizationProfileInput = {};
  if (input.name !== undefined) out.name = v.text('name', input.name, { max: 200 });
  if (input.plan !== undefined) {
    if (!PLANS.includes(input.plan)) throw invalidInput('plan', `plan must be one of ${PLANS.join(', ')}`);
    out.plan = input.plan;
  }
  for (const flag of ['listed', 'demo', 'complete'] as const) if (input[flag] !== undefined) out[flag] = input[flag];
  if (input.description !== undefined) out.description = v.text('description', input.description, { min: 0, max: 5_000 });
  if (input.website !== undefined) out.website = v.httpUrl('website', input.website);
  if (input.logoUrl !== undefined) out.logoUrl = v.httpUrl('logo_url', input.logoUrl);
  for (const key of ['sectors', 'capabilities', 'networks'] as const) {
    const values = input[key];
    if (values !== undefined) out[key] = v.list(key, values, { maxItems: 30, maxLength: 80 });
  }
  if (input.city !== undefined) out.city = v.optionalText('city', input.city, 120);
  if (input.region !== undefined) out.region = v.optionalText('region', input.region, 120);
  if (input.country !== undefined) out.country = v.country('country', input.country);
  return out;
}
