import {
  DEFAULT_PAGE_SIZE,
  MAX_ID_LENGTH,
  MAX_PAGE_SIZE,
  hasControlCharacters,
  type ApiScope,
  type AuthenticatedKey,
} from '../../core/index.ts';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type { RestOperationName, RestOperations } from './rest-documents.ts';
import type { ProblemCode } from './problem.ts';

export interface RouteInput {
  /** The raw query string, without `?`; parsed only by routes that take parameters. */
  query: string;
  /** Decoded path parameter of by-id routes. */
  id: string | undefined;
  grant: AuthenticatedKey;
}

/** What a route asks of the schema: one named operation, its variables and how to render its data, typed from its document. */
export interface TypedCall<N extends RestOperationName> {
  operation: N;
  variables: VariablesOf<RestOperations[N]>;
  render(data: ResultOf<RestOperations[N]>): unknown;
  /** What the answer shows, as change-feed tags; `data` is undefined for a 4xx answer (say, not found). */
  tags(data: ResultOf<RestOperations[N]> | undefined): readonly string[];
}

export type OperationCall = { [N in RestOperationName]: TypedCall<N> }[RestOperationName];

export interface Route {
  /** Path below /api/v1, e.g. `/opportunities/{id}`. */
  path: string;
  scope: ApiScope;
  call(input: RouteInput): OperationCall;
}

/** A bad query or path parameter (400). */
export class ParameterError extends Error {
  readonly code: Extract<ProblemCode, 'invalid_parameter' | 'invalid_cursor'>;
  readonly parameter: string;

  constructor(code: Extract<ProblemCode, 'invalid_parameter' | 'invalid_cursor'>, parameter: string, message: string) {
    super(message);
    this.code = code;
    this.parameter = parameter;
    this.name = 'ParameterError';
  }
}

const single = (query: URLSearchParams, name: string): string | undefined => {
  const values = query.getAll(name);
  if (values.length > 1)
    throw new ParameterError(name === 'cursor' ? 'invalid_cursor' : 'invalid_parameter', name, `${name} may be given once`);
  return values[0];
};

/** `limit` (1–50, default 20) and `cursor` of list routes. */
export function listParameters(raw: string): { first: number; after: string | null } {
  const query = new URLSearchParams(raw);
  const limit = single(query, 'limit');
  let first = DEFAULT_PAGE_SIZE;
  if (limit !== undefined) {
    if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_PAGE_SIZE) {
      throw new ParameterError('invalid_parameter', 'limit', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    first = Number(limit);
  }
  const cursor = single(query, 'cursor');
  if (cursor !== undefined && (cursor === '' || cursor.length > 512)) {
    throw new ParameterError('invalid_cursor', 'cursor', 'cursor must be a value of meta.next_cursor, passed back unchanged');
  }
  return { first, after: cursor ?? null };
}

/** A path id of 1 to 120 characters. */
export function pathId(id: string | undefined): string {
  if (id === undefined || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new ParameterError('invalid_parameter', 'id', `id must be 1 to ${MAX_ID_LENGTH} characters`);
  }
  if (hasControlCharacters(id)) throw new ParameterError('invalid_parameter', 'id', 'id must not contain control characters');
  return id;
}

/**
 * Whether an `If-None-Match` header matches the answer's strong ETag: `*`, or one of its
 * comma-separated validators, compared weakly as RFC 9110 §13.1.2 asks (a `W/` prefix is ignored).
 */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const candidate = part.trim();
    if ((candidate.startsWith('W/') ? candidate.slice(2) : candidate) === etag) return true;
  }
  return false;
}

/** A GraphQL connection as the list operations select it. */
export interface Connection<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** A list route's body: the page's items and the cursor of the next page, if any. */
export const listJson = <T, R>(connection: Connection<T>, map: (node: T) => R) => ({
  data: connection.nodes.map(map),
  meta: { next_cursor: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null },
});
