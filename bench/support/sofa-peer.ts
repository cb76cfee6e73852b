// The SOFA peer: the REST facade's five read endpoints as @graphql-yoga/plugin-sofa exposes them,
// over the same schema, the same context factory and the same key authenticator as Packline.
import { useSofa } from '@graphql-yoga/plugin-sofa';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, maskError } from 'graphql-yoga';
import { DomainError } from '../../core/index.ts';
import type { ApiLimits } from '../../facades/rest/limits.ts';
import { REST_OPERATIONS } from '../../facades/rest/rest-documents.ts';
import { PROBLEMS, problemCodeOf } from '../../facades/rest/problem.ts';
import { schema, type Context, type Contexts } from '../../schema/index.ts';
import { narrowSchema, nestedObjectFields, selectionOf } from './sofa-peer-schema.ts';

/** Where the peer's routes live, as Packline's. */
export const PEER_PREFIX = '/api/v1';

/**
 * The peer's routes, named after Packline's. SOFA takes its arguments under their GraphQL names
 * (`first`, `after`, `id`) where the REST facade says `limit` and `cursor`; the organization is
 * addressed by id, where the REST facade takes it from the key.
 */
const ROUTES = {
  'Query.organization': { path: '/organization/:id' },
  'Query.opportunities': { path: '/opportunities' },
  'Query.opportunity': { path: '/opportunities/:id' },
  'Query.events': { path: '/events' },
  'Query.event': { path: '/events/:id' },
} as const;

/** The schema the peer serves: Packline's, narrowed to what the REST operations select. */
export function peerSchema(): GraphQLSchema {
  return narrowSchema(schema, selectionOf(schema, REST_OPERATIONS));
}

export interface SofaPeerOptions {
  contexts: Contexts;
  /** Packline's per-key rate limit and monthly quota; none when absent. */
  limits?: ApiLimits;
}

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

/** A refusal SOFA answers with the given status (its error handler reads `extensions.http`). */
const refusal = (status: number, code: string, message: string) => new GraphQLError(message, { extensions: { code, http: { status } } });

/**
 * A graphql-yoga server whose only routes are SOFA's GET endpoints. Each request: the bearer key
 * through Packline's key authenticator (cache first, as the REST facade), then the per-key rate
 * limit and the organization's quota when `limits` is given, then the route's generated operation
 * with a context made by `Contexts.forApiKey`, so the schema checks the scope.
 */
export function createSofaPeer({ contexts, limits }: SofaPeerOptions) {
  const surface = peerSchema();
  return createYoga<Record<string, unknown>, Context>({
    schema: surface,
    graphiql: false,
    landingPage: false,
    maskedErrors: {
      maskError(error, message, isDev) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original instanceof DomainError) {
          const code = problemCodeOf(original.code);
          return new GraphQLError(original.message, { extensions: { code, http: { status: PROBLEMS[code].status } } });
        }
        return maskError(error, message, isDev);
      },
    },
    async context({ request }) {
      const key = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
      const grant = key === undefined ? null : (contexts.cachedApiKey(key) ?? (await contexts.apiKey(key)));
      if (!grant) throw refusal(401, 'invalid_key', 'Send a valid, unexpired API key as Authorization: Bearer <key>');
      if (limits) {
        const rate = await limits.consumeRate(grant.keyId);
        if (!rate.allowed) throw refusal(429, 'rate_limited', `More than ${rate.window.limit} requests this minute with this key`);
        const quota = await limits.consumeQuota(grant.organizationId, grant.plan);
        if (!quota.allowed) throw refusal(429, 'quota_exceeded', `The organization's ${quota.window.limit} calls for this month are spent`);
      }
      return contexts.forApiKey(grant);
    },
    plugins: [useSofa({ basePath: PEER_PREFIX, routes: ROUTES, ignore: nestedObjectFields(surface) })],
  });
}
