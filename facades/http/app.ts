import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer, ServerResponse, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import {
  coreOptions,
  createMailer,
  defaultPublicBaseUrl,
  OnceMarks,
  openCore,
  outboxLagSeconds,
  pingDatabase,
  SignInLimits,
  type Config,
  type Logger,
} from '../../core/index.ts';
import { createAccessLog } from '../../core/logger.ts';
import { traceRequest, tracingOn } from '../../core/telemetry.ts';
import { Contexts, schema } from '../../schema/index.ts';
import { createExplorer } from '../graphql/explorer.ts';
import { createInternalGraphql, GRAPHQL_PATH } from '../graphql/yoga.ts';
import { createIntegrations, INBOUND_PREFIX, INTEGRATIONS_PREFIX } from '../integrations/integrations.ts';
import { createMemberConnector } from '../mcp/member/member-connector.ts';
import { McpLimits } from '../mcp/public/mcp-limits.ts';
import { createPublicMcp, MCP_PATH } from '../mcp/public/public-mcp.ts';
import * as publicMcpDocuments from '../generated/mcp-public.ts';
import * as restDocuments from '../generated/rest.ts';
import { Operations } from '../operation-runner.ts';
import { ApiLimits } from '../rest/limits.ts';
import { openApiDocument } from '../rest/openapi.ts';
import { PageCache } from '../rest/page-cache.ts';
import { problem } from '../rest/problem.ts';
import { API_PREFIX, createRestApi } from '../rest/rest-api.ts';
import { Browser } from '../kit/browser.ts';
import { createWebPages } from '../web/web-pages.ts';
import { createPublicPages } from '../web/public/public-routes.ts';
import { createDelivery, createDispatcherApp } from './dispatcher-app.ts';
import { createReadiness } from './health.ts';
import { Metrics, requestFamily, restRouteLabel } from './metrics.ts';
import { createOpsRoutes } from './ops-routes.ts';
import type { App } from './app-parts.ts';
import { stopApp } from './shutdown.ts';
import { TrackedResponse } from './tracked-response.ts';

export type { App };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// Made once: a template in the dispatcher would build the string on every request.
const REST_SLASH = `${API_PREFIX}/`;
const REST_QUERY = `${API_PREFIX}?`;

export interface AppOptions {
  /**
   * In the `all` role, the dispatcher runs on a thread of its own while there is webhook work
   * (workers/dispatcher-thread.ts), rather than on this thread: `packline start` asks for it.
   * @default false
   */
  dispatcherThread?: boolean;
}

/**
 * Wires core, schema and facades into one HTTP server, with the webhook dispatcher in the `all`
 * role (config.role); the `dispatcher` role gets its own, smaller app.
 */
