import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthenticatedKey } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import type { Operations } from '../operation-runner.ts';
import type { RestOperationName, RestOperations } from './rest-documents.ts';
import { createApiDocs, DOCS_PATH } from './docs.ts';
import type { ApiLimits } from './limits.ts';
import { etagOf, type CachedPage, type PageCache } from './page-cache.ts';
import { PROBLEMS, problemCodeOf, type ProblemCode } from './problem.ts';
import { andThen, type MaybePromise } from './maybe-promise.ts';
import { Reply } from './reply.ts';
import { ParameterError, ifNoneMatch, type OperationCall, type Route, type TypedCall } from './route.ts';
import { eventRoute, eventsRoute } from './routes/events.route.ts';
import { opportunitiesRoute, opportunityRoute } from './routes/opportunities.route.ts';
import { organizationRoute } from './routes/organization.route.ts';

export const API_PREFIX = '/api/v1';
const DOCS_SLASH = `${DOCS_PATH}/`;
export const ROUTES: readonly Route[] = [organizationRoute, opportunitiesRoute, opportunityRoute, eventsRoute, eventRoute];

export interface RestApiOptions {
  contexts: Contexts;
  /** Built from the generated documents of facades/generated/rest.ts. */
  operations: Operations<RestOperations>;
  limits: ApiLimits;
  cache: PageCache;
  /** The OpenAPI document, served without authentication. */
  openapi: object;
  /** Told which route a request matched, before any check (metrics label it by route). */
  onRoute?: (res: ServerResponse, route: Route) => void;
  /** Strict-Transport-Security value sent with every answer; none when absent. */
  hsts?: string | undefined;
}

interface Matcher {
  route: Route;
  regex: RegExp;
}

interface MatchedRoute {
  route: Route;
  rawId: string | undefined;
}

/**
 * The public REST API: parse, authorize, meter, run the route's named operation, answer.
 * Order of checks (docs/design.md#order-of-checks): key (401) → rate (429) → scope (403) → quota (429) → handler.
 */
