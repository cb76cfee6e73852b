// The `data` of an internal GraphQL call, typed by the root fields it selects. Each field has the
// schema's full type (facades/generated/schema-types.ts): a test reads only what it selected.
import type { Mutation, Query } from '../../facades/generated/schema-types.ts';

/** The data of a query selecting the root fields `K`. */
export type QueryData<K extends keyof Query> = Pick<Query, K>;

/** The data of a mutation selecting the root fields `K`. */
export type MutationData<K extends keyof Mutation> = Pick<Mutation, K>;
