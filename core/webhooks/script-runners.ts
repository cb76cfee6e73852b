import type { MikroORM } from '@mikro-orm/core';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { SQLITE_CONNECTION_PRAGMAS, type DatabaseKind } from '../db/orm.ts';
import { insertSql, type Script, type ScriptRunner, type SqlOp } from './delivery-sql.ts';

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

/** Rows per multi-row insert on SQLite: one call for many rows, and few distinct statements to keep. */
const SQLITE_INSERT_ROWS = 64;
/** Rows per multi-row insert on PostgreSQL: fewer round trips; far below its parameter limit. */
const POSTGRESQL_INSERT_ROWS = 400;
const STATEMENTS_KEPT = 500;
/** How long a write waits for another writer's lock before it fails (the ORM connection's busy_timeout). */
const BUSY_GIVE_UP_MS = 10_000;

/**
 * Runs scripts on a SQLite connection of the dispatcher's own, beside MikroORM's: statements
 * are prepared once and run synchronously, and a write transaction runs from BEGIN to COMMIT
 * without yielding to the event loop. The ORM's connection, used by the same thread, can then
 * never find this one's lock mid-transaction and wait for it (SQLite's wait is synchronous, and
 * would block the very code that holds the lock). The reverse case, this connection meeting a lock
 * held by the ORM's (its transactions do await) or by another process, is retried after a pause
 * on the event loop rather than waited for in SQLite: `busy_timeout` is 0 here.
 */
export class SqliteScriptRunner implements ScriptRunner {
  readonly kind = 'sqlite' as const;
  private readonly connection: Connection;
  private readonly statements = new Map<string, Statement>();

  constructor(path: string) {
    this.connection = new LibSql(path);
    this.connection.exec(`pragma busy_timeout = 0; ${SQLITE_CONNECTION_PRAGMAS}`);
  }

  read<T>(script: () => Script<T>): Promise<T> {
    return this.untilUnlocked(() => this.drive(script()));
  }

  write<T>(script: () => Script<T>): Promise<T> {
    return this.untilUnlocked(() => {
      this.statement('begin immediate').run([]);
      try {
        const result = this.drive(script());
        this.statement('commit').run([]);
        return result;
      } catch (error) {
        if (this.connection.inTransaction) this.connection.exec('rollback');
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.connection.close();
  }

  /** Runs `work`, again from the start after a pause while another connection holds the lock. */
  private async untilUnlocked<T>(work: () => T): Promise<T> {
    const started = Date.now();
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      try {
        return work();
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started > BUSY_GIVE_UP_MS) throw error;
      }
      await sleep(pause);
    }
  }

  private drive<T>(script: Script<T>): T {
    let step = script.next();
    while (!step.done) step = script.next(this.execute(step.value));
    return step.value;
  }

  private execute(op: SqlOp): unknown {
    switch (op.op) {
      case 'all':
        return this.statement(op.sql).all(op.params);
      case 'run':
        this.statement(op.sql).run(op.params);
        return undefined;
      case 'insert':
        for (let start = 0; start < op.rows.length; start += SQLITE_INSERT_ROWS) {
          const chunk = op.rows.slice(start, start + SQLITE_INSERT_ROWS);
          this.statement(insertSql(op.table, op.columns, chunk.length)).run(chunk.flat());
        }
        return undefined;
    }
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.connection.prepare(sql);
      if (this.statements.size >= STATEMENTS_KEPT) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** Runs scripts through MikroORM's connection pool (PostgreSQL). */
export class OrmScriptRunner implements ScriptRunner {
  constructor(
    private readonly orm: MikroORM,
    readonly kind: DatabaseKind,
  ) {}

  read<T>(script: () => Script<T>): Promise<T> {
    return drive(this.orm.em.fork(), script());
  }

  write<T>(script: () => Script<T>): Promise<T> {
    return this.orm.em.fork().transactional((em) => drive(em, script()));
  }

  async close(): Promise<void> {}
}

type EntityManager = MikroORM['em'];

async function drive<T>(em: EntityManager, script: Script<T>): Promise<T> {
  const connection = em.getConnection();
  const context = em.getTransactionContext();
  let step = script.next();
  while (!step.done) {
    const op = step.value;
    let result: unknown;
    if (op.op === 'all') {
      result = await connection.execute(op.sql, [...op.params], 'all', context);
    } else if (op.op === 'run') {
      await connection.execute(op.sql, [...op.params], 'run', context);
    } else {
      for (let start = 0; start < op.rows.length; start += POSTGRESQL_INSERT_ROWS) {
        const chunk = op.rows.slice(start, start + POSTGRESQL_INSERT_ROWS);
        await connection.execute(insertSql(op.table, op.columns, chunk.length), chunk.flat(), 'run', context);
      }
    }
    step = script.next(result);
  }
  return step.value;
}

/** The runner for the database behind `orm`: a connection of its own on SQLite, the ORM's pool otherwise. */
export function createScriptRunner(orm: MikroORM, kind: DatabaseKind): ScriptRunner {
  return kind === 'sqlite' ? new SqliteScriptRunner(orm.config.get('dbName')!) : new OrmScriptRunner(orm, kind);
}
