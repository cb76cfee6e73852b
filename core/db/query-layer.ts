import { LRUCache } from 'lru-cache';
import type { Pool, PoolClient } from 'pg';
import { sqlAttributes, tracingOn, withSpan } from '../telemetry.ts';
import { postgresPool, sqliteHandle, type Database, type DatabaseKind } from './orm.ts';
import type { SqliteHandle } from './sqlite-dialect.ts';
import { insertSql, type Script, type SqlOp } from './scripts.ts';

/**
 * One SQL statement with typed rows, written once with `?` placeholders (PostgreSQL gets `$1…`)
 * or once per database where their SQL differs. Each connection prepares it once and keeps it.
 * Rows come back as arrays, one value per selected column in order (`columnIndexes` names the
 * positions): the drivers build an array per row for less than an object with named properties,
 * which was a third of a computed list page's time on SQLite.
 */
export interface Statement<Row extends readonly unknown[]> {
  readonly name: string;
  readonly sqlite: string;
  readonly postgresql: string;
  /** Carries the row type only. */
  readonly row?: Row;
}

export function statement<Row extends readonly unknown[]>(
  name: string,
  sql: string | { sqlite: string; postgresql: string },
): Statement<Row> {
  const { sqlite, postgresql } = typeof sql === 'string' ? { sqlite: sql, postgresql: sql } : sql;
  return { name, sqlite, postgresql: numbered(postgresql) };
}

/** PostgreSQL's placeholders: `?` becomes `$1`, `$2`… */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Runs statements on one database, on MikroORM's own connections. */
export interface QueryRunner {
  readonly kind: DatabaseKind;
  all<Row extends readonly unknown[]>(statement: Statement<Row>, params: readonly unknown[]): Promise<Row[]>;
}

/** The position of each column in a row of `columns`: `row[at.title]`. */
export function columnIndexes<const C extends readonly string[]>(columns: C): { readonly [K in C[number]]: number } {
  return Object.fromEntries(columns.map((column, i) => [column, i])) as { readonly [K in C[number]]: number };
}

/** Rows per multi-row insert on PostgreSQL: fewer round trips; far below its parameter limit. */
const POSTGRESQL_INSERT_ROWS = 400;
/** Texts of script statements kept with their numbered placeholders. */
const TEXTS_KEPT = 1_000;

/**
 * SQLite: the ORM's one connection (sqlite-dialect.ts), which prepares each statement once and
 * keeps it. libsql runs a statement to completion synchronously, so a read needs the connection
 * only for that instant: while nobody holds it, the read runs at once; during a write
 * transaction it waits for the connection like any other query (it never sees a transaction's
 * uncommitted rows).
 */
class SqliteRunner implements QueryRunner {
  readonly kind = 'sqlite' as const;
  private readonly handle: SqliteHandle;

  constructor(orm: Database) {
    const handle = sqliteHandle(orm);
    if (!handle) throw new Error('The SQLite connection is not open');
    this.handle = handle;
  }

  async all<Row extends readonly unknown[]>(statement: Statement<Row>, params: readonly unknown[]): Promise<Row[]> {
    if (this.handle.idle) return this.handle.arrayRows(statement.sqlite, params) as unknown as Row[];
    const handle = await this.handle.acquire();
    try {
      return handle.arrayRows(statement.sqlite, params) as unknown as Row[];
    } finally {
      handle.unlock();
    }
  }
}

/**
 * PostgreSQL: the ORM's pool; each connection prepares a named statement once (node-postgres
 * keeps it). It carries out scripts (scripts.ts) too, each on one connection, a write script in a
 * transaction of its own: the dispatcher's bookkeeping on PostgreSQL.
 */
export class PostgresRunner implements QueryRunner {
  readonly kind = 'postgresql' as const;
  private readonly pool: Pool;
  private readonly texts = new LRUCache<string, string>({ max: TEXTS_KEPT });

  constructor(orm: Database) {
    const pool = postgresPool(orm);
    if (!pool) throw new Error('The PostgreSQL pool is not open');
    this.pool = pool;
  }

  async all<Row extends readonly unknown[]>(statement: Statement<Row>, params: readonly unknown[]): Promise<Row[]> {
    const client = await this.pool.connect();
    try {
      return (await client.query({ name: statement.name, text: statement.postgresql, values: params as unknown[], rowMode: 'array' }))
        .rows as unknown as Row[];
    } finally {
      client.release();
    }
  }

  /** Runs `script` on one connection; `write` wraps it in a transaction, rolled back if it throws. */
  async script<T>(mode: 'read' | 'write', script: Script<T>): Promise<T> {
    const client = await this.pool.connect();
    let open = false;
    try {
      if (mode === 'write') {
        await client.query({ text: 'begin' });
        open = true;
      }
      const result = await this.drive(client, script);
      if (open) {
        open = false;
        await client.query({ text: 'commit' });
      }
      return result;
    } catch (error) {
      if (open) await client.query({ text: 'rollback' }).catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async drive<T>(client: PoolClient, script: Script<T>): Promise<T> {
    let step = script.next();
    while (!step.done) {
      const op: SqlOp = step.value;
      let result: unknown;
      if (op.op === 'all') result = await this.execute(client, op.sql, op.params);
      else if (op.op === 'run') await this.execute(client, op.sql, op.params);
      else {
        for (let start = 0; start < op.rows.length; start += POSTGRESQL_INSERT_ROWS) {
          const chunk = op.rows.slice(start, start + POSTGRESQL_INSERT_ROWS);
          await this.execute(client, insertSql(op.table, op.columns, chunk.length), chunk.flat());
        }
      }
      step = script.next(result);
    }
    return step.value;
  }

  /** One statement of a script: rows as objects (scripts read columns by name), a span when tracing. */
  private async execute(client: PoolClient, sql: string, params: readonly unknown[]): Promise<unknown[]> {
    let text = this.texts.get(sql);
    if (text === undefined) {
      text = numbered(sql);
      this.texts.set(sql, text);
    }
    const query = { text, values: params as unknown[] };
    if (!tracingOn) return (await client.query(query)).rows;
    return withSpan('SQL', sqlAttributes('postgresql', text), async () => (await client.query(query)).rows);
  }
}

/**
 * The query runner of the database behind `orm`: one per database, for the life of the process.
 * On PostgreSQL it is a `PostgresRunner`, which runs the dispatcher's scripts as well.
 */
export function createQueryRunner(orm: Database, kind: DatabaseKind): QueryRunner {
  const runner = kind === 'sqlite' ? new SqliteRunner(orm) : new PostgresRunner(orm);
  // Decided once: with tracing off, statements run with no hook at all.
  return tracingOn ? tracedRunner(runner) : runner;
}

/** A span per statement: its name and text with placeholders, never its parameters. */
function tracedRunner(runner: QueryRunner): QueryRunner {
  // The runner's own class stays its prototype: a PostgresRunner's scripts (spans per statement already) run as they are.
  const traced = Object.create(runner) as QueryRunner;
  traced.all = (statement, params) =>
    withSpan(
      `SQL ${statement.name}`,
      sqlAttributes(runner.kind, runner.kind === 'sqlite' ? statement.sqlite : statement.postgresql, statement.name),
      () => runner.all(statement, params),
    );
  return traced;
}
