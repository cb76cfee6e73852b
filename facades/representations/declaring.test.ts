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
  it('derives the GraphQL selection from the declared source fields, nested ones included', () => {
    expect(sample.selection).toBe('id place { city } host { name }');
  });

  it('maps a result to JSON under the declared names, in the declared order, null nested objects kept null', () => {
    const json = sample.json({ id: 'ev_1', place: { city: 'Lille' }, host: { name: 'Atelier' } });
    expect(json).toEqual({ id: 'ev_1', where: { town: 'Lille' }, host: { name: 'Atelier' } });
    expect(Object.keys(json)).toEqual(['id', 'where', 'host']);
    expect(sample.json({ id: 'ev_2', place: null, host: { name: 'Atelier' } }).where).toBeNull();
  });

  it('copies nothing the declaration does not name', () => {
    const node = { id: 'ev_1', place: null, host: { name: 'A', secret: 'x' }, admin: { hostNotes: 'private' } };
    expect(sample.json(node)).toEqual({ id: 'ev_1', where: null, host: { name: 'A' } });
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

  it('gives each public resource a schema naming exactly the fields its JSON has', () => {
    // Nodes cast, not typed in full: a field a resource gains needs no edit here (its mapper's type is checked where it is used).
    const place = { city: 'Lille', region: null, country: 'FR' };
    const org = { id: 'o', name: 'O' };
    const samples = [
      [
        opportunity,
        opportunity.json({
          id: 'n',
          title: 't',
          description: 'd',
          requiredExpertise: [],
          remoteAllowed: true,
          place,
          organization: org,
          url: 'u',
          publishedAt: 'p',
          updatedAt: 'u',
          deadline: null,
        } as Partial<Parameters<typeof opportunity.json>[0]> as Parameters<typeof opportunity.json>[0]),
      ],
      [
        event,
        event.json({
          id: 'e',
          title: 't',
          description: 'd',
          startsAt: 's',
          endsAt: 'e',
          timezone: 'z',
          online: false,
          place: null,
          url: 'u',
          host: org,
          updatedAt: 'u',
        } as Partial<Parameters<typeof event.json>[0]> as Parameters<typeof event.json>[0]),
      ],
      [
        organization,
        organization.json({
          id: 'o',
          name: 'O',
          description: 'd',
          website: null,
          logoUrl: null,
          sectors: [],
          capabilities: [],
          place,
          networks: [],
          partnerPayment: { confirmedRatePercent: null, partnersCount: 0 },
          proofs: { completedPacks: 0, references: 0, certifications: 0 },
          profileUrl: 'p',
          updatedAt: 'u',
        } as Partial<Parameters<typeof organization.json>[0]> as Parameters<typeof organization.json>[0]),
      ],
    ] as const;
    for (const [resource, json] of samples) {
      expect(Object.keys(json)).toEqual(resource.schema.required);
      expect(Object.keys(resource.schema.properties as object)).toEqual(resource.schema.required);
    }
  });
});
