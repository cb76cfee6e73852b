import { timingSafeEqual } from 'node:crypto';
import type { Actor } from '../core/actor.ts';
import type { Core, Services } from '../core/composition-root.ts';
import type { AuthenticatedKey } from '../core/components/key-authenticator.ts';
import type { AccessTokenCheck, AuthenticatedAssistant } from '../core/components/member-authenticator.ts';

/** What every resolver receives: who is asking and the services of this request. */
export interface Context {
  actor: Actor;
  services: Services;
}

/**
 * The one place contexts are made. Each call forks a fresh EntityManager (through
 * `core.services()`), so every request, in-process facade calls included, is isolated.
 */
export class Contexts {
  private readonly internalToken: Buffer;

  private readonly core: Core;

  constructor(core: Core, internalToken: string) {
    this.core = core;
    this.internalToken = Buffer.from(internalToken);
  }

  forActor(actor: Actor): Context {
    return { actor, services: this.core.services() };
  }

  /** Resolves an API key from the cache alone; undefined when the cache cannot tell. */
  cachedApiKey(key: string): AuthenticatedKey | null | undefined {
    return this.core.keys.peek(key);
  }

  /** Resolves an API key; null when unknown, revoked or expired. */
  async apiKey(key: string): Promise<AuthenticatedKey | null> {
    return this.core.keys.authenticate(key);
  }

  forApiKey(grant: AuthenticatedKey): Context {
    return this.forActor({
      kind: 'apiKey',
      keyId: grant.keyId,
      organizationId: grant.organizationId,
      plan: grant.plan,
      scopes: grant.scopes,
    });
  }

  /** A member connector access token: the grant it acts under, or why it is refused. Never cached. */
  async assistantToken(token: string): Promise<AccessTokenCheck> {
    return this.core.memberAuth.accessToken(token);
  }

  forAssistant(grant: AuthenticatedAssistant): Context {
    return this.forActor({
      kind: 'member',
      memberId: grant.memberId,
      grantId: grant.grantId,
      clientId: grant.clientId,
      scopes: grant.scopes,
    });
  }

  /** The signed-in member of a session cookie; null when unknown, expired or ended. */
  async memberSession(token: string): Promise<Context | null> {
    const session = await this.core.memberAuth.session(token);
    return session ? this.forActor({ kind: 'memberSession', memberId: session.memberId, sessionId: session.sessionId }) : null;
  }

  /** True when the token is the internal API token (constant-time). */
  isInternalToken(token: string): boolean {
    const given = Buffer.from(token);
    return given.length === this.internalToken.length && timingSafeEqual(given, this.internalToken);
  }
}
