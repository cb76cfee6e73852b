import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from './orm.ts';
import { tableIndex } from './row-decoding.ts';
import { sqlOf } from './sql.ts';
import { batch, type CompileTarget, compileStatement, prepared } from './statement-compiler.ts';

// A statement compiled once binds each run's values as MikroORM's Kysely plugin converts the same
// values written into the query: JSON through its type, dates as the platform stores them, in
// inserts, updates, comparisons and row values alike.
describe('statements compiled once', () => {
  let dir: string;
  let db: Database;
  let target: CompileTarget;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-statements-'));
    db = await connectDatabase({ dataDir: dir, migrator: false });
    target = { kind: 'sqlite', platform: db.em.getPlatform(), byTable: tableIndex(db.getMetadata()) };
  });
  afterAll(async () => {
    await db.close(true);
    rmSync(dir, { recursive: true, force: true });
  });

  const at = new Date('2026-11-27T01:00:00.000Z');
  const envelope = { id: 'evt_1', type: 'need.published', data: { title: 'Survey' } };

  it('binds the items of a multi-row insert as the plugin converts inserted values', () => {
    type Row = { id: string; envelope: object | null; createdAt: Date; test: boolean };
    const rows: Row[] = [
      { id: 'dlv_1', envelope, createdAt: at, test: true },
      { id: 'dlv_2', envelope: null, createdAt: new Date(at.getTime() + 1), test: false },
    ];
    const statement = batch<{ rows: Row[] }>('insert', 'rows', (sql, { items }) =>
      sql.insertInto('WebhookDelivery').values(items('rows', ['id', 'envelope', 'createdAt', 'test']) as never),
    );
    const compiled = compileStatement(statement, sqlOf(db.em.fork()), target, 2);
    const reference = sqlOf(db.em.fork())
      .insertInto('WebhookDelivery')
      .values(rows as never)
      .compile();
    expect(compiled.sql).toBe(reference.sql);
    expect(compiled.bind({ rows })).toEqual(reference.parameters);
    expect(compiled.bind({ rows })).toContain(JSON.stringify(envelope));
  });

  it('binds values compared with a column, in a row value, and set by an update', () => {
    const read = prepared<{ seq: number; createdAt: Date; id: string; limit: number }, never>('read', (sql, { p }) =>
      sql
        .selectFrom('WebhookDelivery')
        .select('id')
        .where((eb) => eb(eb.refTuple('seq', 'createdAt', 'id'), '>', eb.tuple(p.seq, p.createdAt, p.id)))
        .where('nextAttemptAt', '<', p.createdAt)
        .limit(p.limit),
    );
    const params = { seq: 7, createdAt: at, id: 'dlv_1', limit: 20 };
    const reference = sqlOf(db.em.fork())
      .selectFrom('WebhookDelivery')
      .select('id')
      .where((eb) =>
        eb(eb.refTuple('seq', 'createdAt', 'id'), '>', eb.tuple(7, db.em.getPlatform().processDateProperty(at) as never, 'dlv_1')),
      )
      .where('nextAttemptAt', '<', at)
      .limit(20)
      .compile();
    const compiled = compileStatement(read, sqlOf(db.em.fork()), target, 0);
    expect(compiled.bind(params)).toEqual(reference.parameters);

    const update = prepared<{ envelope: typeof envelope; at: Date; id: string }, never>('update', (sql, { p }) =>
      sql
        .updateTable('WebhookDelivery')
        .set({ envelope: p.envelope as never, lastAttemptAt: p.at })
        .where('id', '=', p.id),
    );
    const updated = compileStatement(update, sqlOf(db.em.fork()), target, 0);
    const referenceUpdate = sqlOf(db.em.fork())
      .updateTable('WebhookDelivery')
      .set({ envelope: envelope as never, lastAttemptAt: at })
      .where('id', '=', 'dlv_1')
      .compile();
    expect(updated.bind({ envelope, at, id: 'dlv_1' })).toEqual(referenceUpdate.parameters);
  });

  it('binds a list of ids as one parameter', () => {
    const byIds = prepared<{ ids: readonly string[] }, never>('by ids', (sql, { idTable }) =>
      sql.selectFrom(idTable('ids').as('j')).innerJoin('WebhookDelivery as d', 'd.id', 'j.value').select('d.id'),
    );
    expect(compileStatement(byIds, sqlOf(db.em.fork()), target, 0).bind({ ids: ['a', 'b'] })).toEqual(['["a","b"]']);
  });
});
