import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  printSchema,
  type GraphQLInputObjectType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.ts';

// schema/schema.graphql is the printed SDL (`npm run schema:print`); it must match the schema.
// The schema is the only query surface, so private objects must have no name in it.

const SDL_PATH = resolve(import.meta.dirname, '../../schema/schema.graphql');

/** Names that would mean a private object (or an internal field) reached the query surface. */
const PRIVATE_NAMES =
  /pack|revenue|split|payout|collection|milestone|document|thread|quote|pact|signature|clause|template|positioning|price|billing|internalNotes|hostContact|hostNotes/i;

/**
 * Names that match on purpose, each with its reason:
 * - `Proofs.completedPacks` is a public count of the track record (docs/service-contract.md#organization `proofs.completed_packs`),
 *   not a pack.
 * - The internal host fields are write-only inputs of `createEvent` ("Internal: never output"):
 *   they exist on that input and on no output type.
 */
const ALLOWED = new Set([
  'Proofs.completedPacks',
  'NewEventInput.hostContactEmail',
  'NewEventInput.hostContactPhone',
  'NewEventInput.hostNotes',
]);

/** Every `Type`, `Type.field`, `Type.field(arg)` and `Enum.VALUE` name matching PRIVATE_NAMES. */
function privateNames(target: GraphQLSchema): string[] {
  const found: string[] = [];
  const check = (name: string, qualified: string) => {
    if (PRIVATE_NAMES.test(name) && !ALLOWED.has(qualified)) found.push(qualified);
  };
  for (const type of Object.values(target.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    check(type.name, type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(field.name, `${type.name}.${field.name}`);
        for (const arg of field.args) check(arg.name, `${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) check(field.name, `${type.name}.${field.name}`);
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) check(value.name, `${type.name}.${value.name}`);
    }
  }
  return found;
}

describe('schema SDL', () => {
  it('schema/schema.graphql is up to date', () => {
    const printed = `${printSchema(schema)}\n`;
    const stored = readFileSync(SDL_PATH, 'utf8');
    expect(stored === printed, 'schema/schema.graphql is stale: run `npm run schema:print` and commit the result').toBe(true);
  });

  it('has no type, field, argument, input field or enum value named after a private object', () => {
    expect(privateNames(schema), 'private names in the GraphQL schema').toEqual([]);
  });

  it('keeps the allowed internal host fields input-only', () => {
    const outputs = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__') && (isObjectType(t) || isInterfaceType(t)));
    const fields = outputs.flatMap((t) => Object.keys((t as { getFields(): object }).getFields()).map((f) => `${t.name}.${f}`));
    expect(fields.filter((f) => /hostContact|hostNotes|internalNotes|billing/i.test(f))).toEqual([]);
    const input = schema.getType('NewEventInput');
    expect(isInputObjectType(input)).toBe(true);
    for (const name of ['hostContactEmail', 'hostContactPhone', 'hostNotes']) {
      expect((input as GraphQLInputObjectType).getFields()[name]?.description).toMatch(/never output/i);
    }
  });

  it('the check finds private names wherever they hide', () => {
    const leaky = buildSchema(`
      type Query { organization: Org, quotes(packId: ID): [Int] }
      type Org { id: ID, revenueSplit: Int, proofs: Proofs }
      type Proofs { completedPacks: Int }
      type PactSignature { id: ID }
      input OrgInput { internalNotes: String }
      enum Kind { PAYOUT, NEED }
      type Mutation { setOrg(input: OrgInput): Org }
    `);
    expect(privateNames(leaky).sort()).toEqual(
      ['Kind.PAYOUT', 'Org.revenueSplit', 'OrgInput.internalNotes', 'PactSignature', 'Query.quotes', 'Query.quotes(packId)'].sort(),
    );
  });
});
