import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  CustomOAuthError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
  type OAuthError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ASSISTANT_SCOPES, type DomainError, INTERNAL } from '../../../core/index.ts';
import type { Contexts } from '../../../schema/index.ts';
import type { VariablesOf } from '@graphql-typed-document-node/core';
import type { MemberApplicationFragment as Application, MemberTokensFragment as Tokens } from '../../generated/mcp-member.ts';
import type { Operations } from '../../operation-runner.ts';
import type { MemberOperations } from './member-documents.ts';
import { consentAddress, type PendingConsent } from '../../kit/consent-handoff.ts';
import type { Browser } from '../../kit/browser.ts';

export interface MemberOAuthProviderOptions {
  contexts: Contexts;
  /** Built from the generated documents of facades/generated/mcp-member.ts. */
  operations: Operations<MemberOperations>;
  browser: Browser;
  /** The member connector's canonical address: the only resource tokens are issued for. */
  resource: string;
}

/**
 * The SDK's OAuthServerProvider over named GraphQL operations. PKCE is checked by the core when
 * the code is claimed (one atomic step: a wrong verifier burns the code), hence
 * `skipLocalPkceValidation`; S256 is the only method the SDK's authorize handler accepts.
 */
export class MemberOAuthProvider implements OAuthServerProvider {
  readonly skipLocalPkceValidation = true;
  readonly clientsStore: OAuthRegisteredClientsStore;

  private readonly options: MemberOAuthProviderOptions;

  constructor(options: MemberOAuthProviderOptions) {
    this.options = options;
    this.clientsStore = {
      getClient: (clientId) => this.getClient(clientId),
      registerClient: (client) => this.registerClient(client),
    };
  }

  private run<N extends keyof MemberOperations & string>(operation: N, variables: VariablesOf<MemberOperations[N]>) {
    return this.options.operations.run(operation, variables, this.options.contexts.forActor(INTERNAL));
  }

  private async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (!/^cli_[a-z0-9]{14}$/.test(clientId)) return undefined;
    const outcome = await this.run('OAuthApplication', { id: clientId });
    if (!outcome.ok) {
      if (outcome.error.code === 'not_found') return undefined;
      throw outcome.error;
    }
    return clientInformation(outcome.data.assistantApplication);
  }

  /** Every application becomes a public client (no secret to keep), whatever it asked for (RFC 7591 §3.2.1). */
  private async registerClient(
    client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>,
  ): Promise<OAuthClientInformationFull> {
    const outcome = await this.run('OAuthRegisterApplication', {
      input: { name: client.client_name ?? null, redirectUris: client.redirect_uris },
    });
    if (!outcome.ok) {
      if (outcome.error.field === 'redirect_uris') throw new CustomOAuthError('invalid_redirect_uri', outcome.error.message);
      throw new CustomOAuthError('invalid_client_metadata', outcome.error.message);
    }
    return clientInformation(outcome.data.registerAssistantApplication);
  }

  /** Checks what can be checked before the member is asked, then hands over to the consent page. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const resource = params.resource?.href ?? this.options.resource;
    if (comparable(resource) !== comparable(this.options.resource))
      throw new InvalidTargetError(
        `The application asked to use another service than Packline's member connector (resource must be ${this.options.resource}).`,
      );
    const scopes = (params.scopes ?? []).filter((s) => s !== '');
    const unknown = scopes.find((s) => !(ASSISTANT_SCOPES as readonly string[]).includes(s));
    if (unknown !== undefined)
      throw new InvalidScopeError(
        `The application asked for an ability Packline does not have ('${unknown.slice(0, 60)}'; known: ${ASSISTANT_SCOPES.join(' ')}).`,
      );
    const pending: PendingConsent = {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      scopes,
      codeChallenge: params.codeChallenge,
      ...(params.state !== undefined ? { state: params.state } : {}),
      resource: this.options.resource,
    };
    res.redirect(302, consentAddress(this.options.browser, pending));
  }

  async challengeForAuthorizationCode(): Promise<string> {
    throw new InvalidGrantError('PKCE is verified when the code is exchanged');
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    if (!codeVerifier) throw new InvalidRequestError('code_verifier is required');
    const outcome = await this.run('OAuthExchangeCode', {
      input: { clientId: client.client_id, code, codeVerifier, redirectUri: redirectUri ?? null, resource: resource?.href ?? null },
    });
    if (!outcome.ok) throw oauthError(outcome.error);
    return tokenResponse(outcome.data.exchangeAssistantCode);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const outcome = await this.run('OAuthRefresh', {
      input: { clientId: client.client_id, refreshToken, scopes: scopes ?? null, resource: resource?.href ?? null },
    });
    if (!outcome.ok) throw oauthError(outcome.error);
    return tokenResponse(outcome.data.refreshAssistantTokens);
  }

  /** Looked up on every request, never cached: a revocation refuses the very next call. */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const check = await this.options.contexts.assistantToken(token);
    if (!check.ok) {
      throw new InvalidTokenError(
        check.reason === 'expired'
          ? 'The access token has expired'
          : check.reason === 'ended'
            ? 'This access has ended'
            : 'Unknown access token',
      );
    }
    const { grant } = check;
    return {
      token,
      clientId: grant.clientId,
      scopes: [...grant.scopes],
      expiresAt: Math.floor(grant.expiresAt / 1000),
      resource: new URL(this.options.resource),
      extra: { memberId: grant.memberId, grantId: grant.grantId },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const outcome = await this.run('OAuthRevokeToken', { clientId: client.client_id, token: request.token });
    if (!outcome.ok) throw oauthError(outcome.error);
  }
}

const comparable = (value: string) => value.split('#', 1)[0]!.replace(/\/$/, '');

function clientInformation(app: Application): OAuthClientInformationFull {
  return {
    client_id: app.id,
    client_id_issued_at: Math.floor(Date.parse(app.createdAt) / 1000),
    client_name: app.name,
    redirect_uris: app.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: ASSISTANT_SCOPES.join(' '),
  };
}

function tokenResponse(tokens: Tokens): OAuthTokens {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: tokens.scope,
  };
}

/** The core's failures in OAuth's words (RFC 6749 §5.2, RFC 8707 §2). */
function oauthError(error: DomainError): OAuthError {
  if (error.field === 'resource') return new InvalidTargetError(error.message);
  if (error.field === 'scope') return new InvalidScopeError(error.message);
  if (error.code === 'invalid_state' || error.code === 'not_found' || error.code === 'forbidden')
    return new InvalidGrantError(error.message);
  if (error.code === 'invalid_input') return new InvalidRequestError(error.message);
  throw error;
}
