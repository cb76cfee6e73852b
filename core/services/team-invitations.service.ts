import type { EntityManager } from '@mikro-orm/sql';
import { requireMemberSession, type Actor } from '../actor.ts';
import { PackInvitationEntity, type PackInvitation } from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';
import { isPlausibleId } from '../ids.ts';
import { teamInvitationUrl } from '../service-kit/member-access-policy.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';
import { isNeedPublic, needUrl } from '../visibility.ts';

export const TEAM_INVITATION_STATUSES = ['pending', 'accepted', 'refused'] as const;
export type TeamInvitationStatus = (typeof TEAM_INVITATION_STATUSES)[number];
export type TeamInvitationAnswer = Exclude<TeamInvitationStatus, 'pending'>;

/** A team invitation as the invited member sees it: what it is and who sent it, never what is inside the team. */
export interface TeamInvitationView {
  id: string;
  teamName: string;
  invitedBy: { id: string; name: string };
  /** The public need the team forms around; null when it is not public. */
  opportunity: { id: string; title: string; url: string } | null;
  invitedAt: Date;
  status: TeamInvitationStatus;
  /** Where the member accepts or refuses, on the service. */
  url: string;
}

/** What a team invitation row must have loaded to be shown: its team's need and the inviting organization. */
export const TEAM_INVITATION_POPULATE = ['pack.need', 'invitedBy'] as const;

/** The invited member's view of a team invitation (the team's name and need; nothing else of the team is read). */
export function teamInvitationView(row: PackInvitation, deps: ServiceDeps): TeamInvitationView {
  const need = row.pack.need;
  return {
    id: row.id,
    teamName: row.pack.name,
    invitedBy: { id: row.invitedBy.id, name: row.invitedBy.name },
    opportunity: need && isNeedPublic(need) ? { id: need.id, title: need.title, url: needUrl(need.id, deps.links) } : null,
    invitedAt: row.createdAt,
    status: row.status,
    url: teamInvitationUrl(deps.links.publicBaseUrl, row.id),
  };
}

/**
 * The signed-in member's team invitations, read and answered in person (an assistant only lists
 * the pending ones). Another member's invitation is not found, so ids cannot be probed.
 */
export class TeamInvitationService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /** One invitation of the signed-in member, whatever its status. */
  async get(actor: Actor, id: string): Promise<TeamInvitationView> {
    requireMemberSession(actor, 'read their team invitations');
    return teamInvitationView(await this.find(actor.memberId, id), this.deps);
  }

  /**
   * The signed-in member accepts or refuses a pending invitation, once: INVALID_STATE when it was
   * answered already. Nothing else of the team changes, and nothing is signalled.
   */
  async answer(actor: Actor, id: string, answer: TeamInvitationAnswer): Promise<TeamInvitationView> {
    requireMemberSession(actor, 'answer their team invitations');
    const row = await this.find(actor.memberId, id);
    if (row.status !== 'pending') throw alreadyAnswered(row.status);
    // Only a still pending row changes: of two answers sent at once, one wins and the other is told.
    const changed = await this.em.nativeUpdate(
      PackInvitationEntity,
      { id: row.id, member: actor.memberId, status: 'pending' },
      { status: answer },
    );
    if (changed === 0) {
      const now = await this.em.fork().findOne(PackInvitationEntity, { id: row.id });
      throw alreadyAnswered(now && now.status !== 'pending' ? now.status : answer);
    }
    return { ...teamInvitationView(row, this.deps), status: answer };
  }

  private async find(memberId: string, id: string): Promise<PackInvitation> {
    const row = isPlausibleId(id)
      ? await this.em.findOne(PackInvitationEntity, { id, member: memberId }, { populate: TEAM_INVITATION_POPULATE })
      : null;
    if (!row) throw notFound('team invitation', id);
    return row;
  }
}

const alreadyAnswered = (status: TeamInvitationAnswer) =>
  new DomainError('invalid_state', `You already ${status} this invitation; it cannot be answered again.`);
