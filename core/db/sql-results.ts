import type { EntityMetadata, EntityProperty, Platform } from '@mikro-orm/core';
import { type EntityManager, MikroKyselyPlugin, type MikroKyselyPluginOptions } from '@mikro-orm/sql';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
} from 'kysely';
import { converter, type Field, propertyNamed, propertyOf, recordOf, selections, tableIndex } from './row-decoding.ts';

export type Decode = (row: unknown) => unknown;

/**
 * MikroORM's Kysely plugin, with its results decoded once per statement shape.
 *
 * The plugin names queries' tables and columns from the entity metadata and converts values both
 * ways; this one leaves the queries to it. Its results it converts row by row over a map of every
 * column of every entity in the query (four entries per property, a copy and a delete per renamed
 * column): a fifth of the webhook dispatcher's database thread went there. Here a select of plain
 * columns (or of aliases naming one) is decoded by a record function written for its selections (row-decoding.ts): each column
 * named by the property it reads and converted as the plugin converts it (relations as keys). Any
 * other statement's results (`*`, expressions, a join's aliases, returning clauses, raw SQL) go
 * through the plugin.
 */
export class PropertyResults implements KyselyPlugin {
  private readonly plugin: MikroKyselyPlugin;
  private readonly em: EntityManager;
  private readonly platform: Platform;
  private readonly decoders = new WeakMap<QueryId, Decode>();

  constructor(em: EntityManager, options: MikroKyselyPluginOptions) {
    this.plugin = new MikroKyselyPlugin(em, options);
    this.em = em;
    this.platform = em.getPlatform();
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = this.plugin.transformQuery(args);
    if (SelectQueryNode.is(node)) {
      const decode = decoderOf(node, this.em, this.platform);
      if (decode) this.decoders.set(args.queryId, decode);
    }
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const decode = this.decoders.get(args.queryId);
    if (!decode) return this.plugin.transformResult(args);
    const rows = args.result.rows;
    const decoded = new Array<UnknownRow>(rows.length);
    for (let i = 0; i < rows.length; i++) decoded[i] = decode(rows[i]) as UnknownRow;
    return { ...args.result, rows: decoded };
  }
}

/** Record functions by statement shape: the tables and columns a select reads (statements are code: few shapes). */
const SHAPES_KEPT = 1_000;
const shapes = new WeakMap<Platform, Map<string, Decode | null>>();

/** The decoder of a select of plain columns, each one a property's; undefined for any other select. */
export function decoderOf(node: SelectQueryNode, em: EntityManager, platform: Platform): Decode | undefined {
  const read = selections(node, tableIndex(em.getMetadata()));
  if (!read) return undefined;
  let shape = '';
  for (const { key, meta, alias } of read.selected) shape += `${meta?.className ?? ''}.${key}${alias ? ' as' : ''}\0`;
  for (const meta of read.entities) shape += `${meta.className}\0`;
  let byShape = shapes.get(platform);
  if (!byShape) {
    byShape = new Map();
    shapes.set(platform, byShape);
  }
  const known = byShape.get(shape);
  if (known !== undefined) return known ?? undefined;
  if (byShape.size >= SHAPES_KEPT) byShape.clear();

  const fields: Field[] = [];
  const keys = new Set<string>();
  for (const { key, meta, alias } of read.selected) {
    const prop = propertyOf(meta, key) ?? (alias ? aliased(read.entities, key) : undefined);
    // Anything else keeps the plugin's conversion; so do two selections under one key, which come
    // back as one value that the plugin resolves by its own order.
    if (!prop || keys.has(key)) {
      byShape.set(shape, null);
      return undefined;
    }
    keys.add(key);
    fields.push({ name: prop.name, from: key, convert: converter(prop, platform, 'key') });
  }
  const decode = recordOf(fields);
  byShape.set(shape, decode);
  return decode;
}

/**
 * The property an alias reads, as the plugin finds it, by name: a column or a property of one of
 * the statement's entities (the plugin itself selects a JSON column as `kinds as kinds`). Undefined
 * when none or several have it.
 */
function aliased(entities: readonly EntityMetadata[], key: string): EntityProperty | undefined {
  const found = entities.map((meta) => propertyOf(meta, key) ?? propertyNamed(meta, key)).filter((prop) => prop !== undefined);
  return found.length === 1 ? found[0] : undefined;
}
