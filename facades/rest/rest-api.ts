import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthenticatedKey } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import type { Operations } from '../operations.ts';
import type { ApiLimits, LimitWindow } from './limits.ts';
import type { PageCache, CachedPage } from './page-cache.ts';
import { PROBLEMS, problem, problemCodeOf, type ProblemCode } from './problem.ts';
import { ParameterError, type Route } from './route.ts';
import { eventRoute, eventsRoute } from './routes/events.route.ts';
import { opportunitiesRoute, opportunityRoute } from './routes/opportunities.route.ts';
import { organizationRoute } from './routes/organization.route.ts';

export const API_PREFIX = '/api/v1';
export const ROUTES: readonly Route[] = [organizationRoute, opportunitiesRoute, opportunityRoute, eventsRoute, eventRoute];

export interface RestApiOptions {
  contexts: Contexts;
  operations: Operations;
  limits: ApiLimits;
  cache: PageCache;
  /** The OpenAPI document, served without authentication. */
  openapi: object;
}

interface Matcher {
  route: Route;
  regex: RegExp;
}

type Headers = Record<string, string | number>;

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/**
 * The public REST API: parse, authorize, meter, run the route's named operation, answer.
 * Order of checks (DESIGN §3): key (401) → rate (429) → scope (403) → quota (429) → handler.
 */
export function createRestApi({ contexts, operations, limits, cache, openapi }: RestApiOptions) {
  const matchers: Matcher[] = ROUTES.map((route) => ({
    route,
    regex: new RegExp(`^${route.path.replace('{id}', '([^/]*)')}$`),
  }));
  const openapiBody = Buffer.from(JSON.stringify(openapi));

  return async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(API_PREFIX.length) || '/';
    const headers: Headers = { ...BASE_HEADERS, 'x-request-id': requestId };
    const fail = (code: ProblemCode, detail: string, extra: Headers = {}, parameter?: string) =>
      send(res, PROBLEMS[code].status, PROBLEM_TYPE, Buffer.from(JSON.stringify(problem(code, detail, requestId, parameter))), { ...headers, ...extra });

    if (req.method !== 'GET') return fail('method_not_allowed', `${req.method} is not allowed: this API is read-only`, { allow: 'GET' });
    if (path === '/openapi.json') return send(res, 200, JSON_TYPE, openapiBody, { ...headers, 'cache-control': 'public, max-age=300' });
    if (path.startsWith('/problems/')) {
      const code = path.slice('/problems/'.length);
      if (!Object.hasOwn(PROBLEMS, code)) return fail('not_found', `No problem type '${code}'`);
      return problemPage(code as ProblemCode, res, headers);
    }
    if (req.headers.origin !== undefined) {
      return fail('browser_origin_forbidden', 'API keys must never be used from browser or mobile code; call this API from a server');
    }

    const found = matchRoute(matchers, path);
    if (!found) return fail('not_found', `No endpoint at ${API_PREFIX}${path}`);
    const grant = await authenticate(req.headers.authorization);
    if (!grant) {
      return fail('invalid_key', 'Send a valid, unexpired API key as Authorization: Bearer <key>', {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }

    const rate = await limits.consumeRate(grant.keyId);
    rateHeaders(headers, rate.window);
    if (!rate.allowed) {
      quotaHeaders(headers, await limits.peekQuota(grant.organizationId, grant.plan));
      return fail('rate_limited', `More than ${rate.window.limit} requests this minute with this key`, { 'retry-after': rate.retryAfter });
    }
    const { route } = found;
    if (!grant.scopes.includes(route.scope)) {
      quotaHeaders(headers, await limits.peekQuota(grant.organizationId, grant.plan));
      return fail('missing_scope', `This key lacks the scope ${route.scope}`);
    }
    const quota = await limits.consumeQuota(grant.organizationId, grant.plan);
    quotaHeaders(headers, quota.window);
    if (!quota.allowed) {
      return fail('quota_exceeded', `The organization's ${quota.window.limit} calls for this month are spent`, { 'retry-after': quota.retryAfter });
    }

    let call;
    try {
      const id = found.rawId === undefined ? undefined : decodePathId(found.rawId);
      call = route.call({ query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), id, grant });
    } catch (error) {
      if (error instanceof ParameterError) return fail(error.code, error.message, {}, error.parameter);
      throw error;
    }
    const key = `${call.operation}\u0000${JSON.stringify(call.variables)}`;
    const page = await cache.get(key, async (): Promise<CachedPage> => {
      const outcome = await operations.run(call.operation, call.variables, contexts.forApiKey(grant));
      if (outcome.ok) return { status: 200, body: Buffer.from(JSON.stringify(call.render(outcome.data))) };
      const code = problemCodeOf(outcome.error.code);
      if (code === 'internal_error') throw outcome.error;
      // Problem bodies are cached without the request id, which is filled in per answer.
      return { status: PROBLEMS[code].status, body: Buffer.from(JSON.stringify({ code, detail: outcome.error.message, parameter: outcome.error.field })) };
    });
    if (page.status === 200) return send(res, 200, JSON_TYPE, page.body, headers);
    const cached = JSON.parse(page.body.toString()) as { code: ProblemCode; detail: string; parameter?: string };
    return fail(cached.code, cached.detail, {}, cached.code === 'not_found' ? undefined : (cached.parameter ?? parameterOf(cached.code)));
  };

  async function authenticate(header: string | undefined): Promise<AuthenticatedKey | null> {
    if (!header) return null;
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
    return match ? contexts.apiKey(match[1]!) : null;
  }

  function problemPage(code: ProblemCode, res: ServerResponse, headers: Headers) {
    return send(res, 200, JSON_TYPE, Buffer.from(JSON.stringify({ code, ...PROBLEMS[code] })), { ...headers, 'cache-control': 'public, max-age=86400' });
  }
}

function matchRoute(matchers: Matcher[], path: string): { route: Route; rawId: string | undefined } | undefined {
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

const parameterOf = (code: ProblemCode) => (code === 'invalid_cursor' ? 'cursor' : undefined);

function rateHeaders(headers: Headers, w: LimitWindow) {
  headers['x-ratelimit-limit'] = w.limit;
  headers['x-ratelimit-remaining'] = w.remaining;
  headers['x-ratelimit-reset'] = w.reset;
}

function quotaHeaders(headers: Headers, w: LimitWindow) {
  headers['x-monthly-quota-limit'] = w.limit;
  headers['x-monthly-quota-remaining'] = w.remaining;
  headers['x-monthly-quota-reset'] = w.reset;
}

function send(res: ServerResponse, status: number, type: string, body: Buffer, headers: Headers): void {
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': body.length });
  res.end(body);
}
