// The `data` of an internal GraphQL call, typed by the root fields it selects. Each field has the
// schema's full type (facades/generated/schema-types.ts): a test reads only what it selected.
import { expect } from 'vitest';
import type { Mutation, Query } from '../../facades/generated/schema-types.ts';

/** The data of a query selecting the root fields `K`. */
export type QueryData<K extends keyof Query> = Pick<Query, K>;

/** The data of a mutation selecting the root fields `K`. */
export type MutationData<K extends keyof Mutation> = Pick<Mutation, K>;

/**
 * A client of the internal GraphQL endpoint at `origin` with `token`: each call resolves to the
 * answer's `data`, and fails the test if the answer has errors.
 */
export function internalGraphql(origin: string, token: string) {
  return async <T = unknown>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: T; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data;
  };
}
