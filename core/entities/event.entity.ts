import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from './organization.entity.ts';

export const EVENT_STATUSES = ['public', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const EventEntity = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: (p) => ({
    id: p.string().primary().length(40),
    host: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    title: p.string().length(200),
    description: p.text().default(''),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    timezone: p.string().length(64).default('UTC'),
    online: p.boolean().default(false),
    city: p.string().length(120).nullable(),
    region: p.string().length(120).nullable(),
    country: p.string().length(2).nullable(),
    status: p.enum([...EVENT_STATUSES]),
    demo: p.boolean().default(false),
    version: p.integer().default(1),
    cancelledAt: p.datetime().nullable(),
    /** Internal host fields: never output by any facade. */
    hostContactEmail: p.string().length(320).nullable(),
    hostContactPhone: p.string().length(40).nullable(),
    hostNotes: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  }),
  // Keyset pagination of upcoming and ongoing events, soonest first (see event.service.ts): the
  // list's equalities, then its order, then `ends_at`, so ended events are passed over in the
  // index without reading their rows.
  indexes: [{ name: 'events_upcoming_feed_idx', properties: ['status', 'demo', 'startsAt', 'id', 'endsAt'] }],
});

export type Event = InferEntity<typeof EventEntity>;
