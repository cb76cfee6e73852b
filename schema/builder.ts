import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, Kind } from 'graphql';
import type { ApiScope } from '../core/entities/index.ts';
import { DomainError } from '../core/errors.ts';
import { isoString } from '../core/iso-time.ts';
import type { Context } from './context.ts';

export const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: {
    /** Internal teams and the admin CLI. */
    internal: boolean;
    /** An API key holding this scope. */
    apiScope: ApiScope;
    /** An assistant acting for a member through the member connector (abilities are checked by the services). */
    assistant: boolean;
    /** The member in person, signed in in a browser (consent and account pages). */
    memberSession: boolean;
    /** Anyone, without an account: the public assistant connector. */
    public: boolean;
  };
  Scalars: { DateTime: { Input: Date; Output: Date } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => ({
      internal: ctx.actor.kind === 'internal',
      apiScope: (scope) => ctx.actor.kind === 'apiKey' && ctx.actor.scopes.includes(scope),
      assistant: ctx.actor.kind === 'member',
      memberSession: ctx.actor.kind === 'memberSession',
      public: ctx.actor.kind === 'public',
    }),
    unauthorizedError: (_parent, _ctx, info) =>
      new DomainError('forbidden', `Not allowed to read ${info.parentType.name}.${info.fieldName}`),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 UTC timestamp with milliseconds: 2026-11-22T10:00:00.000Z',
  serialize: (value) => isoString(value as Date),
  parseValue: (value) => parseDateTime(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return parseDateTime(ast.value);
  },
});

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

function parseDateTime(value: unknown): Date {
  if (typeof value !== 'string' || !ISO_8601.test(value)) {
    throw new GraphQLError('DateTime must be an ISO 8601 date or date-time with a time zone, such as 2026-11-22T10:00:00Z');
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new GraphQLError(`'${value}' is not a valid date`);
  return date;
}

/**
 * Organization administration: internal callers, or a member signed in in person; the services
 * check that member is an admin of the organization concerned.
 */
export const ORGANIZATION_ADMIN = { internal: true, memberSession: true } as const;

builder.queryType({});
builder.mutationType({});

export type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
/** The field builder of input types, for helpers that share fields between inputs. */
export type InputFields = PothosSchemaTypes.InputFieldBuilder<SchemaTypes, 'InputObject'>;
