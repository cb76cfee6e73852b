import { MAX_ID_LENGTH, MAX_PAGE_SIZE } from '../../core/index.ts';
import { PROBLEMS } from './problem.ts';

// The JSON schemas of the public API's bodies (DESIGN §3), for the OpenAPI document. Every object
// is closed (`additionalProperties: false`): a field added to an answer must be added here too.

export const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const place = {
  type: 'object',
  description: 'Where something is. Any part may be unknown.',
  required: ['city', 'region', 'country'],
  additionalProperties: false,
  properties: {
    city: nullable('string', { examples: ['Lille'] }),
    region: nullable('string', { examples: ['Hauts-de-France'] }),
    country: nullable('string', { description: 'ISO 3166-1 alpha-2 code', pattern: '^[A-Z]{2}$', examples: ['FR'] }),
  },
};

const organizationRef = {
  type: 'object',
  required: ['id', 'name'],
  additionalProperties: false,
  properties: { id: { type: 'string' }, name: { type: 'string' } },
};

const dateTime = { type: 'string', format: 'date-time', examples: ['2026-11-22T10:00:00.000Z'] };

export function openApiSchemas() {
  return {
    Place: place,
    OrganizationRef: organizationRef,
    Organization: {
      type: 'object',
      required: ['id', 'name', 'description', 'website', 'logo_url', 'sectors', 'capabilities', 'place', 'networks', 'partner_payment', 'proofs', 'profile_url', 'updated_at'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', examples: ['atelier-nord'] },
        name: { type: 'string' },
        description: { type: 'string' },
        website: nullable('string', { format: 'uri' }),
        logo_url: nullable('string', { format: 'uri' }),
        sectors: { type: 'array', items: { type: 'string' } },
        capabilities: { type: 'array', items: { type: 'string' } },
        place: ref('Place'),
        networks: { type: 'array', items: { type: 'string' } },
        partner_payment: {
          type: 'object',
          description: 'Partner payment record as a rate and a count, never an amount.',
          required: ['confirmed_rate_percent', 'partners_count'],
          additionalProperties: false,
          properties: {
            confirmed_rate_percent: nullable('integer', { minimum: 0, maximum: 100, description: 'Null before any payment is due.' }),
            partners_count: { type: 'integer', minimum: 0 },
          },
        },
        proofs: {
          type: 'object',
          description: 'Track record, as counts.',
          required: ['completed_packs', 'references', 'certifications'],
          additionalProperties: false,
          properties: {
            completed_packs: { type: 'integer', minimum: 0 },
            references: { type: 'integer', minimum: 0 },
            certifications: { type: 'integer', minimum: 0 },
          },
        },
        profile_url: { type: 'string', format: 'uri' },
        updated_at: dateTime,
      },
    },
    Opportunity: {
      type: 'object',
      required: ['id', 'title', 'description', 'required_expertise', 'remote_allowed', 'place', 'organization', 'url', 'published_at', 'updated_at', 'deadline'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', maxLength: MAX_ID_LENGTH, examples: ['n_3kq8w2m1x9p4za'] },
        title: { type: 'string' },
        description: { type: 'string' },
        required_expertise: { type: 'array', items: { type: 'string' } },
        remote_allowed: { type: 'boolean' },
        place: { oneOf: [ref('Place'), { type: 'null' }] },
        organization: ref('OrganizationRef'),
        url: { type: 'string', format: 'uri' },
        published_at: dateTime,
        updated_at: dateTime,
        deadline: nullable('string', { format: 'date-time' }),
      },
    },
    Event: {
      type: 'object',
      required: ['id', 'title', 'description', 'starts_at', 'ends_at', 'timezone', 'online', 'place', 'url', 'host', 'updated_at'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', maxLength: MAX_ID_LENGTH, examples: ['ev_7fz2k1m0q8r3ta'] },
        title: { type: 'string' },
        description: { type: 'string' },
        starts_at: dateTime,
        ends_at: dateTime,
        timezone: { type: 'string', description: 'IANA time zone of the event', examples: ['Europe/Paris'] },
        online: { type: 'boolean' },
        place: { oneOf: [ref('Place'), { type: 'null' }], description: 'Null for online events.' },
        url: { type: 'string', format: 'uri' },
        host: ref('OrganizationRef'),
        updated_at: dateTime,
      },
    },
    ListMeta: {
      type: 'object',
      required: ['next_cursor'],
      additionalProperties: false,
      properties: {
        next_cursor: nullable('string', { description: 'Pass back as `cursor` for the next page; null on the last page.' }),
      },
    },
    OpportunityList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: ref('Opportunity'), maxItems: MAX_PAGE_SIZE }, meta: ref('ListMeta') },
    },
    EventList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: ref('Event'), maxItems: MAX_PAGE_SIZE }, meta: ref('ListMeta') },
    },
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem details.',
      required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', format: 'uri-reference', description: 'Reference to an explanation of the problem type.' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', enum: Object.keys(PROBLEMS) },
        request_id: { type: 'string' },
        parameter: { type: 'string', description: 'The parameter at fault (400 only).' },
      },
    },
  };
}
