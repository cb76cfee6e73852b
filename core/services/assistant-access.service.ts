import type { EntityManager } from '@mikro-orm/sql';
import { hashSecret, isWellFormedSecret, newSecret, pkceMatches } from '../access-secrets.ts';
import { requireInternal, requireMemberSession, type Actor } from '../actor.ts';
import {
  ASSISTANT_SCOPES,
  AssistantClientEntity,
  AssistantGrantEntity,
  AssistantTokenEntity,
  AuthorizationCodeEntity,
  MemberEntity,
  UNUSED_CLIENT_DAYS,
  type AssistantClient,
  type AssistantGrant,
  type AssistantScope,
  type GrantEndReason,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import * as v from '../validate.ts';
import { memberConnectorUrl, type MemberAccessPolicy } from '../service-kit/member-access-policy.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export interface AssistantApplicationView {
  id: string;
  name: string;
  redirectUris: string[];
  createdAt: Date;
}

/** What the member approved on the consent page. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** Empty: every ability. */
  scopes: string[];
  codeChallenge: string;
  /** RFC 8707; the canonical address of the member connector when absent. */
  resource?: string | null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds. */
  expiresIn: number;
  scopes: AssistantScope[];
  grantId: string;
}

// OAuth failures, in the core's own vocabulary: the member connector maps `invalid_state` to
// invalid_grant, field `resource` to invalid_target and field `scope` to invalid_scope.
const grantError = (message: string, field = 'grant') => new DomainError('invalid_state', message, field);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The member connector's authorization server: application registration, consent into
 * single-use codes, code and refresh exchanges with rotation, and token revocation.
 */
export class AssistantAccessService {
  private readonly resource: string;

  private readonly em: EntityManager;
  private readonly policy: MemberAccessPolicy;

  constructor(em: EntityManager, deps: ServiceDeps, policy: MemberAccessPolicy) {
    this.em = em;
    this.policy = policy;
    this.resource = memberConnectorUrl(deps.links.publicBaseUrl);
  }

  /** Dynamic client registration (RFC 7591). Every application is a public client: PKCE, no secret. */
  async registerApplication(actor: Actor, input: { name?: string | null; redirectUris: string[] }): Promise<AssistantApplicationView> {
    requireInternal(actor, 'register applications');
    const name = v.optionalText('client_name', input.name, 200) ?? 'Unnamed application';
    if (input.redirectUris.length < 1 || input.redirectUris.length > 5)
      throw invalidInput('redirect_uris', 'redirect_uris takes 1 to 5 addresses');
    const redirectUris = input.redirectUris.map(checkRedirectUri);
    const now = new Date();
    // Registrations nobody used in time are deleted as new ones come: the table stays bounded by
    // the registration limit over UNUSED_CLIENT_DAYS.
    await this.em.nativeDelete(AssistantClientEntity, { lastUsedAt: null, createdAt: { $lt: unusedSince(now) } });
    const client = this.em.create(AssistantClientEntity, {
      id: newId('assistantClient'),
      name,
      redirectUris,
      createdAt: now,
      lastUsedAt: null,
    });
    await this.em.flush();
    return applicationView(client);
  }

  async application(actor: Actor, id: string): Promise<AssistantApplicationView> {
    if (actor.kind !== 'memberSession') requireInternal(actor, 'read applications');
    return applicationView(await this.client(id, new Date()));
  }

  /** A registered application that has not expired: one no member used within UNUSED_CLIENT_DAYS of its registration has. */
  private async client(id: string, now: Date): Promise<AssistantClient> {
    const client = await this.em.findOne(AssistantClientEntity, { id });
    if (!client || (client.lastUsedAt === null && client.createdAt < unusedSince(now))) throw notFound('application', id);
    return client;
  }

  /** The member accepted: a code valid once, for `authorizationCodeTtlSeconds`, bound to the PKCE challenge. */
  async authorize(actor: Actor, request: AuthorizationRequest): Promise<{ code: string; expiresAt: Date }> {
    requireMemberSession(actor, 'approve applications');
    const now = new Date();
    const client = await this.client(request.clientId, now);
    if (!client.redirectUris.some((registered) => redirectMatches(request.redirectUri, registered))) {
      throw invalidInput('redirect_uri', 'redirect_uri is not registered for this application');
    }
    if (!CHALLENGE.test(request.codeChallenge))
      throw invalidInput('code_challenge', 'code_challenge must be an S256 challenge (43 base64url characters)');
    const scopes = checkScopes(request.scopes);
    const resource = this.checkResource(request.resource);
    const member = await this.em.findOne(MemberEntity, { id: actor.memberId });
    if (!member) throw notFound('member', actor.memberId);
    const code = newSecret('authorizationCode');
    client.lastUsedAt = now;
    const expiresAt = new Date(now.getTime() + this.policy.authorizationCodeTtlSeconds * 1000);
    this.em.create(AuthorizationCodeEntity, {
      codeHash: hashSecret(code),
      client,
      member,
      scopes,
      codeChallenge: request.codeChallenge,
      redirectUri: request.redirectUri,
      resource,
      credentialsEpoch: member.credentialsEpoch,
      expiresAt,
      usedAt: null,
      grantId: null,
      createdAt: now,
    });
    await this.em.flush();
    return { code, expiresAt };
  }

