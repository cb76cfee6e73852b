// The one place that decides what is public and what a public projection carries.
// Every facade and every delivery reads public data through these functions; anything
// not copied here (private objects, internal host fields, billing data) cannot leak.
import { mentionsAmount } from './webhooks/amount-detector.ts';
import type { Event, Need, Organization } from './entities/index.ts';
import type { EventView, NeedView, OrganizationProfile, Place } from './public-views.ts';
import type { SignalType } from './webhooks/contract.ts';
import {
  component,
  flag,
  heading,
  instant,
  isTrue,
  link,
  resourceId,
  signalData,
  texts,
  type AnySignalData,
} from './webhooks/signal-data.ts';

import type { Links } from './links.ts';

export type { Links };

// Each rule is written once, as a filter of entity properties: MikroORM queries take it as it is
// (`em.find(NeedEntity, PUBLIC_NEED_FILTER)`), the SQL layer's queries through `eb.and(...)`, and
// the predicates below test an object against it.

/** Needs any API key may read. */
export const PUBLIC_NEED_FILTER = { state: 'public', demo: false } as const satisfies Partial<Need>;
/** Events any API key may read (ended ones drop out of lists by date). */
export const PUBLIC_EVENT_FILTER = { status: 'public', demo: false } as const satisfies Partial<Event>;
/** Organizations the public directory may show. */
export const DISCOVERABLE_ORGANIZATION_FILTER = { listed: true, complete: true, demo: false } as const satisfies Partial<Organization>;

/** Whether `value` has every property of `filter` with the filter's value. */
const matches = <F extends object>(filter: F, value: { [K in keyof F]: unknown }) =>
  (Object.keys(filter) as (keyof F)[]).every((key) => value[key] === filter[key]);

// What the projections read of a need, an event and an organization: the entity, or a row of the
// public read path, which selects exactly these properties. Nothing else of the row is read, so a
// private property (billing e-mail, host contact fields, internal notes) cannot reach a view.
export const NEED_RECORD = [
  'id',
  'organization',
  'title',
  'description',
  'requiredExpertise',
  'remoteAllowed',
  'city',
  'region',
  'country',
  'deadline',
  'state',
  'discreet',
  'demo',
  'version',
  'publishedAt',
  'withdrawnAt',
  'updatedAt',
] as const satisfies readonly (keyof Need)[];
export const EVENT_RECORD = [
  'id',
  'host',
  'title',
  'description',
  'startsAt',
  'endsAt',
  'timezone',
  'online',
  'city',
  'region',
  'country',
  'status',
  'demo',
  'version',
  'cancelledAt',
  'updatedAt',
] as const satisfies readonly (keyof Event)[];
export const ORGANIZATION_RECORD = [
  'id',
  'name',
  'plan',
  'listed',
  'demo',
  'complete',
  'description',
  'website',
  'logoUrl',
  'sectors',
  'capabilities',
  'networks',
  'city',
  'region',
  'country',
  'partnerPaymentsDue',
  'partnerPaymentsConfirmed',
  'partnersCount',
  'completedPacks',
  'referencesCount',
  'certificationsCount',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof Organization)[];

type Reference = { id: string };
export type NeedRecord = Pick<Need, Exclude<(typeof NEED_RECORD)[number], 'organization'>> & { organization: Reference };
export type EventRecord = Pick<Event, Exclude<(typeof EVENT_RECORD)[number], 'host'>> & { host: Reference };
export type OrganizationRecord = Pick<Organization, (typeof ORGANIZATION_RECORD)[number]>;

export const isNeedPublic = (need: Pick<Need, 'state' | 'demo'>) => matches(PUBLIC_NEED_FILTER, need);
export const isEventPublic = (event: Pick<Event, 'status' | 'demo'>) => matches(PUBLIC_EVENT_FILTER, event);

/**
 * Whether a public change of this need may be pushed to webhook destinations: never for
 * discreet or demonstration needs, nor for needs whose text likely states an amount.
 */
export const isNeedDeliverable = (need: Pick<Need, 'state' | 'demo' | 'discreet' | 'title' | 'description' | 'requiredExpertise'>) =>
  isNeedPublic(need) &&
  !need.discreet &&
  !mentionsAmount(need.title) &&
  !mentionsAmount(need.description) &&
  !need.requiredExpertise.some(mentionsAmount);

