import { AbstractSqlDriver, type Configuration } from '@mikro-orm/knex';
import { LibSqlConnection, LibSqlKnexDialect, LibSqlPlatform } from '@mikro-orm/libsql';
import { createRequire } from 'node:module';

// The server and the CLI write to one SQLite file. A plain `BEGIN` is deferred: a transaction that
// reads first and writes later fails at once with "database is locked" when another process wrote
// in between (its snapshot is stale, and busy_timeout does not apply). `BEGIN IMMEDIATE` takes the
// write lock up front, so the second writer waits its busy_timeout instead of failing.

const require = createRequire(import.meta.url);
type KnexTransaction = new (...args: unknown[]) => { query(conn: unknown, sql: string): Promise<unknown> };
const SqliteTransaction: KnexTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js');

class ImmediateTransaction extends SqliteTransaction {
  begin(conn: unknown): Promise<unknown> {
    return this.query(conn, 'BEGIN IMMEDIATE;');
  }
}

class ImmediateDialect extends LibSqlKnexDialect {
  transaction(...args: unknown[]) {
    return new ImmediateTransaction(this, ...args);
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
