import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from './organization.entity.ts';

/** An organization's link to its e-signature provider; the provider signs notifications with the secret. */
export const EsignConnectionEntity = defineEntity({
  name: 'EsignConnection',
  tableName: 'esign_connections',
  properties: (p) => ({
    id: p.string().primary().length(40),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    provider: p.string().length(60),
    secretSealed: p.text(),
    createdAt: p.datetime(),
  }),
});

/** Provider notifications already applied: a replay changes nothing. */
export const EsignInboundEventEntity = defineEntity({
  name: 'EsignInboundEvent',
  tableName: 'esign_inbound_events',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    connection: p.manyToOne(EsignConnectionEntity).deleteRule('cascade'),
    providerEventId: p.string().length(200),
    receivedAt: p.datetime(),
  }),
  uniques: [{ name: 'esign_inbound_events_once', properties: ['connection', 'providerEventId'] }],
});

export type EsignConnection = InferEntity<typeof EsignConnectionEntity>;
export type EsignInboundEvent = InferEntity<typeof EsignInboundEventEntity>;
