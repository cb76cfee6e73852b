import type { EntityMetadata, EntityProperty, MetadataStorage, Platform } from '@mikro-orm/core';
import {
  AliasNode,
  type FromNode,
  JoinNode,
  type OperationNode,
  ReferenceNode,
  SelectionNode,
  type SelectQueryNode,
  TableNode,
} from 'kysely';

// Reading a select statement's rows off its compiled query: each selected column named by the
// entity property it reads, its value converted as the property's metadata says. Prepared
// statements decode their array rows with it (prepared.ts); the SQL layer's results decode
// object rows with it (sql-results.ts). No column list or row decoder is written by hand.

export type Convert = (value: unknown) => unknown;

/** What one selection of a select statement reads. */
export interface Selected {
  /** The column's name, or the selection's alias. */
  readonly key: string;
  /** The entity owning the column, when known. */
  readonly meta: EntityMetadata | undefined;
  /** Whether `key` is an alias rather than a column. */
  readonly alias: boolean;
}

/** Entity metadata by table name, once per metadata storage. */
const tableIndexes = new WeakMap<MetadataStorage, Map<string, EntityMetadata>>();

export function tableIndex(metadata: MetadataStorage): ReadonlyMap<string, EntityMetadata> {
  let index = tableIndexes.get(metadata);
  if (!index) {
    index = new Map([...metadata.getAll().values()].map((meta) => [meta.tableName, meta]));
    tableIndexes.set(metadata, index);
  }
  return index;
}

/** What a select statement reads: its entities (from and joins) and its selections. */
export interface Selections {
  readonly entities: readonly EntityMetadata[];
  readonly selected: readonly Selected[];
}

/**
 * The selections of `node` (its tables already named as the database names them), each with the
 * entity it reads from (for an alias, the entity when there is one); undefined when one selects
 * anything but a column or an aliased expression (`*`, a table's `*`).
 */
export function selections(node: SelectQueryNode, byTable: ReadonlyMap<string, EntityMetadata>): Selections | undefined {
  const entities = new Map<string, EntityMetadata>();
  const from = (item: OperationNode) => {
    const [table, alias] = AliasNode.is(item) ? [item.node, item.alias] : [item, undefined];
    if (!TableNode.is(table)) return;
    const name = table.table.identifier.name;
    const meta = byTable.get(name);
    if (meta) entities.set(alias && 'name' in alias ? String(alias.name) : name, meta);
  };
  for (const item of (node.from as FromNode | undefined)?.froms ?? []) from(item);
  for (const join of node.joins ?? []) if (JoinNode.is(join)) from(join.table);
  const only = entities.size === 1 ? [...entities.values()][0] : undefined;

  const selected: Selected[] = [];
  for (const selection of node.selections ?? []) {
    const s = SelectionNode.is(selection) ? selection.selection : selection;
    if (ReferenceNode.is(s) && 'column' in s.column) {
      const meta = s.table ? entities.get(s.table.table.identifier.name) : only;
      selected.push({ key: s.column.column.name, meta, alias: false });
    } else if (AliasNode.is(s) && 'name' in s.alias) selected.push({ key: String(s.alias.name), meta: only, alias: true });
    else return undefined;
  }
  return { entities: [...entities.values()], selected };
}

/** Properties by their first column, once per entity. */
const columnIndexes = new WeakMap<EntityMetadata, Map<string, EntityProperty>>();

/** The property of `meta` stored in `column`, if any. */
export function propertyOf(meta: EntityMetadata | undefined, column: string): EntityProperty | undefined {
  if (!meta) return undefined;
  let index = columnIndexes.get(meta);
  if (!index) {
    index = new Map();
    for (const prop of meta.props) {
      const field = prop.fieldNames?.[0];
      if (field && !index.has(field)) index.set(field, prop);
    }
    columnIndexes.set(meta, index);
  }
  return index.get(column);
}

/** The property of `meta` named `name`, if it is stored in a column. */
export function propertyNamed(meta: EntityMetadata | undefined, name: string): EntityProperty | undefined {
  const prop = meta?.properties[name];
  return prop?.fieldNames?.length ? prop : undefined;
}

/**
 * The ORM's conversion of a stored value of `prop`: custom types (JSON among them) through their
 * own converter, booleans, and dates as the platform parses them (in its time zone). A relation
 * comes back as its key (`'key'`, as MikroORM's Kysely plugin gives it) or as a reference
 * (`'reference'`: `{ id }`, as the read path's views take it, which also makes numbers numbers).
 */
