// The public resources (docs/service-contract.md#resources), each declared once against the schema's generated types:
// the REST operations' and the public connector's selections, the JSON mappers (REST, the public
// connector, the administration pages) and the OpenAPI schemas all come from here. Nothing
// reaches a response or a tool result unless it is listed here.
import { MAX_ID_LENGTH } from '../../core/index.ts';
import type * as Schema from '../generated/schema-types.ts';
import {
  alwaysPresent,
  boolean,
  dateTime,
  integer,
  nullableDateTime,
  nullableInteger,
  nullableString,
  representation,
  string,
  strings,
} from './declaring.ts';

export const place = representation<Schema.Place>()(
  {
    city: { from: 'city', schema: nullableString({ examples: ['Lille'] }) },
    region: { from: 'region', schema: nullableString({ examples: ['Hauts-de-France'] }) },
    country: {
      from: 'country',
      schema: nullableString({ description: 'ISO 3166-1 alpha-2 code', pattern: '^[A-Z]{2}$', examples: ['FR'] }),
    },
  },
  { component: 'Place', description: 'Where something is. Any part may be unknown.' },
);

export const organizationRef = representation<Schema.OrganizationSummary>()(
  {
    id: { from: 'id', schema: string() },
    name: { from: 'name', schema: string() },
  },
  { component: 'OrganizationRef' },
);

const partnerPayment = representation<Schema.PartnerPayment>()(
  {
    confirmed_rate_percent: {
      from: 'confirmedRatePercent',
      schema: nullableInteger({ minimum: 0, maximum: 100, description: 'Null before any payment is due.' }),
    },
    partners_count: { from: 'partnersCount', schema: integer({ minimum: 0 }) },
  },
  { description: 'Partner payment record as a rate and a count, never an amount.' },
);

const proofs = representation<Schema.Proofs>()(
  {
    completed_packs: { from: 'completedPacks', schema: integer({ minimum: 0 }) },
    references: { from: 'references', schema: integer({ minimum: 0 }) },
    certifications: { from: 'certifications', schema: integer({ minimum: 0 }) },
  },
  { description: 'Track record, as counts.' },
);

export const organization = representation<Schema.Organization>()(
  {
    id: { from: 'id', schema: string({ examples: ['atelier-nord'] }) },
    name: { from: 'name', schema: string() },
    description: { from: 'description', schema: string() },
    website: { from: 'website', schema: nullableString({ format: 'uri' }) },
    logo_url: { from: 'logoUrl', schema: nullableString({ format: 'uri' }) },
    sectors: { from: 'sectors', schema: strings() },
    capabilities: { from: 'capabilities', schema: strings() },
    place: { from: 'place', of: place },
    networks: { from: 'networks', schema: strings() },
    partner_payment: { from: 'partnerPayment', of: partnerPayment },
    proofs: { from: 'proofs', of: proofs },
    profile_url: { from: 'profileUrl', schema: string({ format: 'uri' }) },
    updated_at: { from: 'updatedAt', schema: dateTime() },
  },
  { component: 'Organization' },
);

export const opportunity = representation<Schema.Opportunity>()(
  {
    id: { from: 'id', schema: string({ maxLength: MAX_ID_LENGTH, examples: ['n_3kq8w2m1x9p4za'] }) },
    title: { from: 'title', schema: string() },
    description: { from: 'description', schema: string() },
    required_expertise: { from: 'requiredExpertise', schema: strings() },
    remote_allowed: { from: 'remoteAllowed', schema: boolean() },
    place: { from: 'place', of: place, nullable: true },
    organization: { from: 'organization', of: organizationRef },
    url: { from: 'url', schema: string({ format: 'uri' }) },
    // Only published opportunities are public: the public read path never gives one without it.
    published_at: { from: 'publishedAt', schema: alwaysPresent(dateTime()) },
    updated_at: { from: 'updatedAt', schema: dateTime() },
    deadline: { from: 'deadline', schema: nullableDateTime() },
  },
  { component: 'Opportunity' },
);

export const event = representation<Schema.Event>()(
  {
    id: { from: 'id', schema: string({ maxLength: MAX_ID_LENGTH, examples: ['ev_7fz2k1m0q8r3ta'] }) },
    title: { from: 'title', schema: string() },
    description: { from: 'description', schema: string() },
    starts_at: { from: 'startsAt', schema: dateTime() },
    ends_at: { from: 'endsAt', schema: dateTime() },
    timezone: { from: 'timezone', schema: string({ description: 'IANA time zone of the event', examples: ['Europe/Paris'] }) },
    online: { from: 'online', schema: boolean() },
    place: { from: 'place', of: place, nullable: true, description: 'Null for online events.' },
    url: { from: 'url', schema: string({ format: 'uri' }) },
    host: { from: 'host', of: organizationRef },
    updated_at: { from: 'updatedAt', schema: dateTime() },
  },
  { component: 'Event' },
);

/** An organization's JSON, as its selection gives it. */
export type OrganizationJson = Parameters<typeof organization.json>[0];
export const organizationJson = (node: OrganizationJson) => organization.json(node);
