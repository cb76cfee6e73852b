import type { EntityManager } from '@mikro-orm/sql';
import { requireMemberSession, type Actor } from '../actor.ts';
import { MembershipEntity, NeedEntity } from '../entities/index.ts';
import { draftReviewUrl } from '../service-kit/member-access-policy.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export interface MemberDraftView {
  id: string;
  title: string;
  organizationId: string;
  organizationName: string;
  createdAt: Date;
  /** The page where the member reviews, publishes or discards it. */
  reviewUrl: string;
}

/** The drafts the member's assistants prepared (the member connector's draft tool), still unpublished. */
export class MemberDraftService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /** The signed-in member's drafts in their organizations, newest first. */
  async list(actor: Actor): Promise<MemberDraftView[]> {
    requireMemberSession(actor, 'list their drafts');
    const memberships = await this.em.find(MembershipEntity, { member: actor.memberId });
    const drafts = await this.em.find(
      NeedEntity,
      { state: 'draft', createdBy: actor.memberId, organization: { $in: memberships.map((m) => m.organization.id) } },
      { populate: ['organization'], orderBy: { createdAt: 'desc', id: 'desc' }, limit: 200 },
    );
    return drafts.map((need) => ({
      id: need.id,
      title: need.title,
      organizationId: need.organization.id,
      organizationName: need.organization.name,
      createdAt: need.createdAt,
      reviewUrl: draftReviewUrl(this.deps.links.publicBaseUrl, need.id),
    }));
  }
}