export function createRestApi({ contexts, operations, limits, cache, openapi, onRoute, hsts }: RestApiOptions) {
  const matchers: Matcher[] = ROUTES.map((route) => ({
    route,
    regex: new RegExp(`^${route.path.replace('{id}', '([^/]*)')}$`),
  }));
  const openapiBody = Buffer.from(JSON.stringify(openapi));
  const docs = createApiDocs({ prefix: API_PREFIX });

  return function handle(req: IncomingMessage, res: ServerResponse, requestId: string): MaybePromise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(API_PREFIX.length) || '/';
    const reply = new Reply(res, requestId, hsts);

    if (req.method !== 'GET')
      return reply.header('allow', 'GET').problem('method_not_allowed', `${req.method} is not allowed: this API is read-only`);
    if (path === '/openapi.json') return reply.send(200, openapiBody, { cacheControl: 'public, max-age=300' });
    if (path === DOCS_PATH || path.startsWith(DOCS_SLASH)) return docs(req, reply, path);
    if (path.startsWith('/problems/')) return problemPage(reply, path.slice('/problems/'.length));
    if (req.headers.origin !== undefined) {
      return reply.problem(
        'browser_origin_forbidden',
        'API keys must never be used from browser or mobile code; call this API from a server',
      );
    }
    const found = matchRoute(matchers, path);
    if (!found) return reply.problem('not_found', `No endpoint at ${API_PREFIX}${path}`);
    onRoute?.(res, found.route);

    // Each step answers at once when it can (a cached key, limits in memory, a cached page), so
    // the usual call runs to its answer without a promise.
    const key = bearer(req.headers.authorization);
    const grant = key === undefined ? null : (contexts.cachedApiKey(key) ?? contexts.apiKey(key));
    const query = q === -1 ? '' : url.slice(q + 1);
    const conditional = req.headers['if-none-match'];
    return andThen(grant, (grant) => {
      if (!grant) return invalidKey(reply);
      return andThen(metered(grant, found, reply, query, conditional), () =>
        limits.answered(grant.organizationId, grant.keyId, res.statusCode),
      );
    });
  };

  /**
   * Rate (429) → scope (403) → quota (429) → the route. A conditional request is metered like
   * any other: whether the data changed is only known once the route ran (docs/architecture.md#conditional-requests).
   */
  function metered(
    grant: AuthenticatedKey,
    found: MatchedRoute,
    reply: Reply,
    query: string,
    conditional: string | undefined,
  ): MaybePromise<void> {
    return andThen(limits.consumeRate(grant.keyId), (rate) => {
      reply.rate(rate.window);
      if (!rate.allowed) {
        return andThen(limits.peekQuota(grant.organizationId, grant.plan), (quota) =>
          reply
            .quota(quota)
            .header('retry-after', rate.retryAfter)
            .problem('rate_limited', `More than ${rate.window.limit} requests this minute with this key`),
        );
      }
      const { route } = found;
      if (!grant.scopes.includes(route.scope)) {
        return andThen(limits.peekQuota(grant.organizationId, grant.plan), (quota) =>
          reply.quota(quota).problem('missing_scope', `This key lacks the scope ${route.scope}`),
        );
      }
      return andThen(limits.consumeQuota(grant.organizationId, grant.plan), (quota) => {
        reply.quota(quota.window);
        if (!quota.allowed) {
          return reply
            .header('retry-after', quota.retryAfter)
            .problem('quota_exceeded', `The organization's ${quota.window.limit} calls for this month are spent`);
        }
        return answer(grant, found, reply, query, conditional);
      });
    });
  }

  function answer(
    grant: AuthenticatedKey,
    { route, rawId }: MatchedRoute,
    reply: Reply,
    query: string,
    conditional: string | undefined,
  ): MaybePromise<void> {
    let call: OperationCall;
    try {
      const id = rawId === undefined ? undefined : decodePathId(rawId);
      call = route.call({ query, id, grant });
    } catch (error) {
      if (error instanceof ParameterError) return reply.problem(error.code, error.message, error.parameter);
      throw error;
    }
    const cacheKey = `${call.operation}\u0000${JSON.stringify(call.variables)}`;
    const page = cache.peek(cacheKey) ?? cache.compute(cacheKey, () => runOperation(call, grant));
    return andThen(page, (page) => {
      if (page.status === 200) {
        if (ifNoneMatch(conditional, page.etag)) return reply.notModified(page.etag);
        return reply.header('etag', page.etag).send(200, page.body);
      }
      const cached = JSON.parse(page.body.toString()) as { code: ProblemCode; detail: string; parameter?: string };
      return reply.problem(
        cached.code,
        cached.detail,
        cached.code === 'not_found' ? undefined : (cached.parameter ?? parameterOf(cached.code)),
      );
    });
  }

  async function runOperation<N extends RestOperationName>(call: TypedCall<N>, grant: AuthenticatedKey): Promise<CachedPage> {
    const outcome = await operations.run(call.operation, call.variables, contexts.forApiKey(grant));
    if (outcome.ok) {
      const body = Buffer.from(JSON.stringify(call.render(outcome.data)));
      return { status: 200, body, etag: etagOf(body), tags: call.tags(outcome.data) };
    }
    const code = problemCodeOf(outcome.error.code);
    if (code === 'internal_error') throw outcome.error;
    // Problem bodies are cached without the request id, which is filled in per answer.
    const body = Buffer.from(JSON.stringify({ code, detail: outcome.error.message, parameter: outcome.error.field }));
    return { status: PROBLEMS[code].status, body, etag: '', tags: call.tags(undefined) };
  }

  function problemPage(reply: Reply, code: string) {
    if (!Object.hasOwn(PROBLEMS, code)) return reply.problem('not_found', `No problem type '${code}'`);
    return reply.send(200, Buffer.from(JSON.stringify({ code, ...PROBLEMS[code as ProblemCode] })), {
      cacheControl: 'public, max-age=86400',
    });
  }
}

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;
const bearer = (header: string | undefined) => (header ? BEARER.exec(header)?.[1] : undefined);

function matchRoute(matchers: Matcher[], path: string): MatchedRoute | undefined {
  for (const { route, regex } of matchers) {
    const match = regex.exec(path);
    if (match) return { route, rawId: match[1] };
  }
  return undefined;
}

function decodePathId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ParameterError('invalid_parameter', 'id', 'id is not a valid percent-encoded string');
  }
}

const invalidKey = (reply: Reply) =>
  reply
    .header('www-authenticate', 'Bearer error="invalid_token"')
    .problem('invalid_key', 'Send a valid, unexpired API key as Authorization: Bearer <key>');

const parameterOf = (code: ProblemCode) => (code === 'invalid_cursor' ? 'cursor' : undefined);
