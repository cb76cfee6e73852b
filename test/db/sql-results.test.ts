import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityMetadata } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database, migrate } from '../../core/db/orm.ts';
import { type DB, SQL_OPTIONS, type Sql, sqlOf } from '../../core/db/sql.ts';
import { ONE_ROW_PER_TABLE } from '../fixtures/one-row-per-table.ts';
import { freshDatabaseUrl } from '../support/database.ts';

// The SQL layer decodes the results of plain selects itself (core/db/sql-results.ts) instead of
// through MikroORM's Kysely plugin. Over a row in every table, on the database of this run, both
// give the same records for every column of every entity, and for a join.
describe('the SQL layer’s results against MikroORM’s Kysely plugin', () => {
  let dir: string;
  let drop: () => Promise<void>;
  let orm: Database;
  // The plugin alone, as `em.getKysely(options)` gives it: the reference.
  let plugin: () => Sql;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-sql-results-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    orm = await connectDatabase({ dataDir: dir, databaseUrl: database.url });
    await migrate(orm);
    const em = orm.em.fork();
    for (const row of ONE_ROW_PER_TABLE) await row.insert(em);
    plugin = () => orm.em.fork().getKysely<DB, typeof SQL_OPTIONS>(SQL_OPTIONS);
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The properties stored in one column each: what a select names. */
  const columns = (meta: EntityMetadata) =>
    meta.props.filter((prop) => prop.persist !== false && !prop.formula && prop.fieldNames?.length === 1).map((prop) => prop.name);
  const entities = () => [...orm.getMetadata().getAll().values()].filter((meta) => !meta.virtual && !meta.embeddable && !meta.abstract);

  it('gives every column of every entity as the plugin does, named and converted by its property', async () => {
    const checked: string[] = [];
    for (const meta of entities()) {
      const names = columns(meta);
      const query = (db: Sql) =>
        db
          .selectFrom(meta.className as keyof DB)
          .select(names as never)
          .execute();
      const [decoded, reference] = [await query(sqlOf(orm.em.fork())), await query(plugin())];
      expect({ entity: meta.className, rows: decoded }).toEqual({ entity: meta.className, rows: reference });
      expect(decoded).toHaveLength(1);
      // Decoded by the SQL layer itself: a record's keys come in the order of the selection (the
      // plugin moves each renamed column to the end).
      expect(Object.keys(decoded[0]!)).toEqual(names);
      checked.push(meta.className);
    }
    expect(checked.length).toBe(ONE_ROW_PER_TABLE.length);
  });

  it('names and converts the columns of a join by the table each one is read from', async () => {
    const query = (db: Sql) =>
      db
        .selectFrom('WebhookDestination as d')
        .innerJoin('Organization as o', 'o.id', 'd.organization')
        .select(['d.id', 'd.organization', 'o.plan', 'o.listed', 'd.kinds', 'd.updatedAt', 'd.previousSecretExpiresAt'])
        .execute();
    const decoded = await query(sqlOf(orm.em.fork()));
    expect(decoded).toEqual(await query(plugin()));
    expect(decoded[0]).toMatchObject({ listed: true, kinds: expect.any(Array), updatedAt: expect.any(Date) });
    expect(Object.keys(decoded[0]!)).toEqual(['id', 'organization', 'plan', 'listed', 'kinds', 'updatedAt', 'previousSecretExpiresAt']);
  });

  it('leaves what is not a plain column to the plugin: aliases, all columns, aggregates', async () => {
    const aliased = (db: Sql) => db.selectFrom('Need').select(['id as key', 'publishedAt as published']).execute();
    expect(await aliased(sqlOf(orm.em.fork()))).toEqual(await aliased(plugin()));
    const all = (db: Sql) => db.selectFrom('WebhookDelivery').selectAll().execute();
    expect(await all(sqlOf(orm.em.fork()))).toEqual(await all(plugin()));
    const counted = (db: Sql) =>
      db
        .selectFrom('WebhookDelivery')
        .select((eb) => eb.fn.countAll().as('n'))
        .execute();
    expect(await counted(sqlOf(orm.em.fork()))).toEqual(await counted(plugin()));
  });
});
