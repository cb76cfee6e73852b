import type { EntityManager } from '@mikro-orm/sql';
import { hashSecret, isWellFormedSecret } from '../access-secrets.ts';
import { requireInternal, requireMemberSession, type Actor } from '../actor.ts';
import { InvitationEntity, MemberEntity, MembershipEntity, type Invitation, type Role } from '../entities/index.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { checkPassword, hashPassword } from '../passwords.ts';
import * as v from '../validate.ts';
import type { MemberAccessPolicy } from '../service-kit/member-access-policy.ts';
import { openSession, type OpenedSession } from '../service-kit/member-credentials.ts';

/** An invitation whose link still works, as its page shows it. */
export interface InvitationView {
  organizationId: string;
  organizationName: string;
  email: string;
  role: Role;
  expiresAt: Date;
  /** Whether someone already has an account with the invited email (then they sign in to accept). */
  accountExists: boolean;
}

export interface AcceptedInvitation {
  organizationId: string;
  organizationName: string;
  role: Role;
}

const UNUSABLE = () =>
  new DomainError('invalid_state', 'This invitation does not work any more: it was used, withdrawn or expired, or the link is incomplete');

/**
 * The invited person's side of an invitation: a new person creates an account with the invited
 * email; a member with that email, signed in, joins. Each link works once, on any instance.
 */
export class InvitationService {
  private readonly em: EntityManager;
  private readonly policy: MemberAccessPolicy;

  constructor(em: EntityManager, policy: MemberAccessPolicy) {
    this.em = em;
    this.policy = policy;
  }

  async show(actor: Actor, token: string): Promise<InvitationView> {
    if (actor.kind !== 'memberSession') requireInternal(actor, 'read invitations');
    const invitation = await this.usable(this.em, token);
    return {
      organizationId: invitation.organization.id,
      organizationName: invitation.organization.name,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      accountExists: (await this.em.count(MemberEntity, { email: invitation.email })) > 0,
    };
  }

  /** A new person: an account with the invited email, in the organization, and a browser session. */
  async acceptWithNewAccount(actor: Actor, token: string, input: { name: string; password: string }): Promise<OpenedSession> {
    requireInternal(actor, 'create accounts from invitations');
    const name = v.text('name', input.name, { max: 200 });
    checkPassword('password', input.password);
    await this.usable(this.em, token);
    const hash = await hashPassword(input.password);
    return this.em.transactional(async (em) => {
      const invitation = await this.claim(em, token);
      if (await em.count(MemberEntity, { email: invitation.email })) {
        throw new DomainError('conflict', `An account with ${invitation.email} exists already: sign in to accept the invitation`);
      }
      const member = em.create(MemberEntity, {
        id: newId('member'),
        email: invitation.email,
        name,
        passwordHash: hash,
        credentialsEpoch: 0,
        createdAt: new Date(),
      });
      em.create(MembershipEntity, { member, organization: invitation.organization, role: invitation.role, createdAt: new Date() });
      await em.flush();
      return openSession(em, this.policy, member.id, member.credentialsEpoch);
    });
  }

  /** The signed-in member, invited by their own email, joins (a member already keeps their role). */
  async accept(actor: Actor, token: string): Promise<AcceptedInvitation> {
    requireMemberSession(actor, 'accept invitations');
    const member = await this.em.findOne(MemberEntity, { id: actor.memberId });
    const invitation = await this.usable(this.em, token);
    if (!member || member.email !== invitation.email) {
      throw new DomainError(
        'forbidden',
        `This invitation is for ${invitation.email}, and you are signed in as ${member?.email ?? 'someone else'}: sign out, then sign in as ${invitation.email}`,
      );
    }
    return this.em.transactional(async (em) => {
      const claimed = await this.claim(em, token);
      const existing = await em.findOne(MembershipEntity, { member: member.id, organization: claimed.organization.id });
      if (!existing)
        em.create(MembershipEntity, {
          member: member.id,
          organization: claimed.organization.id,
          role: claimed.role,
          createdAt: new Date(),
        });
      await em.flush();
      return { organizationId: claimed.organization.id, organizationName: claimed.organization.name, role: existing?.role ?? claimed.role };
    });
  }

  private async usable(em: EntityManager, token: string): Promise<Invitation> {
    if (!isWellFormedSecret('invitation', token)) throw UNUSABLE();
    const invitation = await em.findOne(InvitationEntity, { tokenHash: hashSecret(token) }, { populate: ['organization'] });
    if (!invitation || invitation.acceptedAt || invitation.expiresAt.getTime() <= Date.now()) throw UNUSABLE();
    return invitation;
  }

  /** Marks the invitation accepted, once, whatever instance races for it. */
  private async claim(em: EntityManager, token: string): Promise<Invitation> {
    const tokenHash = hashSecret(token);
    const claimed = await em.nativeUpdate(
      InvitationEntity,
      { tokenHash, acceptedAt: null, expiresAt: { $gt: new Date() } },
      { acceptedAt: new Date() },
    );
    if (claimed !== 1) throw UNUSABLE();
    return this.usableAfterClaim(em, tokenHash);
  }

  private async usableAfterClaim(em: EntityManager, tokenHash: string): Promise<Invitation> {
    const invitation = await em.findOne(InvitationEntity, { tokenHash }, { populate: ['organization'], refresh: true });
    if (!invitation) throw UNUSABLE();
    return invitation;
  }
}
