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
    // `nodes` beside `edges`: the REST lists select it, one resolver call a page where
    // `edges { node }` ran one per item, with its resolve info and path (about 7 KB less a page).
    nodesOnConnection: { description: 'The items of this page, in the order of the list: the nodes of edges, without their cursors.' },
    nodesQueryOptions: false,
    // Every list pages forward only (keyset): `last` and `before` exist for relay clients and are refused.
    pageInfoTypeOptions: { description: 'Where a page of a list stands: whether more follows, and the cursors to ask for it.' },
    hasNextPageFieldOptions: { description: 'True when another page follows: ask for it with after: endCursor.' },
    hasPreviousPageFieldOptions: { description: 'Always false: lists page forward only.' },
    startCursorFieldOptions: { description: 'The cursor of the first item of this page; null on an empty page.' },
    endCursorFieldOptions: { description: 'Pass as after to read the next page; null on an empty page.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor, in the order of the list.' },
    pageInfoFieldOptions: { description: 'Whether another page follows, and the cursor to read it.' },
    cursorFieldOptions: { description: 'Opaque, tamper-evident position of this item: pass it as after to continue from here.' },
    nodeFieldOptions: { description: 'The item itself.' },
    firstArgOptions: { description: 'How many items to return: 1 to 50, 20 when omitted.' },
    afterArgOptions: { description: 'Return the items after this cursor (an endCursor or edge cursor of an earlier page).' },
    lastArgOptions: { description: 'Not supported: lists page forward only, so any value is refused with INVALID_INPUT.' },
    beforeArgOptions: { description: 'Not supported: lists page forward only, so any value is refused with INVALID_INPUT.' },
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

builder.queryType({
  description:
    'Reads. Each field states who may call it; internal callers (the internal token) may call all but the member-session and assistant ones.',
});
builder.mutationType({
  description: 'Changes. Those that change public content name the webhook signal they send, such as need.created.',
});

export type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
/** The field builder of input types, for helpers that share fields between inputs. */
export type InputFields = PothosSchemaTypes.InputFieldBuilder<SchemaTypes, 'InputObject'>;

/** An enum's values from their list in the core, each with its description (the record must name every value). */
export function describedValues<const T extends string>(values: readonly T[], descriptions: Record<T, string>) {
  return Object.fromEntries(values.map((value) => [value, { description: descriptions[value] }])) as Record<T, { description: string }>;
}
