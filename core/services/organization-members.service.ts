import type { EntityManager } from '@mikro-orm/sql';
import { hashSecret, newSecret } from '../access-secrets.ts';
import type { Actor } from '../actor.ts';
import { InvitationEntity, MemberEntity, MembershipEntity, OrganizationEntity, ROLES, type Role } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Mailer } from '../mail/index.ts';
import { endCredentials } from '../service-kit/member-credentials.ts';
import { invitationMail } from './invitation-mail.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

/** How long an invitation link works. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;
/** The page an invitation link opens, below the public base URL. */
export const INVITATION_PATH = '/account/invitation';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface OrganizationMemberView {
  id: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: Date;
}

export interface PendingInvitationView {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export interface OrganizationMembersView {
  organizationId: string;
  members: OrganizationMemberView[];
  /** Invitations not accepted yet that still work, newest first. */
  invitations: PendingInvitationView[];
}

/**
 * An organization's members as its admins manage them: invitations by mail, roles, removal. A
 * lower role or a removal ends the member's sessions and assistant grants (they were opened with
 * rights the member no longer has); the last admin can be neither demoted nor removed.
 */
export class OrganizationMembersService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;
  private readonly mailer: Mailer;

  constructor(em: EntityManager, deps: ServiceDeps, mailer: Mailer) {
    this.em = em;
    this.deps = deps;
    this.mailer = mailer;
  }

  async list(actor: Actor, organizationId: string): Promise<OrganizationMembersView> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'see its members');
    const memberships = await this.em.find(MembershipEntity, { organization: organizationId }, { populate: ['member'] });
    const invitations = await this.em.find(
      InvitationEntity,
      { organization: organizationId, acceptedAt: null, expiresAt: { $gt: new Date() } },
      { orderBy: { createdAt: 'desc', id: 'asc' } },
    );
    return {
      organizationId,
      members: memberships
        .map((m) => ({ id: m.member.id, name: m.member.name, email: m.member.email, role: m.role, joinedAt: m.createdAt }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
      invitations: invitations.map(invitationView),
    };
  }

  /** Mails a single-use invitation link valid 7 days; every problem of the input at once. */
  async invite(actor: Actor, organizationId: string, input: { email: string; role: string }): Promise<PendingInvitationView> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'invite members');
    const email = input.email.trim().toLowerCase();
    const problems: DomainError[] = [];
    if (!EMAIL.test(email) || email.length > 320) problems.push(invalidInput('email', 'Enter an email address, like name@example.org'));
    if (!(ROLES as readonly string[]).includes(input.role)) problems.push(invalidInput('role', `Choose a role: ${ROLES.join(' or ')}`));
    if (problems.length > 0)
      throw problems.length === 1 ? problems[0]! : new DomainError('invalid_input', problems.map((p) => p.message).join('. '));
    const org = await this.em.findOne(OrganizationEntity, { id: organizationId });
    if (!org) throw notFound('organization', organizationId);
    if (await this.em.count(MembershipEntity, { organization: organizationId, member: { email } })) {
      throw new DomainError('conflict', `${email} is already a member of ${org.name}`, 'email');
    }
    const token = newSecret('invitation');
    const now = new Date();
    const invitation = this.em.create(InvitationEntity, {
      id: newId('invitation'),
      tokenHash: hashSecret(token),
      organization: org,
      email,
      role: input.role as Role,
      invitedBy: actor.kind === 'memberSession' ? this.em.getReference(MemberEntity, actor.memberId) : null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
      acceptedAt: null,
    });
    await this.em.flush();
    const url = `${this.deps.links.publicBaseUrl}${INVITATION_PATH}?token=${token}`;
    try {
      await this.mailer.send(invitationMail({ to: email, organization: org.name, role: invitation.role, url }));
    } catch {
      await this.em.nativeDelete(InvitationEntity, { id: invitation.id });
      throw new DomainError('invalid_state', `The invitation to ${email} could not be sent, so it was not kept. Try again later`);
    }
    return invitationView(invitation);
  }

  /** Withdraws an invitation not accepted yet: its link stops working. */
  async withdraw(actor: Actor, organizationId: string, id: string): Promise<PendingInvitationView> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'withdraw invitations');
    const invitation = await this.em.findOne(InvitationEntity, { id, organization: organizationId, acceptedAt: null });
    if (!invitation) throw notFound('invitation', id);
    await this.em.nativeDelete(InvitationEntity, { id });
    return invitationView(invitation);
  }

  /** Sets a member's role; from admin to member, their sessions and assistant grants end. */
  async changeRole(actor: Actor, organizationId: string, memberId: string, role: string): Promise<OrganizationMemberView> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'change roles');
    if (!(ROLES as readonly string[]).includes(role)) throw invalidInput('role', `Choose a role: ${ROLES.join(' or ')}`);
    return this.em.transactional(async (em) => {
      const membership = await this.lockedMembership(em, organizationId, memberId);
      if (membership.role === role) return memberView(membership);
      if (membership.role === 'admin') await this.keepAnAdmin(em, organizationId, membership.member.name, 'member');
      membership.role = role as Role;
      await em.flush();
      if (role !== 'admin') await endCredentials(em, this.deps, memberId, 'membership_changed');
      return memberView(membership);
    });
  }

  /** Removes a member from the organization; their sessions and assistant grants end. */
  async remove(actor: Actor, organizationId: string, memberId: string): Promise<OrganizationMemberView> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'remove members');
    return this.em.transactional(async (em) => {
      const membership = await this.lockedMembership(em, organizationId, memberId);
      if (membership.role === 'admin') await this.keepAnAdmin(em, organizationId, membership.member.name, 'removed');
      const view = memberView(membership);
      await em.nativeDelete(MembershipEntity, { member: memberId, organization: organizationId });
      await endCredentials(em, this.deps, memberId, 'membership_changed');
      return view;
    });
  }

  /**
   * The membership, with the organization's row locked (PostgreSQL): two admins demoting each
   * other at once are taken one after the other, so one admin always stays.
   */
  private async lockedMembership(em: EntityManager, organizationId: string, memberId: string) {
    const org = await em.findOne(OrganizationEntity, { id: organizationId }, this.deps.forUpdate);
    if (!org) throw notFound('organization', organizationId);
    const membership = await em.findOne(MembershipEntity, { organization: organizationId, member: memberId }, { populate: ['member'] });
    if (!membership) throw notFound('member of this organization', memberId);
    return membership;
  }

  private async keepAnAdmin(em: EntityManager, organizationId: string, name: string, change: 'member' | 'removed') {
    if ((await em.count(MembershipEntity, { organization: organizationId, role: 'admin' })) > 1) return;
    const what = change === 'member' ? 'made a member' : 'removed';
    throw new DomainError(
      'invalid_state',
      `${name} is the last admin of this organization and cannot be ${what}: make another member admin first`,
    );
  }
}

const invitationView = (i: { id: string; email: string; role: Role; createdAt: Date; expiresAt: Date }): PendingInvitationView => ({
  id: i.id,
  email: i.email,
  role: i.role,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
});

const memberView = (m: { member: { id: string; name: string; email: string }; role: Role; createdAt: Date }): OrganizationMemberView => ({
  id: m.member.id,
  name: m.member.name,
  email: m.member.email,
  role: m.role,
  joinedAt: m.createdAt,
});
