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

/** A stored date as the ORM reads it: a value without a zone is taken in the platform's time zone. */
function dateParser(platform: Platform): Convert {
  const zone = platform.getTimezone();
  if (!zone || zone === 'local') return (value) => (value instanceof Date ? value : platform.parseDate(value as string | number));
  return (value) => {
    if (value instanceof Date) return value;
    if (typeof value === 'bigint') return platform.parseDate(Number(value));
    const text = value as string | number;
    const zoned = typeof text === 'number' || text.includes('+') || text.lastIndexOf('-') > 10 || text.endsWith('Z');
    return platform.parseDate(zoned ? text : text + zone);
  };
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
