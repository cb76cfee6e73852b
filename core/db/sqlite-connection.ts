import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import { SQLITE_CONNECTION_PRAGMAS } from './sqlite-pragmas.ts';
import { insertSql, type Script, type SqlOp } from './scripts.ts';

interface Statement {
  run(params: readonly unknown[]): unknown;
  all(params: readonly unknown[]): unknown[];
}

interface Connection {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}

const require = createRequire(import.meta.url);
const LibSql = require('libsql') as new (path: string) => Connection;

/** Rows per multi-row insert: one call for many rows, and few distinct statements to keep. */
const INSERT_ROWS = 64;
const STATEMENTS_KEPT = 500;

/**
 * A SQLite connection of its own, beside MikroORM's, that carries out scripts (scripts.ts) with
 * its statements prepared once: the dispatcher's, on its SQLite thread (core/webhooks/sqlite-thread.ts). Everything runs synchronously on the calling thread (the SQLite thread): a transaction
 * waits for another writer's lock (busy_timeout, like the ORM's connection) without stalling the
 * event loop that serves the API.
 */
export class SqliteConnection {
  private readonly connection: Connection;
  private readonly statements = new LRUCache<string, Statement>({ max: STATEMENTS_KEPT });

  constructor(path: string) {
    this.connection = new LibSql(path);
    this.connection.exec(`pragma busy_timeout = 10000; ${SQLITE_CONNECTION_PRAGMAS}`);
  }

  /** Runs `work` in one write transaction, taking the write lock up front. */
  transaction<T>(work: () => T): T {
    this.statement('begin immediate').run([]);
    try {
      const result = work();
      this.statement('commit').run([]);
      return result;
    } catch (error) {
      if (this.connection.inTransaction) this.connection.exec('rollback');
      throw error;
    }
  }

  /** Carries out a script's statements one after the other. */
  drive<T>(script: Script<T>): T {
    let step = script.next();
    while (!step.done) step = script.next(this.execute(step.value));
    return step.value;
  }

  close(): void {
    this.statements.clear();
    this.connection.close();
  }

  private execute(op: SqlOp): unknown {
    switch (op.op) {
      case 'all':
        return this.statement(op.sql).all(op.params);
      case 'run':
        this.statement(op.sql).run(op.params);
        return undefined;
      case 'insert':
        for (let start = 0; start < op.rows.length; start += INSERT_ROWS) {
          const chunk = op.rows.slice(start, start + INSERT_ROWS);
          this.statement(insertSql(op.table, op.columns, chunk.length)).run(chunk.flat());
        }
        return undefined;
    }
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
