// The surface the SOFA peer exposes: Packline's own schema (same builder, same resolvers, same
// scope checks), narrowed to the root fields, arguments and fields the REST facade's named
// operations select. SOFA generates one route per root field, selecting every field of the type
// it returns; on the whole schema that selection includes internal-only fields (`admin`), which an
// API key may not read, and the whole internal surface (mutations included) would be routed.
import {
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  TypeInfo,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  visit,
  visitWithTypeInfo,
  type GraphQLFieldConfig,
  type GraphQLNamedType,
  type GraphQLOutputType,
} from 'graphql';

/** Fields selected per type, and arguments used per field (`Type.field`). */
export interface Selection {
  fields: Map<string, Set<string>>;
  args: Map<string, Set<string>>;
}

/** Every `Type.field` and argument the operations of `source` select, fragments included. */
export function selectionOf(schema: GraphQLSchema, source: string): Selection {
  const fields = new Map<string, Set<string>>();
  const args = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, value: string) => (map.get(key) ?? map.set(key, new Set()).get(key)!).add(value);
  const typeInfo = new TypeInfo(schema);
  visit(
    parse(source),
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        if (!parent || node.name.value.startsWith('__')) return;
        add(fields, parent.name, node.name.value);
        for (const arg of node.arguments ?? []) add(args, `${parent.name}.${node.name.value}`, arg.name.value);
      },
    }),
  );
  return { fields, args };
}

/**
 * A schema holding only `selection`: the same field configs (resolvers, scope checks, dataloaders
 * and extensions untouched) on copies of the object types, without interfaces or mutations.
 */
export function narrowSchema(schema: GraphQLSchema, selection: Selection): GraphQLSchema {
  const made = new Map<string, GraphQLNamedType>();

  const named = (type: GraphQLNamedType): GraphQLNamedType => {
    if (!isObjectType(type)) return type; // scalars and enums are shared as they are
    const existing = made.get(type.name);
    if (existing) return existing;
    const config = type.toConfig();
    const kept = selection.fields.get(type.name) ?? new Set<string>();
    const copy = new GraphQLObjectType({
      ...config,
      interfaces: [],
      fields: () => {
        const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {};
        for (const [name, field] of Object.entries(config.fields)) {
          if (!kept.has(name)) continue;
          const usedArgs = selection.args.get(`${type.name}.${name}`) ?? new Set<string>();
          const args = Object.fromEntries(Object.entries(field.args ?? {}).filter(([arg]) => usedArgs.has(arg)));
          fields[name] = { ...field, type: wrap(field.type), args };
        }
        return fields;
      },
    });
    made.set(type.name, copy);
    return copy;
  };

  const wrap = (type: GraphQLOutputType): GraphQLOutputType => {
    if (isNonNullType(type)) return new GraphQLNonNull(wrap(type.ofType) as Exclude<GraphQLOutputType, GraphQLNonNull<never>>);
    if (isListType(type)) return new GraphQLList(wrap(type.ofType));
    return named(type) as GraphQLOutputType;
  };

  const query = schema.getQueryType();
  if (!query) throw new Error('The schema has no query type');
  return new GraphQLSchema({ query: named(query) as GraphQLObjectType });
}

/**
 * SOFA selects only `id` of a nested object whose type it takes for a "model" (listed by a root
 * field and fetched by id). Every nested object field of the narrowed schema is listed here so
 * SOFA selects it in full, as the REST operations do.
 */
export function nestedObjectFields(schema: GraphQLSchema): string[] {
  const query = schema.getQueryType();
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type === query || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (isObjectType(getNamedType(field.type))) out.push(`${type.name}.${field.name}`);
    }
  }
  return out.sort();
}
