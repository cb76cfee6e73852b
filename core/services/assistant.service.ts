import type { EntityManager } from '@mikro-orm/sql';
import type { Actor, AssistantActor } from '../actor.ts';
import {
  AssistantAuditEntryEntity,
  AssistantGrantEntity,
  MemberEntity,
  MembershipEntity,
  PackInvitationEntity,
  type AssistantGrant,
  type AssistantScope,
  type Role,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { isActive } from './assistant-access.service.ts';
import { draftReviewUrl, MEMBER_ACCOUNT_PATH } from '../service-kit/member-access-policy.ts';
import type { NeedContent, NeedReviewView, NeedService } from './need.service.ts';
import { TEAM_INVITATION_POPULATE, teamInvitationView, type TeamInvitationView } from './team-invitations.service.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

/** What the member connector can do, each under the ability it needs. Nothing publishes, messages, signs or quotes. */
export const ASSISTANT_TOOLS = {
  my_account: 'account:read',
  my_invitations: 'invitations:read',
  draft_need: 'needs:draft',
} as const satisfies Record<string, AssistantScope>;
export type AssistantTool = keyof typeof ASSISTANT_TOOLS;

export interface AssistantAccountView {
  id: string;
  name: string;
  profileUrl: string;
  organizations: { id: string; name: string; role: Role; profileUrl: string }[];
}

export interface DraftNeedInput extends NeedContent {
  /** Needed only when the member belongs to several organizations. */
  organizationId?: string | null;
  title: string;
}

/**
 * The member connector's tools. Each call checks that the grant is still alive and holds the
 * tool's ability, then runs, and is written to the member's audit log whatever its outcome.
 */
export class AssistantService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;
  private readonly needs: NeedService;

  constructor(em: EntityManager, deps: ServiceDeps, needs: NeedService) {
    this.em = em;
    this.deps = deps;
    this.needs = needs;
  }

  async account(actor: Actor): Promise<AssistantAccountView> {
    return this.audited(actor, 'my_account', async ({ memberId }) => {
      const member = await this.em.findOne(MemberEntity, { id: memberId });
      if (!member) throw notFound('member', memberId);
      const memberships = await this.em.find(
        MembershipEntity,
        { member: memberId },
        { populate: ['organization'], orderBy: { createdAt: 'asc' } },
      );
      const base = this.deps.links.publicBaseUrl;
      return {
        id: member.id,
        name: member.name,
        profileUrl: `${base}${MEMBER_ACCOUNT_PATH}`,
        organizations: memberships.map((m) => ({
          id: m.organization.id,
          name: m.organization.name,
          role: m.role,
          profileUrl: `${base}/organizations/${encodeURIComponent(m.organization.id)}`,
        })),
      };
    });
  }

  /** Pending team invitations: what they are and who sent them, never what is inside the team. */
  async invitations(actor: Actor): Promise<TeamInvitationView[]> {
    return this.audited(actor, 'my_invitations', async ({ memberId }) => {
      const rows = await this.em.find(
        PackInvitationEntity,
        { member: memberId, status: 'pending' },
        { populate: TEAM_INVITATION_POPULATE, orderBy: { createdAt: 'desc', id: 'asc' } },
      );
      return rows.map((row) => teamInvitationView(row, this.deps));
    });
  }

  /** An unpublished draft in one of the member's organizations, and the link to review and publish it. */
  async draftNeed(actor: Actor, input: DraftNeedInput): Promise<NeedReviewView> {
    return this.audited(actor, 'draft_need', async (assistant) => {
      const organizationId = input.organizationId ?? (await this.onlyOrganization(assistant.memberId));
      const need = await this.needs.createDraft(assistant, { ...input, organizationId });
      return { need, reviewUrl: draftReviewUrl(this.deps.links.publicBaseUrl, need.id) };
    });
  }

  private async onlyOrganization(memberId: string): Promise<string> {
    const memberships = await this.em.find(MembershipEntity, { member: memberId }, { orderBy: { createdAt: 'asc' } });
    if (memberships.length === 1) return memberships[0]!.organization.id;
    if (memberships.length === 0) throw new DomainError('forbidden', 'You belong to no organization, so there is nowhere to draft a need');
    const ids = memberships.map((m) => m.organization.id).join(', ');
    throw invalidInput('organization_id', `You belong to several organizations: give organization_id (one of ${ids})`);
  }

  private async audited<T>(actor: Actor, tool: AssistantTool, run: (actor: AssistantActor) => Promise<T>): Promise<T> {
    if (actor.kind !== 'member') throw new DomainError('forbidden', 'Only an assistant acting for a member can do this');
    const grant = await this.em.findOne(AssistantGrantEntity, { id: actor.grantId }, { populate: ['member', 'client'] });
    if (!grant || grant.member.id !== actor.memberId) throw new DomainError('forbidden', 'This access is unknown');
    let outcome = 'ok';
    try {
      if (!isActive(grant)) throw new DomainError('forbidden', "This application's access has ended; the member must connect it again");
      const scope = ASSISTANT_TOOLS[tool];
      if (!actor.scopes.includes(scope) || !grant.scopes.includes(scope)) {
        throw new DomainError('forbidden', `The member did not allow this application the ability ${scope}`);
      }
      return await run(actor);
    } catch (error) {
      outcome = error instanceof DomainError ? error.code : 'error';
      throw error;
    } finally {
      await this.record(grant, tool, outcome);
    }
  }

  private async record(grant: AssistantGrant, tool: AssistantTool, outcome: string): Promise<void> {
    const at = new Date();
    await this.em.fork().transactional(async (em) => {
      await em.insert(AssistantAuditEntryEntity, {
        member: grant.member.id,
        grant: grant.id,
        clientId: grant.client.id,
        clientName: grant.client.name,
        tool,
        outcome,
        at,
      });
      await em.nativeUpdate(AssistantGrantEntity, { id: grant.id }, { lastUsedAt: at });
    });
  }
}
