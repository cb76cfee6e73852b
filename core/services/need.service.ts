import { ForeignKeyConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { requireInternal, requireMemberSession, type Actor } from '../actor.ts';
import { MembershipEntity, NeedEntity, OrganizationEntity, type Need, type NeedState } from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';
import { isPlausibleId, newId } from '../ids.ts';
import { isNeedDeliverable, isNeedPublic, needSignalData, needView } from '../visibility.ts';
import type { NeedView } from '../public-views.ts';
import { recordChange, type PublicList, type RecordedChange } from '../components/change-feed.ts';
import { draftReviewUrl } from '../service-kit/member-access-policy.ts';
import { recordSignal } from '../service-kit/outbox.ts';
import { keysetPage, pageArgs, type Page, type PageArgs } from '../service-kit/paging.ts';
import { LazyEmService } from '../service-kit/lazy-em-service.ts';
import { applyContent, checkContent, type NeedContent } from './need-content.ts';

export type { NeedContent } from './need-content.ts';

export interface NewNeed extends NeedContent {
  organizationId: string;
  title: string;
  discreet?: boolean;
  demo?: boolean;
  /** The member who wrote it (drafts prepared by an assistant for a member). */
  createdBy?: string;
}

/** A need as a member of its organization sees it, with the page where they review and publish it. */
export interface NeedReviewView {
  need: NeedView;
  reviewUrl: string;
  /** Changes whenever the need does: the review page's publish form is bound to it. Absent for assistants. */
  revision?: string;
  /** Whether the signed-in member may discard it (a draft not prepared for another member). Absent for assistants. */
  discardable?: boolean;
}

/** The need's revision as the review page saw it: any later change makes it differ. */
const revisionOf = (need: Need) => `${need.version}.${need.updatedAt.getTime()}`;

const LIST = 'opportunities';
const LISTS: readonly PublicList[] = ['opportunities'];
const NO_LISTS: readonly PublicList[] = [];

export class NeedService extends LazyEmService {
  /** Creates a need and publishes it at once: `need.created`. */
  async publish(actor: Actor, input: NewNeed): Promise<NeedView> {
    requireInternal(actor, 'publish needs');
    return this.create(input, 'public');
  }

  /**
   * Creates an unpublished draft; nothing is public and no signal is sent. An assistant acting
   * for a member (scope `needs:draft`) may draft for the member's own organizations only.
   */
  async createDraft(actor: Actor, input: NewNeed): Promise<NeedView> {
    if (actor.kind === 'member') {
      if (!actor.scopes.includes('needs:draft')) throw new DomainError('forbidden', 'Not allowed to draft needs');
      await this.requireMembership(actor.memberId, input.organizationId);
      return this.create({ ...input, discreet: false, demo: false, createdBy: actor.memberId }, 'draft');
    }
    requireInternal(actor, 'create needs');
    return this.create(input, 'draft');
  }

  /** Any need of one of the signed-in member's organizations (the review page of drafts). */
  async getForMember(actor: Actor, id: string): Promise<NeedReviewView> {
    requireMemberSession(actor, 'review needs');
    const need = isPlausibleId(id) ? await this.em.findOne(NeedEntity, { id }) : null;
    if (!need || !(await this.isMember(actor.memberId, need.organization.id))) throw notFound('need', id);
    const discardable = need.state === 'draft' && (!need.createdBy || need.createdBy.id === actor.memberId);
    return { ...this.review(needView(need, this.deps.links), revisionOf(need)), discardable };
  }

  /**
   * The signed-in member publishes a draft of their own organization (the review page), as it
   * was when they reviewed it (`revision`). Only a draft: a need an admin made private stays
   * private, and a publish form works once. Never an assistant.
   */
  async publishForMember(actor: Actor, id: string, revision: string): Promise<NeedReviewView> {
    await this.getForMember(actor, id);
    await this.change(id, (need) => {
      if (need.state !== 'draft')
        throw new DomainError('invalid_state', `Only a draft can be published from its review page; this need is ${need.state}`);
      if (revisionOf(need) !== revision)
        throw new DomainError('invalid_state', 'The draft changed since this page was opened; review it again before publishing');
      return this.markPublished(need);
    });
    return this.getForMember(actor, id);
  }

  /**
   * The signed-in member discards a draft of their organization (the review page): it is deleted;
   * nothing was public, so nothing is signalled. Only a draft, and not one written for another
   * member. Never an assistant.
   */
  async discardForMember(actor: Actor, id: string): Promise<boolean> {
    requireMemberSession(actor, 'discard drafts');
    // Who may discard it is settled before the write transaction (which SQLite serializes).
    const found = isPlausibleId(id) ? await this.em.findOne(NeedEntity, { id }) : null;
    if (!found || !(await this.isMember(actor.memberId, found.organization.id))) throw notFound('need', id);
    if (found.createdBy && found.createdBy.id !== actor.memberId)
      throw new DomainError('forbidden', 'This draft was prepared for another member; only they can discard it');
    let change: RecordedChange;
    try {
      change = await this.em.transactional(async (em) => {
        const need = await em.findOne(NeedEntity, { id }, this.deps.forUpdate);
        if (!need) throw notFound('need', id);
        if (need.state !== 'draft') throw new DomainError('invalid_state', `Only a draft can be discarded; this need is ${need.state}`);
        em.remove(need);
        return recordChange(em, { kind: 'need', id, lists: NO_LISTS });
      });
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException)
        throw new DomainError('invalid_state', 'This draft is already referred to elsewhere and cannot be discarded');
      throw error;
    }
    this.deps.feed.changed([change]);
    return true;
  }

  private review(need: NeedView, revision: string): NeedReviewView {
    return { need, reviewUrl: draftReviewUrl(this.deps.links.publicBaseUrl, need.id), revision };
  }

  /** Publishes a draft or a private need: `need.created`. */
  async publishExisting(actor: Actor, id: string): Promise<NeedView> {
    requireInternal(actor, 'publish needs');
    return this.publishNow(id);
  }

  private async publishNow(id: string): Promise<NeedView> {
    return this.change(id, (need) => {
      if (need.state === 'public') throw new DomainError('invalid_state', `Need '${id}' is already public`);
      if (need.state === 'withdrawn') throw new DomainError('invalid_state', `Need '${id}' was withdrawn; publish a new need instead`);
      return this.markPublished(need);
    });
  }

  private markPublished(need: Need): 'need.created' | undefined {
    need.state = 'public';
    need.publishedAt = new Date();
    need.withdrawnAt = null;
    return isNeedPublic(need) ? 'need.created' : undefined;
  }

  /** Changes content; a public need whose public content changed sends `need.updated`. */
  async update(actor: Actor, id: string, input: NeedContent): Promise<NeedView> {
    requireInternal(actor, 'update needs');
    const content = checkContent(input);
    return this.change(id, (need) => {
      if (need.state === 'withdrawn') throw new DomainError('invalid_state', `Need '${id}' was withdrawn and can no longer change`);
      const changed = applyContent(need, content);
      return changed && isNeedPublic(need) ? 'need.updated' : undefined;
    });
  }

  /** Withdraws the need for good; if it was public, `need.withdrawn`. */
  async withdraw(actor: Actor, id: string): Promise<NeedView> {
    requireInternal(actor, 'withdraw needs');
    return this.unpublish(id, 'withdrawn');
  }

  /** Hides the need from public output; if it was public, `need.withdrawn`. */
  async makePrivate(actor: Actor, id: string): Promise<NeedView> {
    requireInternal(actor, 'make needs private');
    return this.unpublish(id, 'private');
  }

  /** A public need, or `not_found` when absent or no longer public. */
  async getPublic(_actor: Actor, id: string): Promise<NeedView> {
    if (!isPlausibleId(id)) throw notFound('opportunity', id);
    const need = await this.deps.reads.need(id);
    if (!need) throw notFound('opportunity', id);
    return need;
  }

  /** Public needs, newest published first, by keyset. */
  async listPublic(_actor: Actor, args: PageArgs): Promise<Page<NeedView>> {
    const { first, after } = pageArgs(args);
    const position = after === undefined ? undefined : this.deps.cursors.decode(LIST, after);
    const { views, positions } = await this.deps.reads.needPage(first, position);
    return keysetPage(
      this.deps.cursors,
      LIST,
      views,
      first,
      (n) => n,
      (n) => positions.get(n.id) ?? 0,
    );
  }

  /** Any need, whatever its state (internal callers). */
  async get(actor: Actor, id: string): Promise<NeedView> {
    requireInternal(actor, 'read unpublished needs');
    if (!isPlausibleId(id)) throw notFound('need', id);
    const need = await this.em.findOne(NeedEntity, { id });
    if (!need) throw notFound('need', id);
    return needView(need, this.deps.links);
  }

  /** Needs of one organization in any state, newest first (internal callers). */
  async listAll(actor: Actor, filter: { organizationId?: string; state?: NeedState }, args: PageArgs): Promise<Page<NeedView>> {
    requireInternal(actor, 'list unpublished needs');
    const { first, after } = pageArgs(args);
    const where: FilterQuery<Need> = {};
    if (filter.organizationId) where.organization = filter.organizationId;
    if (filter.state) where.state = filter.state;
    if (after !== undefined) {
      const { at, id } = this.deps.cursors.decode('needs', after);
      const created = new Date(at);
      Object.assign(where, { createdAt: { $lte: created }, $or: [{ createdAt: { $lt: created } }, { id: { $lt: id } }] });
    }
    const rows = await this.em.find(NeedEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return keysetPage(
      this.deps.cursors,
      'needs',
      rows,
      first,
      (n) => needView(n, this.deps.links),
      (n) => n.createdAt.getTime(),
    );
  }

  private async create(input: NewNeed, state: NeedState): Promise<NeedView> {
    const content = checkContent(input);
    const { view, change } = await this.em.transactional(async (em) => {
      const org = await em.findOne(OrganizationEntity, { id: input.organizationId });
      if (!org) throw notFound('organization', input.organizationId);
      const now = new Date();
      const need = em.create(NeedEntity, {
        id: newId('need'),
        organization: org,
        title: content.title ?? '',
        description: content.description ?? '',
        requiredExpertise: content.requiredExpertise ?? [],
        remoteAllowed: content.remoteAllowed ?? false,
        city: content.city ?? null,
        region: content.region ?? null,
        country: content.country ?? null,
        deadline: content.deadline ?? null,
        createdBy: input.createdBy ?? null,
        state,
        discreet: input.discreet ?? false,
        // Content of a demonstration organization is demonstration content.
        demo: (input.demo ?? false) || org.demo,
        version: 0,
        publishedAt: state === 'public' ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      if (isNeedPublic(need)) await this.signal(em, need, 'need.created');
      const change = recordChange(em, { kind: 'need', id: need.id, lists: isNeedPublic(need) ? LISTS : NO_LISTS });
      return { view: needView(need, this.deps.links), change };
    });
    this.deps.feed.changed([change]);
    return view;
  }

  private async requireMembership(memberId: string, organizationId: string): Promise<void> {
    if (!(await this.isMember(memberId, organizationId)))
      throw new DomainError('forbidden', `You are not a member of the organization '${organizationId}'`, 'organization_id');
  }

  private async isMember(memberId: string, organizationId: string): Promise<boolean> {
    return (await this.em.count(MembershipEntity, { member: memberId, organization: organizationId })) > 0;
  }

  private async unpublish(id: string, to: 'withdrawn' | 'private'): Promise<NeedView> {
    return this.change(id, (need) => {
      if (need.state === 'withdrawn') throw new DomainError('invalid_state', `Need '${id}' is already withdrawn`);
      if (need.state === to) throw new DomainError('invalid_state', `Need '${id}' is already private`);
      const wasPublic = isNeedPublic(need);
      need.state = to;
      if (wasPublic) need.withdrawnAt = new Date();
      return wasPublic ? 'need.withdrawn' : undefined;
    });
  }

  /** Loads, mutates, and records the resulting signal (if any) in one transaction. */
  private async change(id: string, mutate: (need: Need) => 'need.created' | 'need.updated' | 'need.withdrawn' | undefined) {
    const { view, change } = await this.em.transactional(async (em) => {
      if (!isPlausibleId(id)) throw notFound('need', id);
      const need = await em.findOne(NeedEntity, { id }, this.deps.forUpdate);
      if (!need) throw notFound('need', id);
      const wasPublic = isNeedPublic(need);
      const signal = mutate(need);
      need.updatedAt = new Date();
      if (signal) await this.signal(em, need, signal);
      // The list shows the need if it was public before or is now; drafts touch no list.
      const change: RecordedChange = recordChange(em, { kind: 'need', id, lists: wasPublic || isNeedPublic(need) ? LISTS : NO_LISTS });
      return { view: needView(need, this.deps.links), change };
    });
    this.deps.feed.changed([change]);
    return view;
  }

  private async signal(em: EntityManager, need: Need, type: 'need.created' | 'need.updated' | 'need.withdrawn') {
    need.version += 1;
    await recordSignal(em, {
      type,
      resourceId: need.id,
      resourceVersion: need.version,
      organizationId: need.organization.id,
      // Judged on content, not state: the withdrawal of a pushed need is pushed too.
      deliverable: isNeedDeliverable({ ...need, state: 'public' }),
      data: needSignalData(need, this.deps.links, type === 'need.withdrawn'),
    });
  }
}
