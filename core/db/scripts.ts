/**
 * Scripts: units of database work written once for both databases, in plain SQL, beside the
 * query layer's single statements (query-layer.ts). The dispatcher's hot path uses them (turning
 * outbox rows into deliveries, reading a lane's queue, recording attempts, leasing lanes: see
 * core/webhooks/delivery-scripts.ts): going through entities there cost more than the HTTP
 * requests themselves, so these statements bypass the unit of work and write rows as MikroORM's
 * platforms store them (`RowCodec` in row-codec.ts).
 *
 * A `Script` is a generator that yields statements and gets their rows back. A runner carries it
 * out on one database: on PostgreSQL the query layer's runner, in a transaction on one of the
 * ORM pool's connections; on SQLite the delivery store's own connection on a thread of its own
 * (core/webhooks/script-runners.ts).
 */

export type SqlOp =
  | { op: 'all'; sql: string; params: readonly unknown[] }
  | { op: 'run'; sql: string; params: readonly unknown[] }
  | { op: 'insert'; table: string; columns: readonly string[]; rows: readonly (readonly unknown[])[] };

/** A unit of database work: yields statements, receives each one's rows, returns its result. */
export type Script<T> = Generator<SqlOp, T, unknown>;

export function* all<T>(sql: string, params: readonly unknown[] = []): Script<T[]> {
  return (yield { op: 'all', sql, params }) as T[];
}

export function* run(sql: string, params: readonly unknown[] = []): Script<void> {
  yield { op: 'run', sql, params };
}

/** `insert into table (columns) values …`; the runner picks how many rows go in one statement. */
export function* insert(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Script<void> {
  if (rows.length > 0) yield { op: 'insert', table, columns, rows };
}

/** Ids per `in (…)` list: well under both databases' bound-parameter limits. */
const IDS_PER_STATEMENT = 100;

/** Runs `statement(placeholders)` over `ids` in chunks, with `params` first and the chunk's ids after. */
export function* forIds(
  ids: readonly (string | number)[],
  params: readonly unknown[],
  statement: (placeholders: string) => string,
): Script<void> {
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
    yield* run(statement(chunk.map(() => '?').join(', ')), [...params, ...chunk]);
  }
}

/** The rows of `statement(placeholders)` over `ids`, read in chunks as `forIds` writes. */
export function* allForIds<T>(ids: readonly (string | number)[], statement: (placeholders: string) => string): Script<T[]> {
  const found: T[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
    found.push(...(yield* all<T>(statement(chunk.map(() => '?').join(', ')), chunk)));
  }
  return found;
}

/** The multi-row insert statement for `count` rows. */
export function insertSql(table: string, columns: readonly string[], count: number): string {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: count }, () => tuple).join(', ')}`;
}