/** Demonstration, incomplete and unlisted organizations never appear in public directories. */
export const isOrganizationDiscoverable = (org: Pick<Organization, 'listed' | 'complete' | 'demo'>) =>
  matches(DISCOVERABLE_ORGANIZATION_FILTER, org);

const place = (x: { city?: string | null; region?: string | null; country?: string | null }): Place => ({
  city: x.city ?? null,
  region: x.region ?? null,
  country: x.country ?? null,
});

const hasPlace = (p: Place) => p.city !== null || p.region !== null || p.country !== null;

export function organizationProfile(org: OrganizationRecord, links: Links): OrganizationProfile {
  return {
    id: org.id,
    name: org.name,
    description: org.description,
    website: org.website ?? null,
    logoUrl: org.logoUrl ?? null,
    sectors: [...org.sectors],
    capabilities: [...org.capabilities],
    place: place(org),
    networks: [...org.networks],
    partnerPayment: {
      // A rate and a count, never an amount (docs/design.md#never-exposed).
      confirmedRatePercent: org.partnerPaymentsDue > 0 ? Math.round((org.partnerPaymentsConfirmed / org.partnerPaymentsDue) * 100) : null,
      partnersCount: org.partnersCount,
    },
    proofs: {
      completedPacks: org.completedPacks,
      references: org.referencesCount,
      certifications: org.certificationsCount,
    },
    profileUrl: `${links.publicBaseUrl}/organizations/${encodeURIComponent(org.id)}`,
    updatedAt: org.updatedAt,
    admin: { plan: org.plan, listed: org.listed, demo: org.demo, complete: org.complete, createdAt: org.createdAt },
  };
}

/** A need's public projection; `organizationName` when the read fetched it with the need. */
export function needView(need: NeedRecord, links: Links, organizationName?: string | null): NeedView {
  const where = place(need);
  return {
    id: need.id,
    organizationId: need.organization.id,
    organization: organizationName == null ? null : { id: need.organization.id, name: organizationName },
    title: need.title,
    description: need.description,
    requiredExpertise: [...need.requiredExpertise],
    remoteAllowed: need.remoteAllowed,
    place: hasPlace(where) ? where : null,
    url: needUrl(need.id, links),
    publishedAt: need.publishedAt ?? null,
    updatedAt: need.updatedAt,
    deadline: need.deadline ?? null,
    admin: {
      state: need.state,
      discreet: need.discreet,
      demo: need.demo,
      version: need.version,
      withdrawnAt: need.withdrawnAt ?? null,
    },
  };
}

/** An event's public projection; `hostName` when the read fetched it with the event. */
export function eventView(event: EventRecord, links: Links, hostName?: string | null): EventView {
  return {
    id: event.id,
    hostId: event.host.id,
    host: hostName == null ? null : { id: event.host.id, name: hostName },
    title: event.title,
    description: event.description,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    timezone: event.timezone,
    online: event.online,
    place: event.online ? null : place(event),
    url: eventUrl(event.id, links),
    updatedAt: event.updatedAt,
    admin: { status: event.status, demo: event.demo, version: event.version, cancelledAt: event.cancelledAt ?? null },
  };
}

export const needUrl = (id: string, links: Links) => `${links.publicBaseUrl}/opportunities/${encodeURIComponent(id)}`;
export const eventUrl = (id: string, links: Links) => `${links.publicBaseUrl}/events/${encodeURIComponent(id)}`;

// The `data` of each kind of webhook signal (docs/service-contract.md#event-kinds), declared once (core/webhooks/signal-data.ts):
// the builder, the types, the OpenAPI schemas and examples, the guide and the test signal follow.
const EXAMPLE_LINKS: Links = { publicBaseUrl: 'https://packline.example' };
const NEED_ID = 'n_3kq8w2m1x9p4za';
const EVENT_ID = 'ev_7fz2k1m0q8r3ta';