  /**
   * Trades a code for tokens. The code is claimed before anything else is checked, so a failed
   * attempt burns it too; a second use ends the grant the first one opened (OAuth 2.1 §4.1.3).
   */
  async exchangeCode(
    actor: Actor,
    input: { clientId: string; code: string; codeVerifier: string; redirectUri?: string | null; resource?: string | null },
  ): Promise<IssuedTokens> {
    requireInternal(actor, 'exchange authorization codes');
    if (input.resource != null) this.checkResource(input.resource);
    if (!isWellFormedSecret('authorizationCode', input.code)) throw grantError('Unknown authorization code');
    const codeHash = hashSecret(input.code);
    const code = await this.em.findOne(AuthorizationCodeEntity, { codeHash }, { populate: ['member', 'client'] });
    if (!code || code.client.id !== input.clientId) throw grantError('Unknown authorization code');
    const now = new Date();
    const claimed = await this.em.nativeUpdate(AuthorizationCodeEntity, { codeHash, usedAt: null }, { usedAt: now });
    if (claimed === 0) {
      if (code.grantId) await this.endGrant(code.grantId, 'code_replayed', now);
      throw grantError('The authorization code was already used; the access it opened has been ended');
    }
    if (code.expiresAt.getTime() <= now.getTime()) throw grantError('The authorization code has expired');
    if (!pkceMatches(input.codeVerifier, code.codeChallenge)) throw grantError('code_verifier does not match the code challenge');
    if (input.redirectUri != null && input.redirectUri !== code.redirectUri)
      throw grantError('redirect_uri differs from the one of the authorization request');
    if (code.credentialsEpoch !== code.member.credentialsEpoch)
      throw grantError('The member signed out everywhere or changed password since approving');

    return this.em.transactional(async (em) => {
      const memberId = code.member.id;
      const clientId = code.client.id;
      // One grant per member and application: approving again updates its abilities.
      let grant = await em.findOne(
        AssistantGrantEntity,
        { member: memberId, client: clientId, revokedAt: null, credentialsEpoch: code.credentialsEpoch },
        { orderBy: { createdAt: 'desc' } },
      );
      if (grant) grant.scopes = code.scopes;
      else {
        grant = em.create(AssistantGrantEntity, {
          id: newId('assistantGrant'),
          member: em.getReference(MemberEntity, memberId),
          client: em.getReference(AssistantClientEntity, clientId),
          scopes: code.scopes,
          credentialsEpoch: code.credentialsEpoch,
          createdAt: now,
          lastUsedAt: null,
          revokedAt: null,
          revokedReason: null,
        });
      }
      await em.nativeUpdate(AuthorizationCodeEntity, { codeHash }, { grantId: grant.id });
      await em.nativeUpdate(AssistantClientEntity, { id: clientId }, { lastUsedAt: now });
      return this.issue(em, grant, code.scopes, now);
    });
  }

  /** Rotates a refresh token: the old one is spent; presenting it again ends the grant. */
  async refresh(
    actor: Actor,
    input: { clientId: string; refreshToken: string; scopes?: string[] | null; resource?: string | null },
  ): Promise<IssuedTokens> {
    requireInternal(actor, 'refresh tokens');
    if (input.resource != null) this.checkResource(input.resource);
    if (!isWellFormedSecret('refreshToken', input.refreshToken)) throw grantError('Unknown refresh token');
    const hash = hashSecret(input.refreshToken);
    const token = await this.em.findOne(AssistantTokenEntity, { hash, kind: 'refresh' }, { populate: ['grant.member', 'grant.client'] });
    if (!token || token.grant.client.id !== input.clientId) throw grantError('Unknown refresh token');
    const now = new Date();
    if (token.revokedAt || !isActive(token.grant)) throw grantError('This access has ended; the member must approve the application again');
    // The request is checked before the token is spent: a refused refresh leaves it usable.
    let scopes = token.scopes;
    if (input.scopes != null && input.scopes.length > 0) {
      const asked = checkScopes(input.scopes);
      if (asked.some((s) => !token.scopes.includes(s)))
        throw invalidInput('scope', 'A refresh cannot add abilities the member did not approve');
      scopes = asked;
    }
    const claimed = await this.em.nativeUpdate(AssistantTokenEntity, { hash, usedAt: null }, { usedAt: now });
    if (claimed === 0) {
      await this.endGrant(token.grant.id, 'refresh_token_reused', now);
      throw grantError('The refresh token was already used; the access it belonged to has been ended');
    }
    if (token.expiresAt.getTime() <= now.getTime()) throw grantError('The refresh token has expired');
    return this.em.transactional(async (em) => {
      // Spent and expired secrets of this grant are no longer needed, reuse detection included.
      await em.nativeDelete(AssistantTokenEntity, { grant: token.grant.id, expiresAt: { $lt: now } });
      await em.nativeUpdate(AssistantClientEntity, { id: token.grant.client.id }, { lastUsedAt: now });
      return this.issue(em, em.getReference(AssistantGrantEntity, token.grant.id), scopes, now);
    });
  }

