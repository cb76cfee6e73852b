import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { SIGNAL_TYPES } from '../webhooks/contract.ts';

/**
 * One public lifecycle change, written in the same transaction as the change itself.
 * The dispatcher fans rows out to destinations; caches of public pages watch it too.
 */
export const OutboxEventEntity = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  properties: (p) => ({
    seq: p.integer().primary().autoincrement(),
    /** `evt-<type>-<resource id>-v<version>`: the same on every attempt and every destination. */
    eventId: p.string().length(200).unique(),
    type: p.enum([...SIGNAL_TYPES]),
    resourceId: p.string().length(40),
    resourceVersion: p.integer(),
    organizationId: p.string().length(64),
    /** False for changes that are public but never pushed (discreet needs). */
    deliverable: p.boolean(),
    occurredAt: p.datetime(),
    /** The envelope's `data`, built by the visibility module. */
    data: p.json<Record<string, unknown>>(),
    /** Set once the dispatcher has turned the row into deliveries for every matching destination. */
    fannedOutAt: p.datetime().nullable(),
  }),
  indexes: [{ name: 'outbox_events_fan_out_idx', properties: ['fannedOutAt', 'seq'] }],
});

export type OutboxEvent = InferEntity<typeof OutboxEventEntity>;
