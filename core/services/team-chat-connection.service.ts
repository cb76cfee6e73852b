import type { EntityManager } from '@mikro-orm/sql';
import { createHash } from 'node:crypto';
import { requireInternal, type Actor } from '../actor.ts';
import { OrganizationEntity, TeamChatAuthorizationEntity, type DestinationScope } from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';
import { randomString } from '../ids.ts';
import type { Language } from '../webhooks/contract.ts';
import { checkDestinationUrl } from '../webhooks/url-policy.ts';
import type { DestinationView } from '../webhooks/views.ts';
import type { TeamChatProvider } from '../config.ts';
import { checkSettings, insertDestination, requireRoom, type DestinationSettings } from '../service-kit/destination-records.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

/** The path of the flow's callback. */
export const TEAM_CHAT_CALLBACK_PATH = '/integrations/team-chat/callback';
/** The only permission asked of the provider: post to the one channel the admin picks. */
const TEAM_CHAT_SCOPE = 'incoming-webhook';

/** Where the admin is sent to grant the incoming-webhook permission; the provider comes back with `state`. */
export function teamChatAuthorizeUrl(provider: TeamChatProvider, publicBaseUrl: string, state: string): string {
  const query = new URLSearchParams({
    client_id: provider.clientId,
    scope: TEAM_CHAT_SCOPE,
    redirect_uri: teamChatCallbackUrl(publicBaseUrl),
    state,
  });
  return `${provider.authorizeUrl}${provider.authorizeUrl.includes('?') ? '&' : '?'}${query.toString()}`;
}

/** Where the provider sends the admin back (facades/integrations/team-chat.route.ts answers there). */
export const teamChatCallbackUrl = (publicBaseUrl: string) => `${publicBaseUrl}${TEAM_CHAT_CALLBACK_PATH}`;

/** How long an admin has to finish the team-chat connection flow. */
const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

/**
 * The team-chat connection flow: an admin starts it (settings kept under a one-time `state`),
 * the provider sends the admin back with that state, and the channel's incoming URL becomes a
 * team-chat destination.
 */
export class TeamChatConnectionService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /**
   * Starts the flow: keeps the settings under a one-time `state` the provider hands back with
   * the admin. Started from the administration pages, the flow is bound to that browser
   * session: a callback opened in another browser is refused.
   */
  async begin(actor: Actor, input: DestinationSettings, now = new Date()): Promise<{ state: string; expiresAt: Date }> {
    await requireOrganizationAdmin(this.em, actor, input.organizationId, 'connect team-chat destinations');
    const settings = checkSettings(input);
    const state = randomString(32);
    const expiresAt = new Date(now.getTime() + AUTHORIZATION_TTL_MS);
    await this.em.transactional(async (em) => {
      const org = await em.findOne(OrganizationEntity, { id: input.organizationId });
      if (!org) throw notFound('organization', input.organizationId);
      await requireRoom(em, org.id, org.plan);
      await em.nativeDelete(TeamChatAuthorizationEntity, { expiresAt: { $lt: now } });
      const sessionHash = actor.kind === 'memberSession' ? stateHash(actor.sessionId) : null;
      em.create(TeamChatAuthorizationEntity, {
        stateHash: stateHash(state),
        organization: org,
        ...settings,
        sessionHash,
        expiresAt,
        createdAt: now,
      });
    });
    return { state, expiresAt };
  }

  /**
   * Checks a state without using it, so the callback can refuse a stale or replayed one before
   * asking the provider to exchange its code (which would install a webhook nobody uses).
   */
  async pending(
    actor: Actor,
    state: string,
    sessionId: string | null = null,
    now = new Date(),
  ): Promise<{ state: string; expiresAt: Date }> {
    requireInternal(actor, 'connect team-chat destinations');
    const found = await this.em.findOne(TeamChatAuthorizationEntity, { stateHash: stateHash(state) });
    if (!found || found.expiresAt < now) throw invalidStateError();
    checkBrowser(found, sessionId);
    return { state, expiresAt: found.expiresAt };
  }

  /** Ends the flow: the channel's incoming URL becomes a team-chat destination. The state works once. */
  async complete(
    actor: Actor,
    state: string,
    incomingUrl: string,
    sessionId: string | null = null,
    now = new Date(),
  ): Promise<DestinationView> {
    requireInternal(actor, 'connect team-chat destinations');
    const pending = await this.em.transactional(async (em) => {
      const found = await em.findOne(TeamChatAuthorizationEntity, { stateHash: stateHash(state) });
      if (!found || found.expiresAt < now) throw invalidStateError();
      checkBrowser(found, sessionId);
      em.remove(found);
      return {
        organizationId: found.organization.id,
        language: found.language as Language,
        kinds: found.kinds,
        scope: found.scope as DestinationScope,
      };
    });
    const url = await checkDestinationUrl(incomingUrl.trim(), this.deps.webhooks.policy);
    const { destination } = await insertDestination(this.em, this.deps, {
      organizationId: pending.organizationId,
      format: 'team-chat',
      url: url.href,
      settings: { ...pending, name: 'Team-chat channel', description: '' },
      connectedVia: 'oauth',
    });
    return destination;
  }
}

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex');

/** A flow started from the pages finishes only in the browser session that started it. */
function checkBrowser(found: { sessionHash?: string | null }, sessionId: string | null): void {
  if (found.sessionHash && (sessionId === null || stateHash(sessionId) !== found.sessionHash)) {
    throw new DomainError(
      'invalid_state',
      'This connection was started in another browser or session; start it again from the administration pages in this browser',
    );
  }
}

const invalidStateError = () => new DomainError('invalid_state', 'This connection request is unknown or expired; start again');
