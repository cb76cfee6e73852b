import type { Platform } from '@mikro-orm/core';
import { type OperationNode, SelectQueryNode } from 'kysely';
import type { Pool } from 'pg';
import { sqlAttributes, tracingOn, withSpan } from '../telemetry.ts';
import { type Database, type DatabaseKind, postgresPool, sqliteHandle } from './orm.ts';
import { ReadTurn } from './read-turn.ts';
import { converter, type Field, propertyOf, recordOf, selections, tableIndex } from './row-decoding.ts';
import type { SqliteHandle } from './sqlite-dialect.ts';
import { type CompiledStatement, compileStatement, type StatementDefinition } from './statement-compiler.ts';
import { type Sql, sqlOf } from './sql.ts';

// Statements of the public read path, written with the SQL layer's query builder (sql.ts: entity
// and property names, typed from the entity definitions) and compiled once per process
// (statement-compiler.ts). Parameters are placeholders, bound at each run; rows come back as arrays (libsql's raw mode,
// node-postgres's rowMode 'array': a driver builds an array per row for about two thirds of the
// cost of an object) and are decoded into records keyed by property name, each value converted
// as the entity metadata says (the ORM's own converters: JSON, booleans, dates). No column list
// or row decoder is written by hand: both are read off the compiled query.

interface Compiled extends CompiledStatement {
  readonly decode: (row: readonly unknown[]) => unknown;
}

/** Runs prepared statements on one database, on MikroORM's own connections. */
export class PreparedStatements {
  readonly kind: DatabaseKind;
  private readonly db: Database;
  private readonly platform: Platform;
  private readonly compiled = new Map<StatementDefinition<never, unknown>, Compiled>();
  private readonly sqlite: SqliteHandle | undefined;
  private readonly pool: Pool | undefined;
  /** The query builder statements are compiled with: compiling runs no query and binds to no transaction. */
  private readonly builder: Sql;
  /** The reads of one turn of the event loop, run together (read-turn.ts); loaders batch by it too. */
  readonly turn = new ReadTurn();

  constructor(db: Database) {
    this.db = db;
    this.builder = sqlOf(db.em.fork());
    this.platform = db.em.getPlatform();
    this.sqlite = sqliteHandle(db);
    this.pool = postgresPool(db);
    if (!this.sqlite && !this.pool) throw new Error('The database is not open');
    this.kind = this.sqlite ? 'sqlite' : 'postgresql';
  }

  /** The rows of `statement` with `params` bound, read with the other reads of this turn (read-turn.ts). */
  async all<P extends Record<string, unknown>, Row>(statement: StatementDefinition<P, Row>, params: P): Promise<Row[]> {
    const compiled = this.compile(statement);
    const values = compiled.bind(params);
    const rows = tracingOn
      ? await withSpan(`SQL ${compiled.name}`, sqlAttributes(this.kind, compiled.sql, compiled.name), () => this.run(compiled, values))
      : await this.run(compiled, values);
    return this.decode(compiled, rows);
  }

  /**
   * The rows of `statement` with `params` bound, read at once and without a span: for a process's
   * own polls (the change feed's), which no request waits for. Joining the read turn, a poll could
   * open it, and the requests' batched reads would then run in the poll's context, outside their
   * traces.
   */
  async allAtOnce<P extends Record<string, unknown>, Row>(statement: StatementDefinition<P, Row>, params: P): Promise<Row[]> {
    const compiled = this.compile(statement);
    return this.decode(compiled, await this.execute(compiled, compiled.bind(params)));
  }

  private decode<Row>(compiled: Compiled, rows: unknown[][]): Row[] {
    const decoded = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) decoded[i] = compiled.decode(rows[i]!) as Row;
    // Emptied once decoded. Nothing holds a finished result (a heap snapshot under load finds
    // none), yet without this the rows, and through them every string of every row, outlived V8's
    // young collections and were promoted to the old generation, to be freed only by a full
    // collection; why was not pinned down (some old object the driver made still pointing to the
    // array: a young collection keeps what old objects point to, dead or not). Measured on
    // PostgreSQL list pages under 50 connections (docs/benchmarks.md): 29.9 KB promoted per answer
    // before, 4.2 after; full collections from 16 to 6 in 8 s.
    rows.length = 0;
    return decoded;
  }

  /** The SQL of `statement` as this database runs it, and its parameters bound to `params` (tests and benchmarks read plans of it). */
  bound<P extends Record<string, unknown>, Row>(statement: StatementDefinition<P, Row>, params: P): { sql: string; parameters: unknown[] } {
    const compiled = this.compile(statement);
    return { sql: compiled.sql, parameters: compiled.bind(params) };
  }

  private async run(compiled: Compiled, values: unknown[]): Promise<unknown[][]> {
    // A read waits for the check phase of the turn it was asked in, and goes with the other
    // requests' reads of that turn (read-turn.ts); asked from that phase (a loader's batch), it
    // goes at once.
    if (!this.turn.running) await this.turn.next();
    const rows = await this.execute(compiled, values);
    // Each answer from PostgreSQL comes in a poll callback of its own: its rows go on in the check
    // phase, with the other answers that came in the same turn.
    if (this.pool) await this.turn.next();
    return rows;
  }

  private async execute(compiled: Compiled, values: unknown[]): Promise<unknown[][]> {
    const handle = this.sqlite;
    if (handle) {
      // libsql runs a statement to completion synchronously: while no one holds the connection
      // (no transaction is open on it) the read runs at once, else it waits its turn.
      if (handle.idle) return handle.arrayRows(compiled.sql, values);
      await handle.acquire();
      try {
        return handle.arrayRows(compiled.sql, values);
      } finally {
        handle.unlock();
      }
    }
    const client = await this.pool!.connect();
    try {
      return (await client.query({ name: compiled.name, text: compiled.sql, values, rowMode: 'array' })).rows as unknown[][];
    } finally {
      client.release();
    }
  }

  private compile(statement: StatementDefinition<never, unknown>): Compiled {
    let compiled = this.compiled.get(statement);
    if (compiled) return compiled;
    const target = { kind: this.kind, platform: this.platform, byTable: tableIndex(this.db.getMetadata()) };
    const compiledStatement = compileStatement(statement, this.builder, target, 0);
    compiled = { ...compiledStatement, decode: rowDecoder(compiledStatement.node, this.db, this.platform) };
    this.compiled.set(statement, compiled);
    return compiled;
  }
}

/**
 * The decoder of a select statement's array rows: one entry per selection, named by the entity
 * property it reads (or by its alias), its value converted as the property's metadata says.
 */
function rowDecoder(node: OperationNode, db: Database, platform: Platform): (row: readonly unknown[]) => unknown {
  if (!SelectQueryNode.is(node)) throw new Error('Only select statements are prepared');
  const read = selections(node, tableIndex(db.getMetadata()));
  if (!read) throw new Error('A prepared statement selects columns or aliased expressions only');
  const fields = read.selected.map(({ key, meta, alias }, i): Field => {
    const prop = propertyOf(meta, key);
    if (prop) return { name: prop.name, from: i, convert: converter(prop, platform, 'reference') };
    // An alias that names no column keeps its name and value.
    if (alias) return { name: key, from: i, convert: undefined };
    throw new Error(`No property maps the column '${key}'`);
  });
  return recordOf(fields);
}
