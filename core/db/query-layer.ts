import type { MikroORM } from '@mikro-orm/core';
import { sqlAttributes, tracingOn, withSpan } from '../telemetry.ts';
import type { DatabaseKind } from './orm.ts';

/**
 * One SQL statement with typed rows, written once with `?` placeholders (PostgreSQL gets `$1…`)
 * or once per database where their SQL differs. Each connection prepares it once and keeps it.
 */
export interface Statement<Row> {
  readonly name: string;
  readonly sqlite: string;
  readonly postgresql: string;
  /** Carries the row type only. */
  readonly row?: Row;
}

export function statement<Row>(name: string, sql: string | { sqlite: string; postgresql: string }): Statement<Row> {
  const { sqlite, postgresql } = typeof sql === 'string' ? { sqlite: sql, postgresql: sql } : sql;
  let n = 0;
  return { name, sqlite, postgresql: postgresql.replace(/\?/g, () => `$${++n}`) };
}

/** Runs statements on one database, on MikroORM's own connections. */
export interface QueryRunner {
  readonly kind: DatabaseKind;
  all<Row>(statement: Statement<Row>, params: readonly unknown[]): Promise<Row[]>;
}

interface Pool<Connection> {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
}

interface SqliteConnection {
  prepare(sql: string): { all(params: readonly unknown[]): unknown[] };
  readonly inTransaction: boolean;
  readonly open?: boolean;
}

interface PostgresClient {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

const poolOf = <C>(orm: MikroORM) => (orm.em as unknown as { getKnex(): { client: Pool<C> } }).getKnex().client;

/**
 * SQLite: the ORM's one connection, whose statements SqliteDriver prepares once and keeps.
 * libsql runs a statement to completion synchronously, so a read needs the connection only
 * for that instant: while no transaction is open on it, the read runs at once; during a
 * write transaction it waits for the connection like any other query (it never sees a
 * transaction's uncommitted rows).
 */
class SqliteRunner implements QueryRunner {
  readonly kind = 'sqlite' as const;
  private connection: SqliteConnection | undefined;
  private readonly pool: Pool<SqliteConnection>;

  constructor(orm: MikroORM) {
    this.pool = poolOf<SqliteConnection>(orm);
  }

  async all<Row>(statement: Statement<Row>, params: readonly unknown[]): Promise<Row[]> {
    const idle = this.connection;
    if (idle && idle.open !== false && !idle.inTransaction) return idle.prepare(statement.sqlite).all(params) as Row[];
    const connection = await this.pool.acquireConnection();
    try {
      this.connection = connection;
      return connection.prepare(statement.sqlite).all(params) as Row[];
    } finally {
      await this.pool.releaseConnection(connection);
    }
  }
}

/** PostgreSQL: the ORM's pool; each connection prepares a named statement once (node-postgres keeps it). */
class PostgresRunner implements QueryRunner {
  readonly kind = 'postgresql' as const;
  private readonly pool: Pool<PostgresClient>;

  constructor(orm: MikroORM) {
    this.pool = poolOf<PostgresClient>(orm);
  }

  async all<Row>(statement: Statement<Row>, params: readonly unknown[]): Promise<Row[]> {
    const client = await this.pool.acquireConnection();
    try {
      return (await client.query({ name: statement.name, text: statement.postgresql, values: params })).rows as Row[];
    } finally {
      await this.pool.releaseConnection(client);
    }
  }
}

/** The query runner of the database behind `orm`: one per database, for the life of the process. */
export function createQueryRunner(orm: MikroORM, kind: DatabaseKind): QueryRunner {
  const runner = kind === 'sqlite' ? new SqliteRunner(orm) : new PostgresRunner(orm);
  // Decided once: with tracing off, statements run with no hook at all.
  return tracingOn ? tracedRunner(runner) : runner;
}

/** A span per statement: its name and text with placeholders, never its parameters. */
function tracedRunner(runner: QueryRunner): QueryRunner {
  return {
    kind: runner.kind,
    all: (statement, params) =>
      withSpan(
        `SQL ${statement.name}`,
        sqlAttributes(runner.kind, runner.kind === 'sqlite' ? statement.sqlite : statement.postgresql, statement.name),
        () => runner.all(statement, params),
      ),
  };
}
