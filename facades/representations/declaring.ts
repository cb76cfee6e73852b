// How a resource of the public API is declared once: each JSON name (snake_case, docs/service-contract.md#resources) with
// the GraphQL field it comes from, typed against the schema's generated types, and its JSON
// schema. The GraphQL selection and the OpenAPI schema are derived from the declaration, so a field
// the schema gains reaches the API by one line here (and `npm run codegen`), and the compiler
// refuses a field the type lacks or a JSON schema that does not fit its values.
//
// The selection names each field by its JSON name, a GraphQL alias (`remote_allowed:
// remoteAllowed`): a document that selects a resource's fragment alone gets the resource's JSON as
// its result, in the declared order, and nothing else. No layer copies it into another shape.

/** A JSON schema, as written in the OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

/**
 * A JSON schema for values of type T. The phantom is contravariant: a field's values must fit its
 * schema (a nullable GraphQL field needs a nullable schema), while a wider schema is allowed.
 */
export interface ValueSchema<T> {
  readonly schema: JsonSchema;
  readonly fits?: (value: T) => void;
}

const value = <T>(schema: JsonSchema): ValueSchema<T> => ({ schema });
export const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const string = (extra: object = {}) => value<string>({ type: 'string', ...extra });
export const nullableString = (extra: object = {}) => value<string | null>(nullable('string', extra));
export const integer = (extra: object = {}) => value<number>({ type: 'integer', ...extra });
export const nullableInteger = (extra: object = {}) => value<number | null>(nullable('integer', extra));
export const boolean = () => value<boolean>({ type: 'boolean' });
export const strings = () => value<string[]>({ type: 'array', items: { type: 'string' } });
export const dateTime = () => value<string>({ type: 'string', format: 'date-time', examples: ['2026-11-22T10:00:00.000Z'] });
export const nullableDateTime = () => value<string | null>(nullable('string', { format: 'date-time' }));
/**
 * A schema stating the value is always present although its GraphQL field is nullable, for a field
 * the public read path only ever fills (say why at the use).
 */
export const alwaysPresent = <T>(schema: ValueSchema<T>) => schema as ValueSchema<T | null>;

/** A resource, or a nested object of one, of the GraphQL type `Source`, whose JSON is `Json`. */
export interface Representation<Json = unknown, Source = unknown> {
  /** The GraphQL selection, each field aliased to its JSON name: `id name logo_url: logoUrl place { city region country }`. */
  readonly selection: string;
  /**
   * The JSON of a result selected with `selection` (typed by its generated document): the result
   * itself. The compiler holds the document's type to the declared JSON.
   */
  json(node: Json): Json;
  /** The object's JSON schema, closed (`additionalProperties: false`). */
  readonly schema: JsonSchema;
  /** Named in the OpenAPI document's components: nested uses are `$ref`s to it. */
  readonly component: string | undefined;
  /** Never set: types the GraphQL object it is declared against, so a nested use must be of that type. */
  readonly accepts?: (source: Source) => void;
}

type Key<N> = keyof N & string;

/** A JSON field copied as is from the GraphQL field `from`. */
interface CopiedField<N, K extends Key<N>> {
  from: K;
  schema: ValueSchema<N[K]>;
}

/** A JSON object built from the GraphQL object field `from` by another representation. */
type NestedField<N, K extends Key<N>> = {
  from: K;
  of: Representation<unknown, NonNullable<N[K]>>;
  /** Said of a nested object whose JSON schema is written out in place. */
  description?: string;
} & (null extends N[K] ? { nullable: true } : { nullable?: false });

type FieldOf<N> = { [K in Key<N>]: CopiedField<N, K> | NestedField<N, K> }[Key<N>];

/** The JSON of a declaration: the declared names, each with its GraphQL field's value or its nested JSON. */
export type JsonOf<N, S extends Record<string, FieldOf<N>>> = {
  -readonly [J in keyof S]: S[J] extends { of: Representation<infer O, never> } ? O | Extract<N[S[J]['from']], null> : N[S[J]['from']];
};

interface Options {
  /** Name in the OpenAPI document's components; nested uses become `$ref`s. */
  component?: string;
  description?: string;
}

/**
 * Declares a representation of the GraphQL type N: `representation<Schema.Event>()({ starts_at:
 * { from: 'startsAt', schema: dateTime() }, … })`. JSON fields keep the declaration's order.
 */
export function representation<N>() {
  return <const S extends Record<string, FieldOf<N>>>(fields: S, options: Options = {}): Representation<JsonOf<N, S>, N> => {
    const entries = Object.entries(fields) as [string, FieldOf<N>][];
    const selection = entries
      .map(([name, field]) => {
        const aliased = name === field.from ? name : `${name}: ${field.from}`;
        return 'of' in field ? `${aliased} { ${field.of.selection} }` : aliased;
      })
      .join(' ');
    const properties: Record<string, JsonSchema> = {};
    for (const [name, field] of entries) properties[name] = 'of' in field ? nestedSchema(field) : field.schema.schema;
    const schema = {
      type: 'object',
      ...(options.description === undefined ? {} : { description: options.description }),
      required: entries.map(([name]) => name),
      additionalProperties: false,
      properties,
    };
    return { selection, json: (node) => node, schema, component: options.component };
  };
}

function nestedSchema(field: { of: Representation<unknown, never>; nullable?: boolean; description?: string }): JsonSchema {
  const { of } = field;
  const description = field.description === undefined ? {} : { description: field.description };
  if (of.component === undefined) return { ...of.schema, ...description };
  // The `type` beside `oneOf` says nothing new (a component is an object), but strict readers such
  // as the API reference's renderer refuse a composition without one.
  return field.nullable
    ? { type: ['object', 'null'], oneOf: [ref(of.component), { type: 'null' }], ...description }
    : { ...ref(of.component), ...description };
}

/** The OpenAPI components of these representations, by name. */
export const components = (...representations: Representation<unknown, never>[]) =>
  Object.fromEntries(representations.map((r) => [r.component!, r.schema]));
