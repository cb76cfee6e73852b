import { AbstractSqlDriver, type Configuration } from '@mikro-orm/knex';
import { LibSqlConnection, LibSqlKnexDialect, LibSqlPlatform } from '@mikro-orm/libsql';
import { LRUCache } from 'lru-cache';
import { createRequire } from 'node:module';

// The server and the CLI write to one SQLite file. A plain `BEGIN` is deferred: a transaction that
// reads first and writes later fails at once with "database is locked" when another process wrote
// in between (its snapshot is stale, and busy_timeout does not apply). `BEGIN IMMEDIATE` takes the
// write lock up front, so the second writer waits its busy_timeout instead of failing.

const require = createRequire(import.meta.url);
type KnexTransaction = new (...args: unknown[]) => { trxClient: { query(conn: unknown, sql: string): Promise<unknown> } };
const SqliteTransaction: KnexTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js');

// Knex's own begin swallows a failed BEGIN (it rejects the transaction's outcome but still hands the
// transaction to its caller), so a writer that could not take the lock in time failed later with
// "Transaction query already complete" and the cause was lost. Rejecting here hands out no
// transaction and reports the cause ("database is locked") to the caller.
class ImmediateTransaction extends SqliteTransaction {
  begin(conn: unknown): Promise<unknown> {
    return this.trxClient.query(conn, 'BEGIN IMMEDIATE;');
  }
}

// Knex prepares every statement anew, which costs more than running most of them (tens of µs
// each). Each connection keeps its prepared statements by SQL text instead; libsql runs a statement
// to completion synchronously, so one is never used by two queries at once, and SQLite re-prepares
// a cached statement itself when the schema changes under it.
const STATEMENTS_PER_CONNECTION = 1_000;

interface RawConnection {
  prepare(sql: string): unknown;
}

function cachePreparedStatements(connection: RawConnection): void {
  const prepare = connection.prepare.bind(connection);
  const statements = new LRUCache<string, object>({ max: STATEMENTS_PER_CONNECTION });
  connection.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = prepare(sql) as object;
      statements.set(sql, statement);
    }
    return statement;
  };
}

class ImmediateDialect extends LibSqlKnexDialect {
  transaction(...args: unknown[]) {
    return new ImmediateTransaction(this, ...args);
  }

  override async acquireRawConnection() {
    const connection = (await super.acquireRawConnection()) as RawConnection;
    cachePreparedStatements(connection);
    return connection;
  }
}

class ImmediateConnection extends LibSqlConnection {
  override createKnex(): void {
    this.client = this.createKnexClient(ImmediateDialect as unknown as string);
    this.connected = true;
  }
}

/** The libsql driver whose transactions begin IMMEDIATE. */
export class SqliteDriver extends AbstractSqlDriver<ImmediateConnection> {
  constructor(config: Configuration) {
    super(config, new LibSqlPlatform(), ImmediateConnection, ['knex', 'libsql']);
  }
}
