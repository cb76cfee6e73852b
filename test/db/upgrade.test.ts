import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRESQL_MIGRATIONS } from '../../core/db/migrations/postgresql/index.ts';
import { SQLITE_MIGRATIONS } from '../../core/db/migrations/sqlite/index.ts';
import { connectDatabase, type Database, databaseKind, migrate } from '../../core/db/orm.ts';
import {
  DeliveryAttemptEntity,
  EsignConnectionEntity,
  EsignInboundEventEntity,
  WebhookDestinationEntity,
} from '../../core/entities/index.ts';
import { ONE_ROW_PER_TABLE, ROW_IDS } from '../fixtures/one-row-per-table.ts';
import { freshDatabaseUrl } from '../support/database.ts';

/** The migration giving deliveries, attempts and applied e-signature notifications their cascades. */
const CASCADES = 'Migration20261126171500';

// Upgrading a database that holds data, on the database of this run (SQLite, or PostgreSQL with
// DATABASE_URL): built with the migrations that came before the cascades, one row in every
// table, then the remaining migrations. Every row comes through as it was, and deleting a
// destination or an e-signature connection now takes its children with it. A table that a later
// migration creates gets its row once it exists; a later migration that changes the columns of a
// table existing here moves this test's starting point (the fixture's rows follow the entities).
describe('upgrading a database with data to the foreign keys that cascade', () => {
  let dir: string;
  let drop: () => Promise<void>;
  let orm: Database;
  let tables: { name: string; key: string[] }[];
  const postgres = databaseKind({ databaseUrl: process.env.DATABASE_URL }) === 'postgresql';
  const sql = <T>(query: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(query, params);
  const count = async (table: string, where = '1 = 1', params: unknown[] = []) =>
    Number((await sql<{ n: number | string }>(`select count(*) as n from ${table} where ${where}`, params))[0]!.n);
  /** Every table's rows as the database returns them, in key order. */
  const contents = async () => {
    const all: Record<string, unknown[]> = {};
    for (const { name, key } of tables) all[name] = await sql(`select * from ${name} order by ${key.join(', ')}`);
    return all;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-upgrade-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    orm = await connectDatabase({ dataDir: dir, databaseUrl: database.url });
    tables = [...orm.getMetadata().getAll().values()]
      .filter((meta) => !meta.virtual && !meta.embeddable && !meta.abstract)
      .map((meta) => ({ name: meta.tableName, key: meta.getPrimaryProps().flatMap((prop) => prop.fieldNames) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every row and its values, keeps ids unique, and cascades from then on', async () => {
    const list = postgres ? POSTGRESQL_MIGRATIONS : SQLITE_MIGRATIONS;
    const index = list.findIndex((migration) => migration.name === CASCADES);
    expect(index).toBeGreaterThan(0);
    await migrate(orm, { to: list[index - 1]!.name });
    expect((await orm.migrator.getPending()).map((migration) => migration.name)).toEqual(list.slice(index).map((m) => m.name));

    // Every table has its row in the fixture, once.
    const tableOf = (row: (typeof ONE_ROW_PER_TABLE)[number]) => orm.getMetadata().get(row.entity).tableName;
    expect(ONE_ROW_PER_TABLE.map(tableOf).sort()).toEqual(tables.map((table) => table.name));
    const existing = new Set(
      (
        await sql<{ name: string }>(
          postgres
            ? 'select table_name as name from information_schema.tables where table_schema = current_schema()'
            : "select name from sqlite_master where type = 'table'",
        )
      ).map((table) => table.name),
    );
    const em = orm.em.fork();
    for (const row of ONE_ROW_PER_TABLE) if (existing.has(tableOf(row))) await row.insert(em);
    tables = tables.filter((table) => existing.has(table.name));
    for (const { name } of tables) expect({ table: name, rows: await count(name) }).toEqual({ table: name, rows: 1 });
    // Ids handed out and given back before the upgrade stay used after it.
    const extraAttempt = await em.insert(DeliveryAttemptEntity, { delivery: ROW_IDS.delivery, number: 2, at: new Date(), durationMs: 5 });
    const extraEvent = await em.insert(EsignInboundEventEntity, {
      connection: ROW_IDS.esignConnection,
      providerEventId: 'evt-later',
      receivedAt: new Date(),
    });
    await em.nativeDelete(DeliveryAttemptEntity, { id: extraAttempt });
    await em.nativeDelete(EsignInboundEventEntity, { id: extraEvent });
    // No cascade yet: the children hold their parents.
    await expect(em.nativeDelete(WebhookDestinationEntity, { id: ROW_IDS.destination })).rejects.toThrow();
    await expect(em.nativeDelete(EsignConnectionEntity, { id: ROW_IDS.esignConnection })).rejects.toThrow();
    const before = await contents();

    expect((await migrate(orm)).map((migration) => migration.name)).toEqual(list.slice(index).map((m) => m.name));
    // Every value kept; a column added by a later migration is left out of the comparison.
    const migrated = await contents();
    const columnsBefore = (table: string) => Object.keys((before[table]?.[0] ?? {}) as Record<string, unknown>);
    const kept = Object.fromEntries(
      Object.entries(migrated).map(([table, rows]) => [
        table,
        rows.map((row) => Object.fromEntries(columnsBefore(table).map((column) => [column, (row as Record<string, unknown>)[column]]))),
      ]),
    );
    expect(kept).toEqual(before);
    for (const row of ONE_ROW_PER_TABLE) if (!existing.has(tableOf(row))) await row.insert(orm.em.fork());

    const after = orm.em.fork();
    const attempt = await after.insert(DeliveryAttemptEntity, { delivery: ROW_IDS.delivery, number: 3, at: new Date(), durationMs: 5 });
    expect(attempt).toBeGreaterThan(Number(extraAttempt));
    const event = await after.insert(EsignInboundEventEntity, {
      connection: ROW_IDS.esignConnection,
      providerEventId: 'evt-after',
      receivedAt: new Date(),
    });
    expect(event).toBeGreaterThan(Number(extraEvent));

    expect(await after.nativeDelete(WebhookDestinationEntity, { id: ROW_IDS.destination })).toBe(1);
    expect(await count('webhook_deliveries', 'destination_id = ?', [ROW_IDS.destination])).toBe(0);
    expect(await count('delivery_attempts', 'delivery_id = ?', [ROW_IDS.delivery])).toBe(0);
    expect(await after.nativeDelete(EsignConnectionEntity, { id: ROW_IDS.esignConnection })).toBe(1);
    expect(await count('esign_inbound_events', 'connection_id = ?', [ROW_IDS.esignConnection])).toBe(0);
    // Nothing else went with them.
    expect(await count('organizations')).toBe(1);
    expect(await count('webhook_deliveries')).toBe(0);
  });
});
