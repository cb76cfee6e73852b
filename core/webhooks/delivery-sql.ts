import type { EntityManager } from '@mikro-orm/core';
import type { DatabaseKind } from '../db/orm.ts';

/**
 * Plain SQL for the dispatcher's hot path: turning outbox rows into deliveries, reading a lane's
 * queue, recording attempts. Going through entities there cost more than the HTTP requests
 * themselves (entity construction and change tracking for rows that are written once and read
 * once), so these statements bypass the unit of work and write rows as MikroORM's platforms
 * store them (see `RowCodec`). Everything else about deliveries stays on the entities.
 */

/** Rows per multi-row statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 400;

/** Column values as each database keeps them: MikroORM's SQLite platform stores dates as epoch milliseconds and JSON as text. */
export class RowCodec {
  constructor(readonly kind: DatabaseKind) {}

  date(value: Date): Date | number {
    return this.kind === 'sqlite' ? value.getTime() : value;
  }

  readDate(value: unknown): Date {
    return value instanceof Date ? value : new Date(typeof value === 'string' && !/^\d+$/.test(value) ? value : Number(value));
  }

  bool(value: boolean): boolean | number {
    return this.kind === 'sqlite' ? (value ? 1 : 0) : value;
  }

  readBool(value: unknown): boolean {
    return value === true || value === 1 || value === '1';
  }

  /** JSON text; PostgreSQL casts it into its jsonb column. */
  json(value: unknown): string {
    return JSON.stringify(value);
  }

  readJson<T>(value: unknown): T {
    return (typeof value === 'string' ? JSON.parse(value) : value) as T;
  }
}

export interface Sql {
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
}

/** Statements on `em`'s connection, inside its transaction when it has one. */
export function sqlOf(em: EntityManager): Sql {
  const connection = em.getConnection();
  return {
    all: <T>(sql: string, params: unknown[] = []) => connection.execute<T[]>(sql, params, 'all', em.getTransactionContext()),
    run: async (sql: string, params: unknown[] = []) => {
      await connection.execute(sql, params, 'run', em.getTransactionContext());
    },
  };
}

/** `insert into table (columns) values (…), (…)`, in as few statements as the parameter limits allow. */
export async function insertRows(sql: Sql, table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const values = chunk.map(() => tuple).join(', ');
    await sql.run(`insert into ${table} (${columns.join(', ')}) values ${values}`, chunk.flat());
  }
}

/** Runs `statement(placeholders, ids)` over `ids` in chunks, `placeholders` being `?, ?, …` for the chunk. */
export async function forChunks(ids: string[], statement: (placeholders: string, chunk: string[]) => Promise<void>): Promise<void> {
  for (let start = 0; start < ids.length; start += ROWS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + ROWS_PER_STATEMENT);
    await statement(chunk.map(() => '?').join(', '), chunk);
  }
}

export const DELIVERY_COLUMNS = [
  'id',
  'destination_id',
  'organization_id',
  'seq',
  'event_id',
  'type',
  'envelope',
  'test',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
] as const;

export const ATTEMPT_COLUMNS = ['delivery_id', 'number', 'at', 'duration_ms', 'status_code', 'error', 'response_excerpt'] as const;
