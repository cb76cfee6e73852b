import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { WebhookEnvelope } from '../webhooks/contract.ts';
import { WebhookDestinationEntity } from './webhook-destination.entity.ts';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One signal for one destination, attempted until it succeeds or runs out of attempts. */
export const WebhookDeliveryEntity = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: (p) => ({
    id: p.string().primary().length(40),
    // The lane index starts with the destination: a second index on it alone would only cost writes.
    destination: p.manyToOne(WebhookDestinationEntity).deleteRule('cascade').index(false),
    organizationId: p.string().length(64),
    /** Outbox sequence number: the lane's order. Test signals take the sequence at their creation. */
    seq: p.integer(),
    eventId: p.string().length(200),
    type: p.string().length(40),
    /**
     * The envelope of a test signal. Signals fanned out from the outbox hold JSON null instead:
     * theirs is built from the outbox row `seq` (and the destination's scope) on every attempt, the
     * same each time, rather than copied into every destination's row.
     */
    envelope: p.json<WebhookEnvelope | null>(),
    test: p.boolean().default(false),
    status: p.enum([...DELIVERY_STATUSES]).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.string().length(300).nullable(),
    lastAttemptAt: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  }),
  indexes: [
    { name: 'webhook_deliveries_lane_idx', properties: ['destination', 'status', 'seq'] },
    { name: 'webhook_deliveries_org_idx', properties: ['organizationId', 'createdAt'] },
  ],
});

/** What one HTTP attempt of a delivery gave. */
export const DeliveryAttemptEntity = defineEntity({
  name: 'DeliveryAttempt',
  tableName: 'delivery_attempts',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    // Covered by delivery_attempts_delivery_idx, which starts with it.
    delivery: p.manyToOne(WebhookDeliveryEntity).deleteRule('cascade').index(false),
    number: p.integer(),
    at: p.datetime(),
    durationMs: p.integer(),
    statusCode: p.integer().nullable(),
    error: p.string().length(300).nullable(),
    /** At most 2 KB of the response body. */
    responseExcerpt: p.text().nullable(),
    /** The headers sent, signatures included (never the secret): JSON [name, value] pairs, bounded (attempt-headers.ts). */
    requestHeaders: p.text().nullable(),
    /** The receiver's headers without Set-Cookie: JSON [name, value] pairs, bounded. */
    responseHeaders: p.text().nullable(),
  }),
  indexes: [{ name: 'delivery_attempts_delivery_idx', properties: ['delivery', 'number'] }],
});

export type WebhookDelivery = InferEntity<typeof WebhookDeliveryEntity>;
export type DeliveryAttempt = InferEntity<typeof DeliveryAttemptEntity>;