export async function createApp(config: Config, log: Logger, options: AppOptions = {}): Promise<App> {
  if (config.role === 'dispatcher') return createDispatcherApp(config, log);
  // This process serves the API: it records its address for the other processes, at once, or once
  // it listens when PORT=0 leaves the port to the system.
  const mailer = createMailer({ ...config.mail, log: log.child({ facade: 'mail' }) });
  const addressKnown = config.publicBaseUrlConfigured || config.port !== 0;
  const core = await openCore(coreOptions(config, { mailer, links: addressKnown ? 'serve' : 'fixed' }));
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, log) : undefined;
  const contexts = new Contexts(core, config.internalApiToken);
  const delivers = config.role === 'all';
  const metrics = new Metrics({
    outboxLag: () => outboxLagSeconds(core.db),
    ...(delivers ? { pool: () => delivery?.poolStats() } : {}),
    log,
  });
  const readiness = createReadiness({
    probes: { database: () => pingDatabase(core.db), ...(redis ? { redis: () => redis.ping() } : {}) },
    log,
  });
  const ops = createOpsRoutes({ readiness, metrics, isInternalToken: (token) => contexts.isInternalToken(token) });
  const apiLimits = new ApiLimits({
    perMinute: config.rateLimitPerMinute,
    redis,
    prefix: config.redisPrefix,
    usage: core.usage,
    onRefused: (kind) => metrics.refused({ facade: 'rest', kind }),
  });
  // Usage pages read the windows this limiter enforces.
  core.attachLimits(apiLimits);
  // With an https public address, browsers are told to come back over https only (docs/security.md).
  const hsts =
    config.http.hstsMaxAgeSeconds > 0 && new URL(config.publicBaseUrl).protocol === 'https:'
      ? `max-age=${config.http.hstsMaxAgeSeconds}`
      : undefined;
  // Public pages and REST answers show the same resources: one cache, retired by the same changes.
  const pageCache = new PageCache(core.feed);
  const rest = createRestApi({
    hsts,
    contexts,
    operations: Operations.generated(schema, restDocuments, { trustLeaves: true }),
    limits: apiLimits,
    cache: pageCache,
    openapi: openApiDocument(config.publicBaseUrl),
    onRoute: (res, route) => {
      (res as TrackedResponse).route = restRouteLabel(route);
    },
  });
  const delivery = delivers ? createDelivery(core, config, log, metrics, { thread: options.dispatcherThread === true }) : undefined;
  const integrations = createIntegrations({ contexts, config, log: log.child({ facade: 'integrations' }) });
  const browser = new Browser({ secret: config.dataEncryptionKey, publicBaseUrl: config.publicBaseUrl });
  const memberConnector = createMemberConnector({ contexts, config, browser, redis, log: log.child({ facade: 'mcp-member' }) });
  const signInLimits = new SignInLimits({ redis, prefix: config.redisPrefix });
  const onceMarks = new OnceMarks({ db: core.db, redis, prefix: config.redisPrefix });
  const explorer = createExplorer({
    contexts,
    browser,
    signInLimits,
    trustedProxies: config.trustedProxies,
    log: log.child({ facade: 'graphql' }),
  });
  const graphql = createInternalGraphql({
    schema,
    contexts,
    log: log.child({ facade: 'graphql' }),
    explorerAuthorizes: (req) => explorer.authorizes(req),
  });
  const webPages = createWebPages({ contexts, config, browser, signInLimits, onceMarks, log: log.child({ facade: 'web' }) });
  const publicPages = createPublicPages({ contexts, config, cache: pageCache });
  const memberFamily = (url: string) => memberConnector.handles(url) || webPages.handles(url);
  const publicMcp = createPublicMcp({
    contexts,
    operations: Operations.generated(schema, publicMcpDocuments, { trustLeaves: true }),
    feed: core.feed,
    limits: new McpLimits({
      perMinute: config.mcp.ratePerMinute,
      composePerHour: config.mcp.composePerHour,
      redis,
      prefix: config.redisPrefix,
      onRefused: (kind) => metrics.refused({ facade: 'mcp', kind }),
    }),
    log: log.child({ facade: 'mcp' }),
    allowedHosts: config.mcp.allowedHosts,
    trustedProxies: config.trustedProxies,
  });

  // Access lines carry no secret: no headers, no query string.
  const access = createAccessLog(log);
  function logRequest(this: TrackedResponse) {
    const req = this.req;
    const url = this.target;
    const q = url.indexOf('?');
    const elapsed = performance.now() - this.startedAt;
    const ms = Math.round(elapsed * 10) / 10;
    access({ requestId: this.requestId, method: req.method ?? '', path: q === -1 ? url : url.slice(0, q), status: this.statusCode, ms });
    metrics.request(this.route, this.statusCode, elapsed / 1000);
  }

  function fail(res: TrackedResponse, error: unknown) {
    const { requestId } = res;
    if (res.timedOut) return;
    log.error({ req_id: requestId, err: error }, 'request failed');
    if (res.headersSent) return res.destroy();
    const unavailable = isDatabaseDown(error);
    const body = problem(
      unavailable ? 'service_unavailable' : 'internal_error',
      unavailable ? 'A dependency is unreachable; retry shortly' : 'Unexpected error; quote the request id when reporting it',
      requestId,
    );
    res.writeHead(body.status, {
      'content-type': 'application/problem+json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
      ...(unavailable ? { 'retry-after': '5' } : {}),
    });
    res.end(JSON.stringify(body));
  }

  const headersTimeout = config.http.headersTimeoutSeconds * 1000;
  const server = createServer(
    {
      keepAliveTimeout: 65_000,
      // Deliberate deadlines (docs/security.md): a client that trickles its headers or body is
      // answered 408 and cut off. Node checks them every connectionsCheckingInterval.
      headersTimeout,
      requestTimeout: config.http.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, headersTimeout / 4)),
      ServerResponse: TrackedResponse,
    },
    (req, res) => {
      const incoming = req.headers['x-request-id'];
      const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.startedAt = performance.now();
      res.requestId = requestId;
      res.target = req.url ?? '/';
      // The family now; the REST facade refines it to the route it matches.
      res.route = requestFamily(res.target, memberFamily);
      // A response finishes once: a plain listener spares the wrapper `once` makes per request.
      res.on('finish', logRequest);
      let answering: void | Promise<void>;
      try {
        answering = tracingOn ? traceRequest(req, res, () => dispatch(req, res, requestId)) : dispatch(req, res, requestId);
      } catch (error) {
        return fail(res, error);
      }
      // Other facades may hand back any thenable (yoga's), as the awaiting dispatcher took before.
      if (answering !== undefined) Promise.resolve(answering).catch((error: unknown) => fail(res, error));
    },
  );

  // Requests Node refuses before they reach the handler (oversized headers, malformed lines,
  // deadlines): answered, then the socket is destroyed, as Node's own handler does, so no
  // half-open connection stays behind waiting for the client to close.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const pending = (socket as { _httpMessage?: unknown })._httpMessage;
    // Complete headers, then a body too slow for the request deadline: the handler is still
    // reading it. Its response answers 408 (so the access line and the metrics count it), then
    // the connection is closed. Every response of this server is a TrackedResponse, though
    // express re-prototypes the ones it handles.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && pending instanceof ServerResponse && !pending.headersSent && socket.writable) {
      return requestTimeout(pending as TrackedResponse, () => socket.destroy());
    }
    if (!socket.writable || pending) return socket.destroy();
    const [status, reason, title, detail] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers too large', 'The request line or headers exceed 16 KiB']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request too slow', 'The request was not received in time']
          : [400, 'Bad Request', 'Malformed request', 'The request could not be parsed as HTTP/1.1'];
    const requestId = randomUUID();
    const body = JSON.stringify({
      type: '/api/v1/problems/invalid_parameter',
      title,
      status,
      detail,
      code: 'invalid_parameter',
      request_id: requestId,
    });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/problem+json; charset=utf-8\r\nx-content-type-options: nosniff\r\n` +
        (hsts ? `strict-transport-security: ${hsts}\r\n` : '') +
        `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });

  function requestTimeout(res: TrackedResponse, close: () => void) {
    res.timedOut = true;
    const body = JSON.stringify({
      type: '/api/v1/problems/invalid_parameter',
      title: 'Request too slow',
      status: 408,
      detail: 'The request body was not received in time',
      code: 'invalid_parameter',
      request_id: res.requestId,
    });
    res.writeHead(408, {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
      'x-request-id': res.requestId,
      connection: 'close',
    });
    res.end(body, close);
  }

  /** Answers at once (REST calls served from memory) or returns the promise of the answer. */
  function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string): void | Promise<void> {
    const url = req.url ?? '/';
    // The REST facade writes its headers in one list (its hot path), HSTS among them.
    if (url === API_PREFIX || url.startsWith(REST_SLASH) || url.startsWith(REST_QUERY)) return rest(req, res, requestId);
    if (hsts) res.setHeader('strict-transport-security', hsts);
    if (url === GRAPHQL_PATH || url.startsWith(`${GRAPHQL_PATH}?`)) {
      res.setHeader('x-request-id', requestId);
      res.setHeader('x-content-type-options', 'nosniff');
      // A browser opening /graphql gets the explorer (or its sign-in); API clients, the API.
      if (explorer.wantsPage(req)) return explorer.page(req, res, requestId);
      return graphql(req, res);
    }
    if (explorer.handles(url)) return explorer.handle(req, res, requestId);
    if (url === MCP_PATH || url.startsWith(`${MCP_PATH}?`)) {
      res.setHeader('x-content-type-options', 'nosniff');
      return publicMcp(req, res, requestId);
    }
    if (url.startsWith(INBOUND_PREFIX)) return integrations.inbound(req, res, requestId);
    if (url.startsWith(INTEGRATIONS_PREFIX)) return integrations.pages(req, res, requestId);
    if (webPages.handles(url)) return webPages.handle(req, res, requestId);
    if (memberConnector.handles(url)) return memberConnector.handle(req, res, requestId);
    if (url === '/healthz') return json(res, 200, { status: 'ok' }, requestId);
    if (ops.handles(url)) return ops.handle(req, res, requestId);
    if (publicPages.handles(url)) return publicPages.handle(req, res, requestId);
    return json(res, 404, { error: 'not_found', detail: `Nothing at ${url.split('?', 1)[0]}` }, requestId);
  }

  return {
    core,
    delivery,
    contexts,
    server,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const address = server.address() as AddressInfo;
          // With PORT=0 the address is known only now (otherwise the same, and recorded already).
          const served = config.publicBaseUrlConfigured ? config.publicBaseUrl : defaultPublicBaseUrl(config.host, address.port);
          core.links.serve(served).then(() => {
            delivery?.start();
            resolve(address);
          }, reject);
        });
      }),
    close: () => stopApp({ server, readiness, delivery, core, redis }, config.shutdownGraceSeconds * 1000),
  };
}

function json(res: ServerResponse, status: number, body: unknown, requestId: string) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
  });
  res.end(payload);
}

/**
 * Redis for shared limits. Commands fail fast while it is down so the insurance limiter answers;
 * start-up waits briefly for the connection so the first requests already share the budget.
 */
async function connectRedis(url: string, log: Logger): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  let lastWarning = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    log.warn({ err: error.message }, 'redis unreachable: limits fall back to this process');
  });
  const ready = await Promise.race([
    once(redis, 'ready').then(
      () => true,
      () => false,
    ),
    delay(3_000, false, { ref: false }),
  ]);
  if (!ready) log.warn('redis not ready: limits use this process until it is');
  return redis;
}

function isDatabaseDown(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isDatabaseDown);
  const name = (error as { name?: string } | null)?.name ?? '';
  const code = (error as { code?: string } | null)?.code ?? '';
  return name === 'ConnectionException' || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', 'SQLITE_BUSY'].includes(code);
}
