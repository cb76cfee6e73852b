// How the `data` of a webhook signal is declared once (the declarations: core/visibility.ts):
// each JSON name with the record property it is copied from, or the function computing it, its
// value type, description and example. The builder, the TypeScript types, the OpenAPI schemas and
// examples, the guide's field lists, the test signal and the test fixtures are derived from it,
// and the compiler refuses a property the record lacks or an example that does not fit its type.
import { MAX_ID_LENGTH } from '../ids.ts';
import type { Links } from '../links.ts';

/** A JSON schema, as written in the OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

/** What a test signal puts in place of a field's example, by the field's role. */
export type SampleRole = 'id' | 'link' | 'instant' | 'heading';

/** A value type: its JSON schema and how a record's value `V` becomes JSON `J`. */
export interface ValueType<V, J> {
  readonly schema: JsonSchema;
  readonly role?: SampleRole;
  readonly json: (value: V) => J;
}

const same = <T>(value: T) => value;
export const resourceId: ValueType<string, string> = {
  schema: { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH },
  role: 'id',
  json: same,
};
export const text: ValueType<string, string> = { schema: { type: 'string' }, json: same };
/** A text that names the resource (a title): a test signal says so in it. */
export const heading: ValueType<string, string> = { ...text, role: 'heading' };
export const texts: ValueType<readonly string[], string[]> = {
  schema: { type: 'array', items: { type: 'string' } },
  json: (value) => [...value],
};
export const flag: ValueType<boolean, boolean> = { schema: { type: 'boolean' }, json: same };
/** Always `true`: the JSON carries it only to say so (`online: true`). */
export const isTrue: ValueType<true, true> = { schema: { type: 'boolean', const: true }, json: same };
/** ISO 8601 UTC with milliseconds. */
export const instant: ValueType<Date, string> = {
  schema: { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
  role: 'instant',
  json: (value) => value.toISOString(),
};
export const link: ValueType<string, string> = { schema: { type: 'string', format: 'uri' }, role: 'link', json: same };
/** The same type, or null (JSON `null` for a missing value). */
export const nullable = <V, J>(type: ValueType<V, J>): ValueType<V | null | undefined, J | null> => ({
  schema:
    typeof type.schema.type === 'string'
      ? { ...type.schema, type: [type.schema.type, 'null'] }
      : { oneOf: [type.schema, { type: 'null' }] },
  ...(type.role === undefined ? {} : { role: type.role }),
  json: (value) => (value == null ? null : type.json(value)),
});
/** An object of the REST API's OpenAPI components, copied as it is. */
export const component = <T>(name: string): ValueType<T, T> => ({ schema: { $ref: `#/components/schemas/${name}` }, json: same });

interface Described<J, V extends string> {
  description?: string;
  example: J;
  /** Present only in this variant of the data (the others leave it out). */
  only?: V;
}

type Key<R> = keyof R & string;
type CopiedField<R, K extends Key<R>, V extends string> = { from: K; type: ValueType<R[K], unknown> } & Described<unknown, V>;
type ComputedField<R, V extends string> = { value: (record: R, links: Links) => unknown; type: ValueType<never, unknown> } & Described<
  unknown,
  V
>;
export type FieldOf<R, V extends string = string> = { [K in Key<R>]: CopiedField<R, K, V> }[Key<R>] | ComputedField<R, V>;

type JsonOfField<F> = F extends { type: ValueType<never, infer J> } ? J : never;
/** A computed field's value must fit its type, and every example its JSON. */
type Checked<F> = F & { example: JsonOfField<F> } & (F extends { value: (...args: never[]) => infer V; type: ValueType<infer I, unknown> }
    ? [V] extends [I]
      ? unknown
      : { value: (...args: never[]) => I }
    : unknown);

type Simplify<T> = { -readonly [K in keyof T]: T[K] } & {};
type Common<S> = { [K in keyof S as S[K] extends { only: string } ? never : K]: JsonOfField<S[K]> };
type Only<S, V> = { [K in keyof S as S[K] extends { only: V } ? K : never]: JsonOfField<S[K]> };
/** The JSON a declaration gives: one object type, or a union with one member per variant. */
export type DataOf<S, V extends string> = [V] extends [never] ? Simplify<Common<S>> : { [W in V]: Simplify<Common<S> & Only<S, W>> }[V];

export interface Variant<R> {
  /** The OpenAPI schema's title. */
  title: string;
  when: (record: R) => boolean;
}

/** One kind of signal data, declared once. */
export interface SignalData<R, S, V extends string> {
  /** Its name in the OpenAPI components. */
  readonly component: string;
  readonly description: string | undefined;
  readonly fields: S;
  /** Mutually exclusive shapes, by OpenAPI component name; the examples and samples take the first. */
  readonly variants: Readonly<Record<V, Variant<R>>> | undefined;
  /** The `data` of a record. */
  data(record: R, links: Links): DataOf<S, V>;
  /** The declared examples, in `variant` (default: the first). */
  example(variant?: V): DataOf<S, V>;
  /** The examples with the values of `values` put in by role (a test signal). */
  sample(values: Partial<Record<SampleRole, unknown>>, variant?: V): DataOf<S, V>;
}

/** A field of any declaration, as the derivations read it. */
export interface AnyField {
  readonly from?: string;
  readonly type: ValueType<never, unknown>;
  readonly description?: string;
  readonly example: unknown;
  readonly only?: string;
}

/** Any declaration, as the derivations read it. */
export interface AnySignalData {
  readonly component: string;
  readonly description: string | undefined;
  readonly fields: Readonly<Record<string, AnyField>>;
  readonly variants: Readonly<Record<string, { title: string }>> | undefined;
  example(variant?: string): unknown;
  sample(values: Partial<Record<SampleRole, unknown>>, variant?: string): unknown;
}

/**
 * Declares the data of a kind of signal built from records of type R: `signalData<NeedRecord>()({
 * component: 'NeedSignalData', fields: { title: { from: 'title', type: text, example: '…' }, … } })`.
 * JSON fields keep the declaration's order.
 */
export function signalData<R>() {
  return <const S extends Record<string, FieldOf<R, NoInfer<V>>>, const V extends string = never>(declaration: {
    component: string;
    description?: string;
    variants?: Record<V, Variant<R>>;
    fields: S & { [K in keyof S]: Checked<S[K]> };
  }): SignalData<R, S, V> => {
    const { component, description, variants, fields } = declaration;
    const entries = Object.entries(fields) as [string, FieldOf<R, V>][];
    const names = variants === undefined ? [] : (Object.keys(variants) as V[]);
    const pick = (variant: V | undefined, value: (field: FieldOf<R, V>) => unknown) => {
      const out: Record<string, unknown> = {};
      for (const [name, field] of entries) if (field.only === undefined || field.only === variant) out[name] = value(field);
      return out as DataOf<S, V>;
    };
    return {
      component,
      description,
      fields,
      variants,
      data: (record, links) =>
        pick(
          names.find((name) => variants![name].when(record)),
          (field) => (field.type.json as (v: unknown) => unknown)('from' in field ? record[field.from] : field.value(record, links)),
        ),
      example: (variant = names[0]) => pick(variant, (field) => structuredClone(field.example)),
      sample: (values, variant = names[0]) =>
        pick(variant, (field) =>
          field.type.role !== undefined && field.type.role in values ? values[field.type.role] : structuredClone(field.example),
        ),
    };
  };
}
