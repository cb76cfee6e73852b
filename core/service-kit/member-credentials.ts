import type { EntityManager } from '@mikro-orm/sql';
import { hashSecret, newSecret } from '../access-secrets.ts';
import { AssistantGrantEntity, MemberEntity, MemberSessionEntity, type GrantEndReason } from '../entities/index.ts';
import { notFound } from '../errors.ts';
import type { MemberAccessPolicy } from './member-access-policy.ts';
import type { ServiceDeps } from './service-deps.ts';

// What ends and opens a member's credentials, for every service that must: password change and
// reset, sign-out everywhere, removal from an organization or a lower role.

/** A browser session, opened at sign-in or password change; the token goes into a cookie, once. */
export interface OpenedSession {
  token: string;
  memberId: string;
  expiresAt: Date;
}

/**
 * Bumps the member's credentials epoch (so nothing issued before still counts), ends their sessions
 * and assistant grants, and sets the password hash when given. Returns the new epoch.
 */
export async function endCredentials(
  em: EntityManager,
  deps: Pick<ServiceDeps, 'forUpdate'>,
  memberId: string,
  reason: GrantEndReason,
  passwordHash?: string,
): Promise<number> {
  const member = await em.findOne(MemberEntity, { id: memberId }, deps.forUpdate);
  if (!member) throw notFound('member', memberId);
  const now = new Date();
  member.credentialsEpoch += 1;
  if (passwordHash !== undefined) member.passwordHash = passwordHash;
  await em.nativeUpdate(AssistantGrantEntity, { member: memberId, revokedAt: null }, { revokedAt: now, revokedReason: reason });
  await em.nativeUpdate(MemberSessionEntity, { member: memberId, endedAt: null }, { endedAt: now });
  await em.flush();
  return member.credentialsEpoch;
}

/** Opens a browser session at the member's current epoch; its token is returned this once. */
export async function openSession(
  em: EntityManager,
  policy: Pick<MemberAccessPolicy, 'sessionTtlSeconds'>,
  memberId: string,
  epoch: number,
): Promise<OpenedSession> {
  const token = newSecret('session');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + policy.sessionTtlSeconds * 1000);
  em.create(MemberSessionEntity, {
    idHash: hashSecret(token),
    member: em.getReference(MemberEntity, memberId),
    credentialsEpoch: epoch,
    createdAt: now,
    expiresAt,
    endedAt: null,
  });
  await em.flush();
  return { token, memberId, expiresAt };
}