export const NEED_SIGNAL_DATA = signalData<NeedRecord>()({
  component: 'NeedSignalData',
  description: 'The public summary of a need. Read `GET /opportunities/{id}` for the whole opportunity.',
  fields: {
    id: { from: 'id', type: resourceId, description: 'Identifier of the need.', example: NEED_ID },
    title: { from: 'title', type: heading, example: 'Data engineer for a river survey' },
    required_expertise: { from: 'requiredExpertise', type: texts, example: ['sql', 'python'] },
    remote_allowed: { from: 'remoteAllowed', type: flag, example: true },
    url: {
      value: (need, links) => needUrl(need.id, links),
      type: link,
      description: 'Public page of the opportunity.',
      example: needUrl(NEED_ID, EXAMPLE_LINKS),
    },
  },
});

export const NEED_WITHDRAWN_DATA = signalData<NeedRecord>()({
  component: 'NeedWithdrawnData',
  description: 'Only the identifier, the date and a link: the need is no longer public.',
  fields: {
    id: NEED_SIGNAL_DATA.fields.id,
    withdrawn_at: { value: (need) => need.withdrawnAt ?? new Date(), type: instant, example: '2026-11-22T10:00:00.000Z' },
    url: { ...NEED_SIGNAL_DATA.fields.url, description: 'Public page of the opportunity (now answering 404).' },
  },
});

export const EVENT_SIGNAL_DATA = signalData<EventRecord>()({
  component: 'EventSignalData',
  description: 'The public summary of an event, in person or online. Read `GET /events/{id}` for the whole event.',
  // Examples and test signals take the first variant: online, so a test signal shows no made-up place.
  variants: {
    OnlineEventData: { title: 'Online', when: (event) => event.online },
    InPersonEventData: { title: 'In person', when: (event) => !event.online },
  },
  fields: {
    id: { from: 'id', type: resourceId, description: 'Identifier of the event.', example: EVENT_ID },
    title: { from: 'title', type: heading, example: 'Open day' },
    starts_at: { from: 'startsAt', type: instant, example: '2027-03-01T09:00:00.000Z' },
    ends_at: { from: 'endsAt', type: instant, example: '2027-03-01T17:00:00.000Z' },
    place: {
      value: place,
      type: component<Place>('Place'),
      only: 'InPersonEventData',
      example: { city: 'Lyon', region: null, country: 'FR' },
    },
    online: { value: () => true as const, type: isTrue, only: 'OnlineEventData', example: true },
    url: {
      value: (event, links) => eventUrl(event.id, links),
      type: link,
      description: 'Public page of the event.',
      example: eventUrl(EVENT_ID, EXAMPLE_LINKS),
    },
  },
});

export const EVENT_CANCELLED_DATA = signalData<EventRecord>()({
  component: 'EventCancelledData',
  description: 'Only the identifier, the date and a link: the event is cancelled.',
  fields: {
    id: EVENT_SIGNAL_DATA.fields.id,
    cancelled_at: { value: (event) => event.cancelledAt ?? new Date(), type: instant, example: '2026-11-20T08:15:00.000Z' },
    url: { ...EVENT_SIGNAL_DATA.fields.url, description: 'Public page of the event (now answering 404).' },
  },
});

/** Each kind's data declaration. */
export const SIGNAL_DATA = {
  'need.created': NEED_SIGNAL_DATA,
  'need.updated': NEED_SIGNAL_DATA,
  'need.withdrawn': NEED_WITHDRAWN_DATA,
  'event.created': EVENT_SIGNAL_DATA,
  'event.updated': EVENT_SIGNAL_DATA,
  'event.cancelled': EVENT_CANCELLED_DATA,
} as const satisfies Record<SignalType, AnySignalData>;

/** Webhook `data` of a need signal. */
export const needSignalData = (need: NeedRecord, links: Links, withdrawn: boolean) =>
  withdrawn ? NEED_WITHDRAWN_DATA.data(need, links) : NEED_SIGNAL_DATA.data(need, links);

/** Webhook `data` of an event signal. */
export const eventSignalData = (event: EventRecord, links: Links) =>
  event.status === 'cancelled' ? EVENT_CANCELLED_DATA.data(event, links) : EVENT_SIGNAL_DATA.data(event, links);
