import type { EntityManager, InferKyselyDB } from '@mikro-orm/sql';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ENTITIES } from '../entities/index.ts';
import { PropertyResults } from './sql-results.ts';

/**
 * The one SQL layer beside the unit of work: Kysely, typed from the entity definitions. Queries
 * name entities and their properties (`selectFrom('Need').select(['id', 'publishedAt'])`), and
 * MikroORM's plugin turns them into tables and columns and converts values both ways from the
 * entity metadata (dates, booleans, JSON), so no list of column names or storage convention is
 * written a second time. Bound to the EntityManager's transaction when it has one.
 */
export const SQL_OPTIONS = { tableNamingStrategy: 'entity', columnNamingStrategy: 'property', convertValues: true } as const;

/** Every table, by entity name, with its columns by property name. */
export type DB = InferKyselyDB<(typeof ENTITIES)[number], typeof SQL_OPTIONS>;

export type Sql = Kysely<DB>;

/**
 * The typed Kysely of `em` (its transaction, when it is in one): MikroORM's plugin, with the
 * results of plain selects decoded once per statement shape (sql-results.ts).
 */
export const sqlOf = (em: EntityManager): Sql => em.getKysely().withPlugin(new PropertyResults(em, SQL_OPTIONS)) as unknown as Sql;

/**
 * A condition that each property of `filter` equals its value: a visibility rule of
 * core/visibility.ts in a SQL layer query. (Kysely's own `eb.and(object)` writes `is` for booleans,
 * which the databases do not seek an index with.)
 */
export function matching<D, TB extends keyof D>(eb: ExpressionBuilder<D, TB>, filter: { readonly [property: string]: unknown }) {
  return eb.and(Object.entries(filter).map(([property, value]) => eb(eb.ref(property as never), '=', value as never)));
}
