import { columnIndexes, statement } from '../db/query-layer.ts';
import { DISCOVERABLE_ORGANIZATION_SQL, PUBLIC_EVENT_SQL, PUBLIC_NEED_SQL } from '../visibility.ts';

// The public read path's statements (services/public-reads.ts runs them), the visibility rules
// applied in them. A deep page seeks its index with one row-value comparison,
// `(published_at, id) < (?, ?)`: SQLite and PostgreSQL both seek a `(…, column, id)` index
// straight to it, where `column <= t and (column < t or id < i)` scans every row sharing `t`.

// Rows are arrays in the order of these lists (the query layer's array rows); `id` comes first.
const NEED_COLUMNS = [
  'id',
  'organization_id',
  'title',
  'description',
  'required_expertise',
  'remote_allowed',
  'city',
  'region',
  'country',
  'deadline',
  'state',
  'discreet',
  'demo',
  'version',
  'published_at',
  'withdrawn_at',
  'updated_at',
] as const;
const EVENT_COLUMNS = [
  'id',
  'host_id',
  'title',
  'description',
  'starts_at',
  'ends_at',
  'timezone',
  'online',
  'city',
  'region',
  'country',
  'status',
  'demo',
  'version',
  'cancelled_at',
  'updated_at',
] as const;
const ORGANIZATION_COLUMNS = [
  'id',
  'name',
  'plan',
  'listed',
  'demo',
  'complete',
  'description',
  'website',
  'logo_url',
  'sectors',
  'capabilities',
  'networks',
  'city',
  'region',
  'country',
  'partner_payments_due',
  'partner_payments_confirmed',
  'partners_count',
  'completed_packs',
  'references_count',
  'certifications_count',
  'created_at',
  'updated_at',
] as const;
// A need's and an event's rows end with their organization's name (see `nameOf`).
export const N = columnIndexes([...NEED_COLUMNS, 'organization_name'] as const);
export const E = columnIndexes([...EVENT_COLUMNS, 'host_name'] as const);
export const O = columnIndexes(ORGANIZATION_COLUMNS);

/**
 * A need's or an event's organization name, read with the row: one primary-key lookup per row,
 * where the schema would otherwise load the names with a second statement. A subquery rather than
 * a join, so the visibility conditions keep naming the row's own columns (`demo` is a column of
 * organizations too).
 */
const nameOf = (column: string, alias: string) => (table: string) =>
  `(select o.name from organizations as o where o.id = ${table}.${column}) as ${alias}`;
const NEED_NAME = nameOf('organization_id', 'organization_name');
const HOST_NAME = nameOf('host_id', 'host_name');

/** `columns` of `table`, then the `computed` one when given. */
const selectList = (table: string, columns: readonly string[], computed?: (table: string) => string) =>
  [...columns.map((c) => `${table}.${c}`), ...(computed ? [computed(table)] : [])].join(', ');

/**
 * `id in (the ids)`, with the list as one parameter: one prepared statement for any number of
 * ids. On SQLite the list's rows lead the join (`cross join` fixes the order), so each id is one
 * primary-key lookup rather than a scan of the table probing the list.
 */
const byIds = (table: string, columns: readonly string[], where: string, computed?: (table: string) => string) => ({
  sqlite:
    `select ${selectList('t', columns, computed)} from json_each(?) as j cross join ${table} as t on t.id = j.value` +
    (where ? ` where ${where}` : ''),
  postgresql: `select ${selectList(table, columns, computed)} from ${table} where id = any(?::text[])${where ? ` and ${where}` : ''}`,
});

export type Row = readonly unknown[];

export const STATEMENTS = {
  needsById: statement<Row>('public_needs_by_id', byIds('needs', NEED_COLUMNS, PUBLIC_NEED_SQL, NEED_NAME)),
  needsFirst: statement<Row>(
    'public_needs_first',
    `select ${selectList('needs', NEED_COLUMNS, NEED_NAME)} from needs where ${PUBLIC_NEED_SQL} order by published_at desc, id desc limit ?`,
  ),
  needsAfter: statement<Row>(
    'public_needs_after',
    `select ${selectList('needs', NEED_COLUMNS, NEED_NAME)} from needs where ${PUBLIC_NEED_SQL} and (published_at, id) < (?, ?) ` +
      'order by published_at desc, id desc limit ?',
  ),
  eventsById: statement<Row>('public_events_by_id', byIds('events', EVENT_COLUMNS, PUBLIC_EVENT_SQL, HOST_NAME)),
  eventsFirst: statement<Row>(
    'public_events_first',
    `select ${selectList('events', EVENT_COLUMNS, HOST_NAME)} from events where ${PUBLIC_EVENT_SQL} and ends_at > ? order by starts_at, id limit ?`,
  ),
  eventsAfter: statement<Row>(
    'public_events_after',
    `select ${selectList('events', EVENT_COLUMNS, HOST_NAME)} from events where ${PUBLIC_EVENT_SQL} and ends_at > ? and (starts_at, id) > (?, ?) ` +
      'order by starts_at, id limit ?',
  ),
  organizationsById: statement<Row>('organizations_by_id', byIds('organizations', ORGANIZATION_COLUMNS, '')),
  organizationNames: statement<[id: string, name: string]>('organization_names_by_id', byIds('organizations', ['id', 'name'], '')),
  discoverable: statement<Row>(
    'discoverable_organizations',
    `select ${selectList('organizations', ORGANIZATION_COLUMNS)} from organizations where ${DISCOVERABLE_ORGANIZATION_SQL} order by id`,
  ),
};

/** The list statements, for tests and benchmarks that check the databases' plans of them. */
export const PUBLIC_LIST_STATEMENTS = {
  needsFirst: STATEMENTS.needsFirst,
  needsAfter: STATEMENTS.needsAfter,
  eventsAfter: STATEMENTS.eventsAfter,
} as const;