export function converter(prop: EntityProperty, platform: Platform, relation: 'key' | 'reference'): Convert | undefined {
  if (prop.kind === 'm:1' || prop.kind === '1:1') return relation === 'reference' ? (id) => ({ id }) : undefined;
  const type = prop.customType;
  if (type) return (value) => type.convertToJSValue(value, platform);
  if (prop.runtimeType === 'boolean') return (value) => !!value;
  if (prop.runtimeType === 'Date' && !platform.isNumericProperty(prop)) return dateParser(platform);
  if (prop.runtimeType === 'number' && relation === 'reference') return (value) => (typeof value === 'number' ? value : Number(value));
  return undefined;
}

/**
 * A stored date as the ORM reads it: a value without a zone is taken in the platform's time zone.
 * PostgreSQL's UTC text is read by `utcInstant` first.
 */
function dateParser(platform: Platform): Convert {
  const parse = ormDateParser(platform);
  return (value) => (value instanceof Date ? value : (utcInstant(value) ?? parse(value)));
}

function ormDateParser(platform: Platform): Convert {
  const zone = platform.getTimezone();
  if (!zone || zone === 'local') return (value) => platform.parseDate(value as string | number);
  return (value) => {
    if (typeof value === 'bigint') return platform.parseDate(Number(value));
    const text = value as string | number;
    const zoned = typeof text === 'number' || text.includes('+') || text.lastIndexOf('-') > 10 || text.endsWith('Z');
    return platform.parseDate(zoned ? text : text + zone);
  };
}

/** The two digits at `i` of `text` as a number, or -1. */
function twoDigits(text: string, i: number): number {
  const tens = text.charCodeAt(i) - 48;
  const ones = text.charCodeAt(i + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

/**
 * PostgreSQL's text of a timestamptz in a UTC session (MikroORM keeps timestamps as text):
 * `2026-11-28 23:25:16.123456+00`, read straight from its characters, the fraction cut to
 * milliseconds as postgres-date cuts it. Any other text (another zone, a year before 1000, BC,
 * infinity) gives undefined and goes to the ORM's parser. A list page reads three instants a row;
 * in a loop this took 100 ns an instant against the ORM parser's 190.
 */
export function utcInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const n = value.length;
  // 19 characters of date and time, an optional fraction of 1 to 6 digits, then "+00".
  if (n < 22 || n > 29 || n === 23 || !value.endsWith('+00')) return undefined;
  if (value[4] !== '-' || value[7] !== '-' || value[10] !== ' ' || value[13] !== ':' || value[16] !== ':') return undefined;
  const century = twoDigits(value, 0);
  const yy = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const hours = twoDigits(value, 11);
  const minutes = twoDigits(value, 14);
  const seconds = twoDigits(value, 17);
  if (century < 10 || yy < 0 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) return undefined;
  let ms = 0;
  if (n > 22) {
    if (value[19] !== '.') return undefined;
    for (let i = 20, scale = 100; i < n - 3; i++, scale /= 10) {
      const digit = value.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return undefined;
      if (scale >= 1) ms += digit * scale;
    }
  }
  const year = century * 100 + yy;
  if (day > daysInMonth(year, month)) return undefined;
  return new Date(daysSinceEpoch(year, month, day) * 86_400_000 + hours * 3_600_000 + minutes * 60_000 + seconds * 1_000 + ms);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A field of a decoded record: its name, where its value is in a row, and how it is converted. */
export interface Field {
  readonly name: string;
  /** The position in an array row, or the key in an object row. */
  readonly from: number | string;
  readonly convert: Convert | undefined;
}

/**
 * A function building one record from a row, written for these fields: an object literal of fixed
 * shape, so every record of a statement shares one hidden class, which a loop assigning computed
 * keys to an empty object does not give (a by-id read cost a third more with it).
 */
export function recordOf(fields: readonly Field[]): (row: unknown) => unknown {
  for (const { name } of fields) if (!IDENTIFIER.test(name)) throw new Error(`'${name}' cannot name a field of a decoded row`);
  const converters = fields.map((f) => f.convert);
  const body = fields
    .map(({ name, from, convert }, i) => {
      const value = `row[${JSON.stringify(from)}]`;
      return convert ? `${name}: ${value} == null ? ${value} : c[${i}](${value})` : `${name}: ${value}`;
    })
    .join(', ');
  return new Function('c', `return function record(row) { return { ${body} }; };`)(converters) as (row: unknown) => unknown;
}
