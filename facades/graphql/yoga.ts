import { GraphQLError } from 'graphql';
import { createYoga, maskError } from 'graphql-yoga';
import { DomainError, INTERNAL, type Logger } from '../../core/index.ts';
import { setRequestAttributes, tracingOn, withSpan } from '../../core/telemetry.ts';
import type { Context, Contexts } from '../../schema/index.ts';
import type { IncomingMessage } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { armorPlugins } from './armor.ts';
import { GRAPHQL_PATH } from './paths.ts';

export { GRAPHQL_PATH };

export interface InternalGraphqlOptions {
  schema: GraphQLSchema;
  contexts: Contexts;
  log: Logger;
  /**
   * Whether a request without an Authorization header comes from the explorer page of a browser
   * signed in with the internal token (`Explorer.authorizes`). Without it, only the bearer token opens.
   */
  explorerAuthorizes?: (req: IncomingMessage) => boolean;
}

/**
 * Internal GraphQL for internal teams: the whole schema behind the internal token (a bearer
 * header, or the explorer's session in a browser). Domain failures keep their message and get
 * `extensions.code`; anything else is masked.
 */
export function createInternalGraphql({ schema, contexts, log, explorerAuthorizes }: InternalGraphqlOptions) {
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: false,
    landingPage: false,
    logging: {
      debug: (...args) => log.debug({ yoga: args }, 'graphql'),
      info: (...args) => log.info({ yoga: args }, 'graphql'),
      warn: (...args) => log.warn({ yoga: args }, 'graphql'),
      error: (...args) => logError(log, args[0]),
    },
    maskedErrors: {
      maskError(error, message, isDev) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original instanceof DomainError) {
          const path = error instanceof GraphQLError ? error.path : undefined;
          return new GraphQLError(original.message, {
            path,
            extensions: { code: original.code.toUpperCase(), ...(original.field ? { field: original.field } : {}) },
          });
        }
        return maskError(error, message, isDev);
      },
    },
    context: () => contexts.forActor(INTERNAL),
    plugins: [
      // Shape limits (aliases, depth, tokens, cost) after the token check below has run.
      ...armorPlugins(),
      ...(tracingOn ? [traceOperations()] : []),
      {
        onRequest({ request, serverContext, endResponse, fetchAPI }) {
          const header = request.headers.get('authorization');
          const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
          if (token && contexts.isInternalToken(token)) return;
          const req = (serverContext as { req?: IncomingMessage }).req;
          if (header === null && req && explorerAuthorizes?.(req)) return;
          endResponse(
            new fetchAPI.Response(
              JSON.stringify({
                errors: [
                  { message: 'Send the internal API token as Authorization: Bearer <token>', extensions: { code: 'UNAUTHENTICATED' } },
                ],
              }),
              {
                status: 401,
                headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer' },
              },
            ),
          );
        },
      },
    ],
  });
}

/**
 * Yoga reports every error of an operation. A domain error is expected (a duplicate, a missing
 * id, a refused input): the caller reads its message and code, so the log keeps its code, field
 * and path at info, and never its message, which can name a person. Anything else is a defect:
 * logged at error with its stack (the caller saw only the masked message).
 */
function logError(log: Logger, error: unknown): void {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError) {
    const path = error instanceof GraphQLError && error.path ? error.path.join('.') : undefined;
    log.info(
      { code: original.code, ...(original.field ? { field: original.field } : {}), ...(path ? { graphql_path: path } : {}) },
      'graphql domain error',
    );
    return;
  }
  log.error({ err: error }, 'graphql error');
}

/** A span per executed operation (internal caller): its name and type, never its variables. */
function traceOperations() {
  return {
    onExecute({
      args,
      executeFn,
      setExecuteFn,
    }: {
      args: {
        operationName?: string | null;
        document: { definitions: readonly { kind: string; operation?: string; name?: { value: string } }[] };
      };
      executeFn: (a: never) => unknown;
      setExecuteFn: (fn: (a: never) => unknown) => void;
    }) {
      const definition = args.document.definitions.find(
        (d) => d.kind === 'OperationDefinition' && (!args.operationName || d.name?.value === args.operationName),
      );
      const name = args.operationName ?? definition?.name?.value ?? 'anonymous';
      const type = definition?.operation ?? 'query';
      setRequestAttributes({ 'packline.actor': 'internal' });
      setExecuteFn((a) =>
        withSpan(`graphql ${type} ${name}`, { 'graphql.operation.name': name, 'graphql.operation.type': type }, async () => executeFn(a)),
      );
    },
  };
}
