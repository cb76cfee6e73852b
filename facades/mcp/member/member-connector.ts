import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ASSISTANT_SCOPES,
  MEMBER_CONNECTOR_PATH,
  memberConnectorUrl,
  type AssistantScope,
  type AuthenticatedAssistant,
  type Config,
  type Logger,
} from '../../../core/index.ts';
import { schema, type Contexts } from '../../../schema/index.ts';
import * as memberDocuments from '../../generated/mcp-member.ts';
import { Operations } from '../../operation-runner.ts';
import { pagesServable, type Browser } from '../../kit/browser.ts';
import { createHostGuard } from '../host-guard.ts';
import { authorizationPages, packlineFailed, tooManyRequestsPage, wantsJson } from './authorization-request.ts';
import { createMemberServer } from './member-server.ts';
import { OAuthLimits } from './oauth-limits.ts';
import { MemberOAuthProvider } from './oauth-provider.ts';
import { registrationChecks, unreadableBody } from './registration-request.ts';

/** Every address the member connector answers; nothing else reaches its express app. */
const EXACT = new Set([
  '/.well-known/oauth-authorization-server',
  `/.well-known/oauth-protected-resource${MEMBER_CONNECTOR_PATH}`,
  '/authorize',
  '/token',
  '/register',
  '/revoke',
  MEMBER_CONNECTOR_PATH,
]);

export interface MemberConnector {
  /** True for the addresses of the member connector (OAuth endpoints and `/mcp/member`). */
  handles(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): void;
}

export interface MemberConnectorOptions {
  contexts: Contexts;
  config: Pick<Config, 'publicBaseUrl' | 'trustedProxies' | 'redisPrefix' | 'mcp'>;
  /** Seals the authorization request into the consent page's address (facades/web). */
  browser: Browser;
  /** Shares the OAuth endpoints' limits between instances; in this process when absent. */
  redis?: Redis | undefined;
  log: Logger;
}

/**
 * The member assistant connector (docs/design.md#member-connector-and-oauth): OAuth 2.1 with PKCE and dynamic client
 * registration through the MCP SDK's auth router, and `/mcp/member` behind the Host/Origin
 * guard of `/mcp`, then the SDK's bearer middleware. `/authorize` hands over to the consent page
 * of facades/web. Express hosts these routes only; the REST hot path never goes through it.
 */
export function createMemberConnector({ contexts, config, browser, redis, log }: MemberConnectorOptions): MemberConnector {
  const handles = (url: string) => {
    const q = url.indexOf('?');
    return EXACT.has(q === -1 ? url : url.slice(0, q));
  };
  const issuer = new URL(config.publicBaseUrl);
  if (!pagesServable(config.publicBaseUrl)) {
    // The SDK refuses a plain-http issuer elsewhere than on loopback: the connector stays off.
    log.warn({ public_base_url: config.publicBaseUrl }, 'member connector disabled: PUBLIC_BASE_URL must be https (or http on localhost)');
    return {
      handles,
      handle(_req, res, requestId) {
        res.writeHead(503, { 'content-type': 'application/json', 'x-request-id': requestId });
        res.end(
          JSON.stringify({ error: 'temporarily_unavailable', error_description: 'The member connector needs an https PUBLIC_BASE_URL' }),
        );
      },
    };
  }

  const resource = new URL(memberConnectorUrl(config.publicBaseUrl));
  const operations = Operations.generated(schema, memberDocuments);
  const provider = new MemberOAuthProvider({ contexts, operations, browser, resource: resource.href });
  const scopesSupported = [...ASSISTANT_SCOPES];
  const metadata = {
    ...createOAuthMetadata({ provider, issuerUrl: issuer, scopesSupported }),
    // Every registered application is a public client: PKCE, no secret (see MemberOAuthProvider).
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustedProxies);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('x-content-type-options', 'nosniff');
    next();
  });
  // Per client address (an IPv6 /64), shared through Redis; the SDK's own limiters are off.
  const limits = new OAuthLimits({ redis, prefix: config.redisPrefix, trustedProxies: config.trustedProxies });
  for (const endpoint of ['register', 'token', 'revoke'] as const) app.use(`/${endpoint}`, limits.middleware(endpoint));
  app.use('/authorize', limits.middleware('authorize', tooManyRequestsPage));
  app.get('/.well-known/oauth-authorization-server', (_req: Request, res: Response) => {
    res.set('access-control-allow-origin', '*').set('cache-control', 'public, max-age=3600').status(200).json(metadata);
  });
  app.use('/authorize', authorizationPages(provider.clientsStore, issuer));
  app.use('/register', registrationChecks());
  const unlimited = { rateLimit: false } as const;
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: issuer,
      resourceServerUrl: resource,
      scopesSupported,
      resourceName: 'Packline member connector',
      authorizationOptions: unlimited,
      tokenOptions: unlimited,
      clientRegistrationOptions: unlimited,
      revocationOptions: unlimited,
    }),
  );

  // DNS-rebinding protection, as on /mcp: another Host, or a foreign Origin, is refused before
  // the bearer token is even looked at.
  const guard = createHostGuard(config.mcp.allowedHosts);
  const hostGuard = (req: Request, res: Response, next: NextFunction) => {
    const refusal = guard(req);
    if (!refusal) return next();
    res.setHeader('cache-control', 'no-store');
    res.status(403).json({ jsonrpc: '2.0', error: { code: -32000, message: refusal }, id: null });
  };
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
    expectedResource: resource,
  });
  app.all(MEMBER_CONNECTOR_PATH, hostGuard, bearer, express.json({ limit: '256kb' }), async (req: Request, res: Response) => {
    res.setHeader('cache-control', 'no-store');
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return res.status(405).json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this connector is stateless and answers POST only' },
        id: null,
      });
    }
    // Set by the bearer middleware from MemberOAuthProvider.verifyAccessToken.
    const auth = req.auth!;
    const { memberId, grantId } = auth.extra as { memberId: string; grantId: string };
    const grant: AuthenticatedAssistant = {
      memberId,
      grantId,
      clientId: auth.clientId,
      scopes: auth.scopes as AssistantScope[],
      expiresAt: (auth.expiresAt ?? 0) * 1000,
    };
    const requestId = String(res.getHeader('x-request-id') ?? '');
    const server = createMemberServer({ operations, context: () => contexts.forAssistant(grant), requestId, log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: 'not_found', error_description: `Nothing at ${req.method} ${req.path}` });
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = String(res.getHeader('x-request-id') ?? '');
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Body parser refusals: too large, malformed; or a body cut off after the server already
      // answered (the request deadline's 408).
      if (res.headersSent) return res.destroy();
      return res.status(status).json({ error: 'invalid_request', error_description: unreadableBody(error) });
    }
    log.error({ req_id: requestId, err: error, path: req.path }, 'member connector request failed');
    if (res.headersSent) return res.destroy();
    if (req.path === '/authorize' && !wantsJson(req)) return packlineFailed(res);
    res.status(500).json({ error: 'server_error', error_description: `Unexpected error; quote request id ${requestId} when reporting it` });
  });

  return {
    handles,
    handle(req, res, requestId) {
      res.setHeader('x-request-id', requestId);
      app(req, res);
    },
  };
}
