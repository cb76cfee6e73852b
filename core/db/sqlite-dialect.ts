import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import Database from 'libsql';
import { LRUCache } from 'lru-cache';
import { SQLITE_CONNECTION_PRAGMAS } from './sqlite-pragmas.ts';

// The Kysely dialect MikroORM runs on for SQLite (libsql), and through which the query layer's
// statements run too: one connection per process, its statements prepared once and kept.
//
// The server and the CLI write to one SQLite file. A plain `BEGIN` is deferred: a transaction
// that reads first and writes later fails at once with "database is locked" when another process
// wrote in between (its snapshot is stale, and busy_timeout does not apply). Transactions here
// begin IMMEDIATE: they take the write lock up front, so the second writer waits its busy_timeout
// instead of failing, and a writer still waiting when the timeout ends gets the error before any
// of its work runs.

type Statement = Database.Statement;

/** Statements kept per connection, by SQL text; SQLite re-prepares a kept one itself when the schema changes. */
const STATEMENTS_KEPT = 1_000;

/**
 * The parameters as libsql binds them: SQLite has no boolean type (it stores 1 and 0, as
 * MikroORM's SQLite platform reads them back), and libsql aborts the process on a boolean.
 */
function bindable(parameters: readonly unknown[]): unknown[] {
  for (let i = 0; i < parameters.length; i++) {
    if (typeof parameters[i] === 'boolean') return parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p));
  }
  return parameters as unknown[];
}

export interface SqliteDialectOptions {
  /** The database file, or `:memory:`. */
  path: string;
  /** Runs once the connection is open and its pragmas set (file permissions, for one). */
  onOpen?: () => void;
}

/**
 * The process's one SQLite connection. Kysely (and so MikroORM) acquires it per query or per
 * transaction, one holder at a time; the query layer may read on it directly at any instant no
 * transaction holds it (`idle`), since libsql runs a statement to completion synchronously.
 */
export class SqliteHandle implements DatabaseConnection {
  readonly database: Database.Database;
  private readonly statements = new LRUCache<string, Statement>({ max: STATEMENTS_KEPT });
  /** Statements that hand rows back as arrays: kept apart, since the mode belongs to the statement. */
  private readonly arrayStatements = new LRUCache<string, Statement>({ max: STATEMENTS_KEPT });
  private holder: Promise<void> | undefined;
  private release: (() => void) | undefined;

  constructor(options: SqliteDialectOptions) {
    this.database = new Database(options.path);
    this.database.exec(`pragma journal_mode = wal; pragma busy_timeout = 10000; ${SQLITE_CONNECTION_PRAGMAS}`);
    options.onOpen?.();
  }

  /** Whether a read may run now: nobody holds the connection (so no transaction is open on it). */
  get idle(): boolean {
    return this.holder === undefined && this.database.open !== false && !this.database.inTransaction;
  }

  async acquire(): Promise<this> {
    while (this.holder) await this.holder;
    this.holder = new Promise<void>((resolve) => {
      this.release = resolve;
    });
    return this;
  }

  unlock(): void {
    const release = this.release;
    this.holder = undefined;
    this.release = undefined;
    release?.();
  }

  /** The prepared statement of `sql`, kept for the next call. */
  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Rows as arrays, one value per selected column in order. */
  arrayRows(sql: string, parameters: readonly unknown[]): unknown[][] {
    let statement = this.arrayStatements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql).raw(true);
      this.arrayStatements.set(sql, statement);
    }
    return statement.all(bindable(parameters)) as unknown[][];
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.statement(compiled.sql);
    const parameters = bindable(compiled.parameters);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    for (const row of this.statement(compiled.sql).iterate(bindable(compiled.parameters))) yield { rows: [row as R] };
  }

  close(): void {
    this.statements.clear();
    this.arrayStatements.clear();
    if (this.database.open !== false) this.database.close();
  }
}

/**
 * SQLite's adapter, except that Kysely adds no lock of its own around the connection: the handle
 * has one (`acquire`), which the driver can release when BEGIN fails. Kysely's lock is released
 * only with the connection, and a failed BEGIN leaves it held for good.
 */
class LockedConnectionAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class SqliteDriver implements Driver {
  private readonly options: SqliteDialectOptions;
  private handle: SqliteHandle | undefined;
  private readonly opened: (handle: SqliteHandle) => void;

  constructor(options: SqliteDialectOptions, opened: (handle: SqliteHandle) => void) {
    this.options = options;
    this.opened = opened;
  }

  async init(): Promise<void> {
    this.handle = new SqliteHandle(this.options);
    this.opened(this.handle);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.handle) throw new Error('The SQLite connection is not open');
    return this.handle.acquire();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteHandle).unlock();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (error) {
      // Kysely hands out no transaction then, and never releases the connection it acquired for
      // it: release it here, or every later query would wait for it (see LockedConnectionAdapter).
      (connection as SqliteHandle).unlock();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async destroy(): Promise<void> {
    this.handle?.close();
    this.handle = undefined;
  }
}

/**
 * SQLite through libsql, for MikroORM's generic SQLite driver (`driverOptions`). `handle` is the
 * open connection, once MikroORM has connected.
 */
export class LibsqlDialect implements Dialect {
  private readonly options: SqliteDialectOptions;
  handle: SqliteHandle | undefined;

  constructor(options: SqliteDialectOptions) {
    this.options = options;
  }

  createDriver(): Driver {
    return new SqliteDriver(this.options, (handle) => {
      this.handle = handle;
    });
  }

  createQueryCompiler(): SqliteQueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): SqliteAdapter {
    return new LockedConnectionAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  createIntrospector(db: Kysely<any>): SqliteIntrospector {
    return new SqliteIntrospector(db);
  }
}
