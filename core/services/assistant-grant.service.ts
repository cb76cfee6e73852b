import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { requireInternal, type Actor } from '../actor.ts';
import {
  AssistantAuditEntryEntity,
  AssistantGrantEntity,
  MemberEntity,
  MembershipEntity,
  type AssistantGrant,
  type AssistantScope,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { applicationView, isActive, type AssistantApplicationView } from './assistant-access.service.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';

export interface GrantView {
  id: string;
  memberId: string;
  application: AssistantApplicationView;
  scopes: AssistantScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  /** False once revoked, or once the member's credentials changed. */
  active: boolean;
  revokedAt: Date | null;
  revokedReason: string | null;
}

/** A grant as an organization's admins see it: the member it acts for, by name. */
export interface MemberGrantView extends GrantView {
  memberName: string;
  memberEmail: string;
}

export interface AuditEntryView {
  id: string;
  memberId: string;
  grantId: string;
  applicationId: string;
  applicationName: string;
  tool: string;
  outcome: string;
  at: Date;
}

/**
 * The member's connected applications and the log of what they did. The member (browser
 * session) sees and ends their own; internal callers name the member.
 */
export class AssistantGrantService {
  private readonly em: EntityManager;

  constructor(em: EntityManager) {
    this.em = em;
  }

  /** The signed-in member's active grants, or (internal) every grant of `member`, newest first. */
  async list(actor: Actor, member?: string | null): Promise<GrantView[]> {
    const where: FilterQuery<AssistantGrant> = { member: await this.memberOf(actor, member) };
    if (actor.kind === 'memberSession') where.revokedAt = null;
    const grants = await this.em.find(AssistantGrantEntity, where, {
      populate: ['member', 'client'],
      orderBy: { createdAt: 'desc', id: 'desc' },
    });
    return grants.map(grantView).filter((g) => actor.kind !== 'memberSession' || g.active);
  }

  /** Ends a grant: its tokens are refused from the next request on. Ending an ended grant changes nothing. */
  async revoke(actor: Actor, id: string): Promise<GrantView> {
    if (actor.kind !== 'memberSession') requireInternal(actor, 'revoke grants');
    const grant = await this.em.findOne(AssistantGrantEntity, { id }, { populate: ['member', 'client'] });
    if (!grant || (actor.kind === 'memberSession' && grant.member.id !== actor.memberId)) throw notFound('grant', id);
    if (grant.revokedAt === null) {
      grant.revokedAt = new Date();
      grant.revokedReason = 'revoked';
      await this.em.flush();
    }
    return grantView(grant);
  }

  /** The active grants of an organization's members, for its admins: who, which application, what it may do. */
  async organizationGrants(actor: Actor, organizationId: string): Promise<MemberGrantView[]> {
    await requireOrganizationAdmin(this.em, actor, organizationId, "see its members' connected applications");
    const memberships = await this.em.find(MembershipEntity, { organization: organizationId });
    const grants = await this.em.find(
      AssistantGrantEntity,
      { member: { $in: memberships.map((m) => m.member.id) }, revokedAt: null },
      { populate: ['member', 'client'], orderBy: { createdAt: 'desc', id: 'desc' } },
    );
    return grants.filter(isActive).map((g) => ({ ...grantView(g), memberName: g.member.name, memberEmail: g.member.email }));
  }

  /** An admin ends a grant of one of the organization's members; another grant reads as not found. */
  async revokeForOrganization(actor: Actor, organizationId: string, id: string): Promise<GrantView> {
    await requireOrganizationAdmin(this.em, actor, organizationId, "end its members' connected applications");
    const grant = await this.em.findOne(AssistantGrantEntity, { id }, { populate: ['member', 'client'] });
    if (!grant || !(await this.em.count(MembershipEntity, { member: grant.member.id, organization: organizationId })))
      throw notFound('grant', id);
    if (grant.revokedAt === null) {
      grant.revokedAt = new Date();
      grant.revokedReason = 'revoked';
      await this.em.flush();
    }
    return grantView(grant);
  }

  /** Tool calls made for the member, newest first. */
  async auditLog(actor: Actor, { member, first }: { member?: string | null; first?: number | null }): Promise<AuditEntryView[]> {
    const limit = first ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalidInput('first', 'first must be an integer from 1 to 200');
    const rows = await this.em.find(
      AssistantAuditEntryEntity,
      { member: await this.memberOf(actor, member) },
      { orderBy: { id: 'desc' }, limit },
    );
    return rows.map((row) => ({
      id: String(row.id),
      memberId: row.member.id,
      grantId: row.grant.id,
      applicationId: row.clientId,
      applicationName: row.clientName,
      tool: row.tool,
      outcome: row.outcome,
      at: row.at,
    }));
  }

  /** Whose records: the signed-in member's own; internal callers must name one by id or email. */
  private async memberOf(actor: Actor, member: string | null | undefined): Promise<string> {
    if (actor.kind === 'memberSession') {
      if (member != null && member !== actor.memberId)
        throw new DomainError('forbidden', "Not allowed to read another member's applications");
      return actor.memberId;
    }
    requireInternal(actor, 'read grants');
    if (member == null || member === '') throw invalidInput('member', 'member (an id or an email) is required');
    const row = await this.em.findOne(MemberEntity, { $or: [{ id: member }, { email: member.trim().toLowerCase() }] });
    if (!row) throw notFound('member', member);
    return row.id;
  }
}

export function grantView(grant: AssistantGrant): GrantView {
  return {
    id: grant.id,
    memberId: grant.member.id,
    application: applicationView(grant.client),
    scopes: [...grant.scopes],
    createdAt: grant.createdAt,
    lastUsedAt: grant.lastUsedAt ?? null,
    active: isActive(grant),
    revokedAt: grant.revokedAt ?? null,
    revokedReason: grant.revokedReason ?? null,
  };
}
