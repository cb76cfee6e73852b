import type { EntityManager } from '@mikro-orm/sql';
import { requireInternal, type Actor } from '../actor.ts';
import { MemberEntity, MembershipEntity, OrganizationEntity, ROLES, type Member, type Role } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { checkPassword, hashPassword } from '../passwords.ts';
import * as v from '../validate.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export interface MemberView {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  memberships: { organizationId: string; role: Role }[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class MemberService {
  private readonly em: EntityManager;

  constructor(em: EntityManager, _deps: ServiceDeps) {
    this.em = em;
  }

  /** Creates a member; with a password, the member can sign in (consent and account pages). */
  async create(
    actor: Actor,
    input: { email: string; name: string; password?: string; organizationId?: string; role?: Role },
  ): Promise<MemberView> {
    requireInternal(actor, 'create members');
    const email = v.text('email', input.email, { max: 320 }).toLowerCase();
    if (!EMAIL.test(email)) throw invalidInput('email', 'email must be an email address');
    const name = v.text('name', input.name, { max: 200 });
    const role = checkRole(input.role ?? 'member');
    const passwordHash = input.password === undefined ? null : await hashPassword(checkPassword('password', input.password));
    return this.em.transactional(async (em) => {
      if (await em.count(MemberEntity, { email }))
        throw new DomainError('conflict', `A member with email '${email}' already exists`, 'email');
      const member = em.create(MemberEntity, {
        id: newId('member'),
        email,
        name,
        passwordHash,
        credentialsEpoch: 0,
        createdAt: new Date(),
      });
      if (input.organizationId) await this.join(em, member, input.organizationId, role);
      await em.flush();
      return this.view(em, member);
    });
  }

  /** Adds the member to the organization, or changes the role of an existing membership. */
  async setMembership(actor: Actor, memberId: string, organizationId: string, role: Role): Promise<MemberView> {
    requireInternal(actor, 'manage memberships');
    checkRole(role);
    return this.em.transactional(async (em) => {
      const member = await em.findOne(MemberEntity, { id: memberId });
      if (!member) throw notFound('member', memberId);
      await this.join(em, member, organizationId, role);
      await em.flush();
      return this.view(em, member);
    });
  }

  async removeMembership(actor: Actor, memberId: string, organizationId: string): Promise<MemberView> {
    requireInternal(actor, 'manage memberships');
    return this.em.transactional(async (em) => {
      const member = await em.findOne(MemberEntity, { id: memberId });
      if (!member) throw notFound('member', memberId);
      const deleted = await em.nativeDelete(MembershipEntity, { member: memberId, organization: organizationId });
      if (deleted === 0) throw notFound('membership', `${memberId}/${organizationId}`);
      return this.view(em, member);
    });
  }

  async get(actor: Actor, id: string): Promise<MemberView> {
    requireInternal(actor, 'read members');
    const member = await this.em.findOne(MemberEntity, { $or: [{ id }, { email: id.toLowerCase() }] });
    if (!member) throw notFound('member', id);
    return this.view(this.em, member);
  }

  async listByOrganization(actor: Actor, organizationId: string): Promise<MemberView[]> {
    requireInternal(actor, 'list members');
    const rows = await this.em.find(
      MembershipEntity,
      { organization: organizationId },
      { populate: ['member'], orderBy: { createdAt: 'asc' } },
    );
    return Promise.all(rows.map((m) => this.view(this.em, m.member)));
  }

  private async join(em: EntityManager, member: Member, organizationId: string, role: Role) {
    const org = await em.findOne(OrganizationEntity, { id: organizationId });
    if (!org) throw notFound('organization', organizationId);
    const existing = await em.findOne(MembershipEntity, { member, organization: org });
    if (existing) existing.role = role;
    else em.create(MembershipEntity, { member, organization: org, role, createdAt: new Date() });
  }

  private async view(em: EntityManager, member: Member): Promise<MemberView> {
    const memberships = await em.find(MembershipEntity, { member }, { orderBy: { createdAt: 'asc' } });
    return {
      id: member.id,
      email: member.email,
      name: member.name,
      createdAt: member.createdAt,
      memberships: memberships.map((m) => ({ organizationId: m.organization.id, role: m.role })),
    };
  }
}

function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) throw invalidInput('role', `role must be one of ${ROLES.join(', ')}`);
  return role as Role;
}
