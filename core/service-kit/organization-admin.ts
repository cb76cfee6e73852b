import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../actor.ts';
import { MembershipEntity } from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';

/**
 * Organization administration (keys, destinations, deliveries, usage) is for internal callers
 * and for the organization's own admins signed in in person. An assistant acting for an admin
 * never qualifies.
 */
export async function requireOrganizationAdmin(em: EntityManager, actor: Actor, organizationId: string, action: string): Promise<void> {
  if (actor.kind === 'internal') return;
  if (actor.kind === 'memberSession' && (await isAdmin(em, actor.memberId, organizationId))) return;
  throw new DomainError('forbidden', `Only an admin of organization '${organizationId}' can ${action}`);
}

/**
 * Checks the actor may administer a resource (key, destination, delivery) the service already
 * found. For a signed-in member, another organization's resource reads as not found, so ids of
 * other organizations cannot be probed.
 */
export async function requireResourceAdmin(
  em: EntityManager,
  actor: Actor,
  organizationId: string,
  label: string,
  id: string,
): Promise<void> {
  if (actor.kind === 'internal') return;
  if (actor.kind === 'memberSession') {
    if (await isAdmin(em, actor.memberId, organizationId)) return;
    throw notFound(label, id);
  }
  throw new DomainError('forbidden', `Not allowed to manage a ${label}`);
}

async function isAdmin(em: EntityManager, memberId: string, organizationId: string): Promise<boolean> {
  return (await em.count(MembershipEntity, { member: memberId, organization: organizationId, role: 'admin' })) > 0;
}
