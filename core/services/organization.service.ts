import type { FilterQuery } from '@mikro-orm/core';
import { requireInternal, type Actor } from '../actor.ts';
import {
  checkEachField,
  checkProfile,
  definedOnly,
  type OrganizationProfileInput,
  type ProfileEdit,
  type PublicProfileChanges,
} from './profile-edit.ts';
import { OrganizationEntity, type Organization, type Plan } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { ORGANIZATION_ID, isPlausibleId } from '../ids.ts';
import { PLAN_ALLOWANCES, type PlanAllowances } from '../plans.ts';
import { isOrganizationDiscoverable, organizationProfile } from '../visibility.ts';
import type { OrganizationProfile, OrganizationSummary } from '../public-views.ts';
import { recordChange, type PublicList } from '../components/change-feed.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';
import { keysetPage, pageArgs, type Page, type PageArgs } from '../service-kit/paging.ts';
import { LazyEmService } from '../service-kit/lazy-em-service.ts';

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
    return this.apply(id, checkProfile(input));
  }

  private async apply(id: string, fields: OrganizationProfileInput): Promise<OrganizationProfile> {
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
   * An admin's change to the public profile (never the plan or listing flags), checked field by
   * field so every problem is reported at once. `save: false` answers the profile as it would
   * read after the change, without changing anything.
   */
  async editProfile(actor: Actor, id: string, changes: PublicProfileChanges, save: boolean): Promise<ProfileEdit> {
    if (!isPlausibleId(id)) throw notFound('organization', id);
    await requireOrganizationAdmin(this.em, actor, id, 'edit its profile');
    const { fields, problems } = checkEachField(changes);
    if (problems.length > 0) return { profile: null, problems };
    if (save) return { profile: await this.apply(id, fields), problems };
    const org = await this.em.findOne(OrganizationEntity, { id });
    if (!org) throw notFound('organization', id);
    const draft = { ...org, ...definedOnly(fields), updatedAt: new Date() };
    return { profile: organizationProfile(draft, this.deps.links), problems };
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