  /** RFC 7009: an access token ends alone; a refresh token ends its whole grant. Unknown tokens are ignored. */
  async revokeToken(actor: Actor, input: { clientId: string; token: string }): Promise<boolean> {
    requireInternal(actor, 'revoke tokens');
    const kind = isWellFormedSecret('accessToken', input.token)
      ? 'access'
      : isWellFormedSecret('refreshToken', input.token)
        ? 'refresh'
        : undefined;
    if (!kind) return false;
    const token = await this.em.findOne(AssistantTokenEntity, { hash: hashSecret(input.token), kind }, { populate: ['grant.client'] });
    if (!token || token.grant.client.id !== input.clientId) return false;
    const now = new Date();
    if (kind === 'refresh') await this.endGrant(token.grant.id, 'revoked', now);
    else await this.em.nativeUpdate(AssistantTokenEntity, { hash: token.hash }, { revokedAt: now });
    return true;
  }

  /** Ends a grant and every token of it, at once. */
  private async endGrant(grantId: string, reason: GrantEndReason, now: Date): Promise<void> {
    await this.em.nativeUpdate(AssistantGrantEntity, { id: grantId, revokedAt: null }, { revokedAt: now, revokedReason: reason });
  }

  private issue(em: EntityManager, grant: AssistantGrant, scopes: AssistantScope[], now: Date): IssuedTokens {
    const accessToken = newSecret('accessToken');
    const refreshToken = newSecret('refreshToken');
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    const row = { grant, scopes, usedAt: null, revokedAt: null, createdAt: now };
    em.create(AssistantTokenEntity, {
      ...row,
      hash: hashSecret(accessToken),
      kind: 'access',
      expiresAt: at(this.policy.accessTokenTtlSeconds),
    });
    em.create(AssistantTokenEntity, {
      ...row,
      hash: hashSecret(refreshToken),
      kind: 'refresh',
      expiresAt: at(this.policy.refreshTokenTtlSeconds),
    });
    return { accessToken, refreshToken, expiresIn: this.policy.accessTokenTtlSeconds, scopes, grantId: grant.id };
  }

  /** RFC 8707: only the member connector's canonical address (a missing value means it). */
  private checkResource(resource: string | null | undefined): string {
    if (resource == null || resource === '') return this.resource;
    const comparable = (value: string) => value.split('#', 1)[0]!.replace(/\/$/, '');
    if (comparable(resource) !== comparable(this.resource)) throw invalidInput('resource', `resource must be ${this.resource}`);
    return this.resource;
  }
}

/** Registered before this instant and never used: expired. */
const unusedSince = (now: Date) => new Date(now.getTime() - UNUSED_CLIENT_DAYS * 24 * 3600 * 1000);

export const isActive = (grant: Pick<AssistantGrant, 'revokedAt' | 'credentialsEpoch' | 'member'>) =>
  grant.revokedAt === null && grant.credentialsEpoch === grant.member.credentialsEpoch;

export const applicationView = (client: AssistantClient): AssistantApplicationView => ({
  id: client.id,
  name: client.name,
  redirectUris: [...client.redirectUris],
  createdAt: client.createdAt,
});

function checkScopes(requested: readonly string[]): AssistantScope[] {
  const asked = requested.filter((s) => s !== '');
  if (asked.length === 0) return [...ASSISTANT_SCOPES];
  const unknown = asked.find((s) => !(ASSISTANT_SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) throw invalidInput('scope', `Unknown scope '${unknown.slice(0, 60)}'; known: ${ASSISTANT_SCOPES.join(' ')}`);
  return ASSISTANT_SCOPES.filter((s) => asked.includes(s));
}

/** https, http on a loopback host (native apps, RFC 8252), or a private-use scheme such as com.example.app:. */
function checkRedirectUri(raw: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput('redirect_uris', `'${value.slice(0, 100)}' is not an absolute URL`);
  }
  if (value.length > 500) throw invalidInput('redirect_uris', 'each redirect URI must be at most 500 characters');
  if (url.hash !== '' || value.includes('#')) throw invalidInput('redirect_uris', 'redirect URIs must not have a fragment');
  if (url.username !== '' || url.password !== '') throw invalidInput('redirect_uris', 'redirect URIs must not carry credentials');
  const allowed =
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) || PRIVATE_USE_SCHEME.test(url.protocol);
  if (!allowed)
    throw invalidInput('redirect_uris', 'redirect URIs must be https, http on localhost, or an app scheme such as com.example.app:');
  return value;
}

/** Exact match, except the port of a loopback address (RFC 8252 §7.3), as the SDK's authorization handler does. */
export function redirectMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  try {
    const a = new URL(requested);
    const b = new URL(registered);
    return (
      LOOPBACK.has(a.hostname) &&
      LOOPBACK.has(b.hostname) &&
      a.protocol === b.protocol &&
      a.hostname === b.hostname &&
      a.pathname === b.pathname &&
      a.search === b.search
    );
  } catch {
    return false;
  }
}
