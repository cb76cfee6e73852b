import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { DELIVERY_FORMATS, LANGUAGES, type SignalType } from '../webhooks/contract.ts';
import { OrganizationEntity } from './organization.entity.ts';

export const DESTINATION_SCOPES = ['platform', 'own'] as const;
export type DestinationScope = (typeof DESTINATION_SCOPES)[number];
/** A new destination's scope when none is chosen: its own organization's events. */
export const DEFAULT_SCOPE: DestinationScope = 'own';
export const DESTINATION_STATUSES = ['active', 'disabled'] as const;
export type DestinationStatus = (typeof DESTINATION_STATUSES)[number];

/**
 * Where an organization receives signals. The URL and the signing secrets are sealed
 * (AES-256-GCM); only masked forms are ever shown.
 */
export const WebhookDestinationEntity = defineEntity({
  name: 'WebhookDestination',
  tableName: 'webhook_destinations',
  properties: (p) => ({
    id: p.string().primary().length(40),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    /** The admins' name for it, to tell destinations apart; empty for those added before names. */
    name: p.string().length(100).default(''),
    description: p.string().length(500).default(''),
    format: p.enum([...DELIVERY_FORMATS]),
    urlSealed: p.text(),
    urlMasked: p.string().length(300),
    language: p.enum([...LANGUAGES]),
    kinds: p.json<SignalType[]>(),
    scope: p.enum([...DESTINATION_SCOPES]),
    /** How the URL was obtained: typed in, or the team-chat connection flow. */
    connectedVia: p.enum(['manual', 'oauth']).default('manual'),
    secretSealed: p.text().nullable(),
    /** The secret replaced by a rotation, still signing until `previousSecretExpiresAt`. */
    previousSecretSealed: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    status: p.enum([...DESTINATION_STATUSES]).default('active'),
    disabledReason: p.string().length(300).nullable(),
    /** Outbox rows after this sequence number are for this destination: no history on creation. */
    sinceSeq: p.integer(),
    /** The dispatcher process that owns this destination's lane, until `leaseExpiresAt`. */
    leaseOwner: p.string().length(80).nullable(),
    leaseExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type WebhookDestination = InferEntity<typeof WebhookDestinationEntity>;
