import { buildSchema, graphqlSync } from 'graphql';
import { describe, expect, it } from 'vitest';
import type * as Schema from '../generated/schema-types.ts';
import { integer, nullableString, representation, string } from './declaring.ts';
import { event, opportunity, organization } from './resources.ts';

const spot = representation<Schema.Place>()({ town: { from: 'city', schema: nullableString() } }, { component: 'Spot' });
const inline = representation<Schema.Proofs>()({ refs: { from: 'references', schema: integer() } }, { description: 'Counts.' });
const sample = representation<Schema.Event>()({
  id: { from: 'id', schema: string() },
  where: { from: 'place', of: spot, nullable: true, description: 'Null online.' },
  host: { from: 'host', of: representation<Schema.OrganizationSummary>()({ name: { from: 'name', schema: string() } }) },
});

describe('representation', () => {
  it('derives the GraphQL selection, each field aliased to its JSON name where the two differ, nested ones included', () => {
    expect(sample.selection).toBe('id where: place { town: city } host { name }');
  });

  it('selects, through the declared aliases, exactly the declared JSON: names, order, nested and null objects', () => {
    const schema = buildSchema(`
      type Query { event: Event }
      type Event { id: ID! place: Place host: Host! admin: String }
      type Place { city: String region: String }
      type Host { name: String! secret: String }
    `);
    const root = {
      event: { id: 'ev_1', place: { city: 'Lille', region: 'Nord' }, host: { name: 'Atelier', secret: 'x' }, admin: 'private' },
    };
    const result = graphqlSync({ schema, source: `{ event { ${sample.selection} } }`, rootValue: root });
    const json = sample.json((result.data as { event: Parameters<typeof sample.json>[0] }).event);
    expect(JSON.stringify(json)).toBe('{"id":"ev_1","where":{"town":"Lille"},"host":{"name":"Atelier"}}');
    const online = graphqlSync({
      schema,
      source: `{ event { ${sample.selection} } }`,
      rootValue: { event: { ...root.event, place: null } },
    });
    expect((online.data as { event: { where: unknown } }).event.where).toBeNull();
  });

  it('derives a closed JSON schema: components as $ref (nullable as oneOf), other objects inline', () => {
    expect(sample.schema).toEqual({
      type: 'object',
      required: ['id', 'where', 'host'],
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        where: { type: ['object', 'null'], oneOf: [{ $ref: '#/components/schemas/Spot' }, { type: 'null' }], description: 'Null online.' },
        host: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string' } } },
      },
    });
    expect(inline.schema).toMatchObject({ type: 'object', description: 'Counts.', required: ['refs'] });
  });

  it('gives each public resource a schema naming exactly the fields its selection gives, in order', () => {
    for (const resource of [opportunity, event, organization]) {
      // The top-level names of the selection: each field, or its alias, before any nested selection.
      const names = [...resource.selection.replace(/\{[^{}]*\}/g, '').matchAll(/(\w+)(?::\s*\w+)?/g)].map((m) => m[1]);
      expect(names).toEqual(resource.schema.required);
      expect(Object.keys(resource.schema.properties as object)).toEqual(resource.schema.required);
    }
  });
});
