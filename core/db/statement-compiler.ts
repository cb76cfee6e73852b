import type { EntityMetadata, EntityProperty, Platform } from '@mikro-orm/core';
import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  ColumnUpdateNode,
  type CompiledQuery,
  type Expression,
  InsertQueryNode,
  type OperationNode,
  PrimitiveValueListNode,
  type RawBuilder,
  ReferenceNode,
  sql,
  TableNode,
  TupleNode,
  ValueListNode,
  ValuesNode,
} from 'kysely';
import type { DatabaseKind } from './orm.ts';
import { propertyOf } from './row-decoding.ts';
import type { Sql } from './sql.ts';

// Statements written with the SQL layer's query builder (sql.ts) and compiled once: their values
// are placeholders, bound at each run and converted as the entity property each one is compared
// with, written to or inserted into says (what MikroORM's Kysely plugin does to the values of a
// query it compiles). The public read path (prepared.ts) and the dispatcher's scripts (scripts.ts)
// run them: building and compiling a query costs more than running it there.

/** A value bound when the statement runs: `params[name]`, or a field of one of its items. */
class Placeholder {
  /** MikroORM's Kysely plugin leaves values with a `kind` as they are: the binder converts them. */
  readonly kind = 'placeholder';
  readonly name: string;
  /** For an item of a batch: its index and field. */
  readonly item: { readonly index: number; readonly field: string } | undefined;

  constructor(name: string, item?: { index: number; field: string }) {
    this.name = name;
    this.item = item;
  }
}

/** A list of ids bound as one parameter: a JSON array on SQLite (`json_each`), an array on PostgreSQL (`any`). */
class IdListPlaceholder extends Placeholder {}

export type Placeholders<P> = { readonly [K in keyof P]: Expression<P[K]> };

type ItemOf<P, K extends keyof P> = P[K] extends readonly (infer I)[] ? I : never;

/** What a statement's builder may use beside the query builder. */
export interface Build<P> {
  /** The statement's parameters, as expressions. */
  readonly p: Placeholders<P>;
  readonly kind: DatabaseKind;
  /**
   * A table of one column `value` over a list of ids (a parameter of type `readonly string[]`), to
   * drive a join from: one statement for any number of ids, each a primary-key lookup.
   */
  idTable(name: keyof P & string): RawBuilder<{ value: string }>;
  /**
   * The items of the list parameter `name`, one placeholder per field of `fields` in each: a
   * statement using it is compiled once per number of items (a multi-row insert).
   */
  items<K extends keyof P & string, const F extends readonly (keyof ItemOf<P, K> & string)[]>(
    name: K,
    fields: F,
  ): Placeholders<Pick<ItemOf<P, K>, F[number]>>[];
}

export interface StatementDefinition<P, Row> {
  readonly name: string;
  readonly build: (db: Sql, b: Build<P>) => { compile(): CompiledQuery<Row> };
  /** The list parameter whose length the statement is compiled for (see `Build.items`). */
  readonly itemsOf?: keyof P & string;
}

/** A statement compiled once per process (per number of items for a batch), on first use. */
export function prepared<P extends Record<string, unknown>, Row>(
  name: string,
  build: (db: Sql, b: Build<P>) => { compile(): CompiledQuery<Row> },
): StatementDefinition<P, Row> {
  return { name, build };
}

/** A statement over the items of the list parameter `itemsOf`: compiled once per number of items. */
export function batch<P extends Record<string, unknown>, Row = never>(
  name: string,
  itemsOf: keyof P & string,
  build: (db: Sql, b: Build<P>) => { compile(): CompiledQuery<Row> },
): StatementDefinition<P, Row> {
  return { name, build, itemsOf };
}

/** The number of items a run of `statement` binds (0 when it is no batch). */
export function itemCount(statement: StatementDefinition<never, unknown>, params: Record<string, unknown>): number {
  return statement.itemsOf ? (params[statement.itemsOf] as readonly unknown[]).length : 0;
}

export interface CompiledStatement {
  readonly name: string;
  readonly sql: string;
  /** The query as compiled, its tables and columns named as the database names them. */
  readonly node: OperationNode;
  /** The parameters of one run. */
  bind(params: Record<string, unknown>): unknown[];
}

/** What compiling needs of the database: its kind, its platform and its entities by table. */
export interface CompileTarget {
  readonly kind: DatabaseKind;
  readonly platform: Platform;
  readonly byTable: ReadonlyMap<string, EntityMetadata>;
}

/** Compiles `statement` with `builder` (which runs nothing), for `count` items when it is a batch. */
export function compileStatement(
  statement: StatementDefinition<never, unknown>,
  builder: Sql,
  target: CompileTarget,
  count: number,
): CompiledStatement {
  const names = new Map<string, Placeholder>();
  const placeholder = (name: string, make = (n: string) => new Placeholder(n)) => {
    let found = names.get(name);
    if (!found) {
      found = make(name);
      names.set(name, found);
    }
    return found;
  };
  const p = new Proxy({} as Placeholders<never>, { get: (_, name) => sql`${placeholder(String(name))}` });
  const { kind } = target;
  const idTable = (name: string) =>
    kind === 'sqlite'
      ? sql<{ value: string }>`json_each(${placeholder(name, (n) => new IdListPlaceholder(n))})`
      : sql<{ value: string }>`(select unnest(${placeholder(name, (n) => new IdListPlaceholder(n))}::text[]) as value)`;
  const items = (name: string, fields: readonly string[]) =>
    Array.from({ length: count }, (_, index) =>
      Object.fromEntries(fields.map((field) => [field, sql`${new Placeholder(name, { index, field })}`])),
    );
  const query = statement.build(builder, { p, kind, idTable, items: items as never }).compile();
  return { name: statement.name, sql: query.sql, node: query.query, bind: binder(query.parameters, query.query, target) };
}

