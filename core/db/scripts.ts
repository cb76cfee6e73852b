import type { Platform } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { CompiledQuery, type Kysely, SelectQueryNode } from 'kysely';
import { tracingOn, withSpan } from '../telemetry.ts';
import type { Database, DatabaseKind } from './orm.ts';
import { tableIndex } from './row-decoding.ts';
import { type DB, type Sql, sqlOf } from './sql.ts';
import { type Decode, decoderOf } from './sql-results.ts';
import { type CompiledStatement, compileStatement, itemCount, type StatementDefinition } from './statement-compiler.ts';

/**
 * Scripts: units of database work beside the unit of work, written with the SQL layer's query
 * builder (sql.ts: entities and properties by name, values converted as the entity metadata
 * says). The dispatcher's bookkeeping is made of them (core/webhooks/delivery-scripts.ts): going
 * through entities there cost more than the HTTP requests themselves. A script takes and returns
 * plain data, so it can run on another thread: on SQLite the dispatcher runs them on a thread and
 * connection of their own (core/webhooks/script-runners.ts), on PostgreSQL on the ORM's pool.
 */

/** What a script runs with. */
export interface ScriptContext {
  /** The SQL layer, bound to the script's transaction when it writes. */
  readonly sql: Sql;
  readonly kind: DatabaseKind;
  /**
   * Runs a statement compiled once (statement-compiler.ts) in this script's transaction, if any:
   * for the statements of the hot path, where building and compiling a query cost more than
   * running it. A select's rows come back named and converted as `sql`'s do.
   */
  run<P extends Record<string, unknown>, Row>(statement: StatementDefinition<P, Row>, params: P): Promise<Row[]>;
}

export interface ScriptDefinition<A, R> {
  /**
   * `write` scripts run in one transaction (SQLite: BEGIN IMMEDIATE); `read` scripts outside any.
   * A `probe` is a read of a few index entries, asked often while nothing happens, and a
   * `brief-write` a transaction of a few rows, asked when a probe found something: a runner may
   * carry either out on the caller's own connection (see core/webhooks/script-runners.ts).
   */
  readonly mode: 'read' | 'probe' | 'write' | 'brief-write';
  run(q: ScriptContext, args: A): Promise<R>;
}

export const read = <A, R>(run: (q: ScriptContext, args: A) => Promise<R>): ScriptDefinition<A, R> => ({ mode: 'read', run });
export const probe = <A, R>(run: (q: ScriptContext, args: A) => Promise<R>): ScriptDefinition<A, R> => ({ mode: 'probe', run });
export const write = <A, R>(run: (q: ScriptContext, args: A) => Promise<R>): ScriptDefinition<A, R> => ({ mode: 'write', run });
export const briefWrite = <A, R>(run: (q: ScriptContext, args: A) => Promise<R>): ScriptDefinition<A, R> => ({
  mode: 'brief-write',
  run,
});

/** Whether scripts of `mode` run in a transaction of their own. */
export const transactional = (mode: ScriptDefinition<never, unknown>['mode']): boolean => mode === 'write' || mode === 'brief-write';

/** Ids per `in (…)` list: well under both databases' bound-parameter limits. */
const IDS_PER_STATEMENT = 100;

/** `items` in lists of at most `size`: one statement per list. */
export function chunked<T>(items: readonly T[], size = IDS_PER_STATEMENT): T[][] {
  const lists: T[][] = [];
  for (let start = 0; start < items.length; start += size) lists.push(items.slice(start, start + size));
  return lists;
}

interface Prepared {
  readonly statement: CompiledStatement;
  readonly decode: Decode | undefined;
}

/**
 * `items` in batches for a statement compiled per number of items (statement-compiler.ts `batch`):
 * lists of `size`, then the rest in lists of powers of two, so that a statement is compiled for a
 * few sizes only, not for every size from 1 to `size`.
 */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const lists: T[][] = [];
  let start = 0;
  for (; items.length - start >= size; start += size) lists.push(items.slice(start, start + size));
  for (let rest = items.length - start; rest > 0; rest = items.length - start) {
    const length = 2 ** Math.floor(Math.log2(rest));
    lists.push(items.slice(start, start + length));
    start += length;
  }
  return lists;
}

/** Carries out scripts on one database through its ORM: the SQL layer over the ORM's connections. */
export class ScriptExecutor {
  readonly kind: DatabaseKind;
  private readonly sql: Sql;
  private readonly platform: Platform;
  private readonly em: EntityManager;
  /** Compiled statements, by definition and number of items. */
  private readonly prepared = new Map<StatementDefinition<never, unknown>, Map<number, Prepared>>();

  constructor(db: Database, kind: DatabaseKind) {
    this.kind = kind;
    this.em = db.em.fork();
    // Not bound to any transaction: a write script opens its own.
    this.sql = sqlOf(this.em);
    this.platform = db.em.getPlatform();
  }

  /** With traces on, a span per script; none for probes, the idle dispatcher's looks (40 a second) that nothing waits for. */
  run<A, R>(name: string, definition: ScriptDefinition<A, R>, args: A): Promise<R> {
    if (!tracingOn || definition.mode === 'probe') return this.execute(definition, args);
    return withSpan(`SQL ${name}`, { 'db.system': this.kind, 'db.query.name': name }, () => this.execute(definition, args));
  }

  private execute<A, R>(definition: ScriptDefinition<A, R>, args: A): Promise<R> {
    if (!transactional(definition.mode)) return definition.run(this.context(this.sql), args);
    return this.sql.transaction().execute((trx) => definition.run(this.context(trx), args));
  }

  private context(sql: Sql): ScriptContext {
    let plain: Kysely<DB> | undefined;
    return {
      sql,
      kind: this.kind,
      run: async <P extends Record<string, unknown>, Row>(statement: StatementDefinition<P, Row>, params: P): Promise<Row[]> => {
        const { statement: compiled, decode } = this.compiled(statement as StatementDefinition<never, unknown>, params);
        plain ??= sql.withoutPlugins();
        const { rows } = await plain.executeQuery(CompiledQuery.raw(compiled.sql, compiled.bind(params)));
        return (decode ? rows.map(decode) : rows) as Row[];
      },
    };
  }

  private compiled(definition: StatementDefinition<never, unknown>, params: Record<string, unknown>): Prepared {
    const count = itemCount(definition, params);
    let byCount = this.prepared.get(definition);
    if (!byCount) {
      byCount = new Map();
      this.prepared.set(definition, byCount);
    }
    let prepared = byCount.get(count);
    if (!prepared) {
      const target = { kind: this.kind, platform: this.platform, byTable: tableIndex(this.em.getMetadata()) };
      const statement = compileStatement(definition, this.sql, target, count);
      const node = statement.node;
      const decode = SelectQueryNode.is(node) ? decoderOf(node, this.em, this.platform) : undefined;
      if (SelectQueryNode.is(node) && !decode) throw new Error(`The statement ${definition.name} selects something else than columns`);
      prepared = { statement, decode };
      byCount.set(count, prepared);
    }
    return prepared;
  }
}
