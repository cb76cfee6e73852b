import type { EntityManager } from '@mikro-orm/sql';
import { requireInternal, requireMemberSession, type Actor } from '../actor.ts';
import {
  AssistantGrantEntity,
  MemberEntity,
  MembershipEntity,
  MemberSessionEntity,
  type GrantEndReason,
  type Member,
  type Plan,
  type Role,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { hasControlCharacters } from '../ids.ts';
import { checkPassword, hashPassword, verifyPassword } from '../passwords.ts';
import type { MemberAccessPolicy } from '../service-kit/member-access-policy.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';
import { endCredentials, openSession, type OpenedSession } from '../service-kit/member-credentials.ts';

export interface AccountView {
  id: string;
  name: string;
  email: string;
}

/** An organization the signed-in member belongs to, with their role in it. */
export interface AccountOrganization {
  id: string;
  name: string;
  role: Role;
  plan: Plan;
}

export type { OpenedSession };

export interface CredentialsReset {
  memberId: string;
  /** Assistant grants that ended with the old credentials. */
  endedGrants: number;
}

/** A member's own credentials: sign-in, password, sessions. Ending credentials ends every assistant grant. */
export class MemberAccountService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;
  private readonly policy: MemberAccessPolicy;

  constructor(em: EntityManager, deps: ServiceDeps, policy: MemberAccessPolicy) {
    this.em = em;
    this.deps = deps;
    this.policy = policy;
  }

  /** Checks an email and password (the sign-in page) and opens a session. */
  async signIn(actor: Actor, email: string, password: string): Promise<OpenedSession> {
    requireInternal(actor, 'open member sessions');
    // PostgreSQL refuses a NUL in a query parameter: an address with control characters names nobody.
    if (hasControlCharacters(email)) throw invalidInput('email', 'email must not contain control characters');
    const member = await this.em.findOne(MemberEntity, { email: email.trim().toLowerCase().slice(0, 320) });
    const valid = await verifyPassword(password.slice(0, 1_000), member?.passwordHash ?? null);
    if (!member || !valid) throw new DomainError('forbidden', 'Wrong email or password');
    return this.em.transactional((em) => openSession(em, this.policy, member.id, member.credentialsEpoch));
  }

  async me(actor: Actor): Promise<AccountView> {
    requireMemberSession(actor, 'read the account');
    const member = await this.em.findOne(MemberEntity, { id: actor.memberId });
    if (!member) throw notFound('member', actor.memberId);
    return { id: member.id, name: member.name, email: member.email };
  }

  /** The member's organizations, by name. */
  async organizations(actor: Actor): Promise<AccountOrganization[]> {
    requireMemberSession(actor, 'list their organizations');
    const rows = await this.em.find(MembershipEntity, { member: actor.memberId }, { populate: ['organization'] });
    return rows
      .map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role, plan: m.organization.plan }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /** Ends this browser's session only. */
  async signOut(actor: Actor): Promise<boolean> {
    requireMemberSession(actor, 'sign out');
    await this.em.nativeUpdate(MemberSessionEntity, { idHash: actor.sessionId, endedAt: null }, { endedAt: new Date() });
    return true;
  }

  /**
   * Sets a new password after checking the current one. Every session and assistant grant ends;
   * this browser gets a fresh session.
   */
  async changePassword(actor: Actor, current: string, next: string): Promise<OpenedSession> {
    requireMemberSession(actor, 'change the password');
    checkPassword('new_password', next);
    const member = await this.em.findOne(MemberEntity, { id: actor.memberId });
    if (!member) throw notFound('member', actor.memberId);
    if (!(await verifyPassword(current.slice(0, 1_000), member.passwordHash ?? null))) {
      throw new DomainError('invalid_input', 'The current password is not right', 'current_password');
    }
    const hash = await hashPassword(next);
    return this.em.transactional(async (em) => {
      const epoch = await endCredentials(em, this.deps, member.id, 'password_changed', hash);
      return openSession(em, this.policy, member.id, epoch);
    });
  }

  /** Ends every session (this one included) and every assistant grant of the member. */
  async signOutEverywhere(actor: Actor): Promise<CredentialsReset> {
    requireMemberSession(actor, 'sign out everywhere');
    return this.reset(actor.memberId, 'signed_out_everywhere');
  }

  /** Internal callers (CLI): sets a member's password; sessions and grants end. */
  async setPassword(actor: Actor, idOrEmail: string, password: string): Promise<CredentialsReset> {
    requireInternal(actor, 'set member passwords');
    checkPassword('password', password);
    const member = await this.find(idOrEmail);
    return this.reset(member.id, 'password_changed', await hashPassword(password));
  }

  /** Internal callers (CLI): signs a member out everywhere. */
  async signOutEverywhereFor(actor: Actor, idOrEmail: string): Promise<CredentialsReset> {
    requireInternal(actor, 'sign members out');
    const member = await this.find(idOrEmail);
    return this.reset(member.id, 'signed_out_everywhere');
  }

  private async reset(memberId: string, reason: GrantEndReason, passwordHash?: string): Promise<CredentialsReset> {
    return this.em.transactional(async (em) => {
      const endedGrants = await em.count(AssistantGrantEntity, { member: memberId, revokedAt: null });
      await endCredentials(em, this.deps, memberId, reason, passwordHash);
      return { memberId, endedGrants };
    });
  }

  private async find(idOrEmail: string): Promise<Member> {
    const member = await this.em.findOne(MemberEntity, { $or: [{ id: idOrEmail }, { email: idOrEmail.trim().toLowerCase() }] });
    if (!member) throw notFound('member', idOrEmail);
    return member;
  }
}
