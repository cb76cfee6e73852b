import { hashSecret, isWellFormedSecret } from '../access-secrets.ts';
import type { Database } from '../db/orm.ts';
import { AssistantTokenEntity, MemberSessionEntity, type AssistantScope } from '../entities/index.ts';

export interface AuthenticatedAssistant {
  memberId: string;
  grantId: string;
  clientId: string;
  scopes: readonly AssistantScope[];
  /** Unix milliseconds. */
  expiresAt: number;
}

export type AccessTokenCheck = { ok: true; grant: AuthenticatedAssistant } | { ok: false; reason: 'unknown' | 'expired' | 'ended' };

export interface AuthenticatedSession {
  memberId: string;
  /** The stored hash of the session id: names the session without being its secret. */
  sessionId: string;
}

/**
 * Resolves member connector access tokens and member browser sessions. Nothing is cached: a
 * revoked grant, a changed password or a sign-out everywhere refuses the very next request.
 */
export class MemberAuthenticator {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async accessToken(token: string, now = Date.now()): Promise<AccessTokenCheck> {
    if (!isWellFormedSecret('accessToken', token)) return { ok: false, reason: 'unknown' };
    const row = await this.db.em
      .fork()
      .findOne(AssistantTokenEntity, { hash: hashSecret(token), kind: 'access' }, { populate: ['grant.member'] });
    if (!row) return { ok: false, reason: 'unknown' };
    const grant = row.grant;
    if (row.revokedAt || grant.revokedAt || grant.credentialsEpoch !== grant.member.credentialsEpoch) return { ok: false, reason: 'ended' };
    if (row.expiresAt.getTime() <= now) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      grant: {
        memberId: grant.member.id,
        grantId: grant.id,
        clientId: grant.client.id,
        scopes: row.scopes,
        expiresAt: row.expiresAt.getTime(),
      },
    };
  }

  async session(token: string, now = Date.now()): Promise<AuthenticatedSession | null> {
    if (!isWellFormedSecret('session', token)) return null;
    const idHash = hashSecret(token);
    const row = await this.db.em.fork().findOne(MemberSessionEntity, { idHash }, { populate: ['member'] });
    if (!row || row.endedAt || row.expiresAt.getTime() <= now || row.credentialsEpoch !== row.member.credentialsEpoch) return null;
    return { memberId: row.member.id, sessionId: idHash };
  }
}