type Bind = (params: Record<string, unknown>) => unknown;

/** The function giving a run's parameters: fixed values as compiled, placeholders read from the run's and converted. */
function binder(
  parameters: readonly unknown[],
  node: OperationNode,
  target: CompileTarget,
): (params: Record<string, unknown>) => unknown[] {
  const props = placeholderProperties(node, target.byTable);
  const { platform, kind } = target;
  const binds = parameters.map((parameter): Bind => {
    if (!(parameter instanceof Placeholder)) return () => parameter;
    const { name, item } = parameter;
    const read: Bind = item
      ? (params) => (params[name] as readonly Record<string, unknown>[])[item.index]![item.field]
      : (params) => params[name];
    if (parameter instanceof IdListPlaceholder) return kind === 'sqlite' ? (params) => JSON.stringify(read(params)) : read;
    const type = props.get(parameter)?.customType;
    const key = props.get(parameter)?.name;
    return (params) => {
      const value = read(params);
      if (value == null) return value;
      if (type) return type.convertToDatabaseValue(value, platform, { fromQuery: true, key, mode: 'query-data' });
      return value instanceof Date ? platform.processDateProperty(value) : value;
    };
  });
  return (params) => {
    const values = new Array<unknown>(binds.length);
    for (let i = 0; i < binds.length; i++) values[i] = binds[i]!(params);
    return values;
  };
}

/**
 * The entity property each placeholder of `node` is bound to: the column it is inserted into,
 * set to, or compared with (`column = ?`, `(a, b) > (?, ?)`), as MikroORM's plugin finds it. An
 * unqualified column is read as one of the statement's first table: qualify the columns of a
 * sub-query's own table. A placeholder bound to no property is converted by its value (dates).
 */
function placeholderProperties(node: OperationNode, byTable: ReadonlyMap<string, EntityMetadata>): Map<Placeholder, EntityProperty> {
  const tables = new Map<string, EntityMetadata>();
  let main: EntityMetadata | undefined;
  const found = new Map<Placeholder, EntityProperty>();

  const visit = (value: unknown, into: (p: Placeholder) => void): void => {
    if (value instanceof Placeholder) into(value);
    else if (Array.isArray(value)) for (const v of value) visit(v, into);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) visit(v, into);
  };
  // The tables first, by alias or name; the first one is the one unqualified columns belong to.
  const table = (item: OperationNode) => {
    const [t, alias] = AliasNode.is(item) ? [item.node, item.alias] : [item, undefined];
    if (!TableNode.is(t)) return;
    const meta = byTable.get(t.table.identifier.name);
    if (!meta) return;
    main ??= meta;
    tables.set(alias && 'name' in alias ? String(alias.name) : t.table.identifier.name, meta);
  };
  const collectTables = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) collectTables(v);
    else if (value && typeof value === 'object' && !(value instanceof Placeholder)) {
      const n = value as OperationNode;
      if (AliasNode.is(n) || TableNode.is(n)) table(n);
      for (const v of Object.values(value)) collectTables(v);
    }
  };
  collectTables(node);

  const columnProperty = (ref: OperationNode): EntityProperty | undefined => {
    if (ColumnNode.is(ref)) return propertyOf(main, ref.column.name);
    if (ReferenceNode.is(ref) && ColumnNode.is(ref.column)) {
      const meta = ref.table ? tables.get(ref.table.table.identifier.name) : main;
      return propertyOf(meta, ref.column.column.name);
    }
    return undefined;
  };
  const bindAll = (value: unknown, prop: EntityProperty | undefined) =>
    visit(value, (p) => {
      if (prop && !found.has(p)) found.set(p, prop);
    });

  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v);
      return;
    }
    if (!value || typeof value !== 'object' || value instanceof Placeholder) return;
    const n = value as OperationNode;
    if (InsertQueryNode.is(n) && n.columns && n.values && ValuesNode.is(n.values)) {
      const into = n.into ? byTable.get(n.into.table.identifier.name) : undefined;
      for (const row of n.values.values) {
        const cells = PrimitiveValueListNode.is(row) || ValueListNode.is(row) ? row.values : [];
        for (const [i, cell] of cells.entries()) bindAll(cell, propertyOf(into, n.columns[i]?.column.name ?? ''));
      }
    } else if (ColumnUpdateNode.is(n)) bindAll(n.value, columnProperty(n.column));
    else if (BinaryOperationNode.is(n)) {
      const { leftOperand: left, rightOperand: right } = n;
      if (TupleNode.is(left) && TupleNode.is(right))
        for (const [i, v] of right.values.entries()) bindAll(v, left.values[i] && columnProperty(left.values[i]));
      else bindAll(right, columnProperty(left));
    }
    for (const v of Object.values(value)) walk(v);
  };
  walk(node);
  return found;
}
