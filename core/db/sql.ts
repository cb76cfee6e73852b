import type { EntityManager, InferKyselyDB } from '@mikro-orm/sql';
import type { Kysely } from 'kysely';
import type { ENTITIES } from '../entities/index.ts';

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

/** The typed Kysely of `em` (its transaction, when it is in one). */
export const sqlOf = (em: EntityManager): Sql => em.getKysely<DB, typeof SQL_OPTIONS>(SQL_OPTIONS);
