import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { OrganizationEntity } from './organization.entity.ts';

export const API_SCOPES = ['organization:read', 'opportunities:read', 'events:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: (p) => ({
    id: p.string().primary().length(40),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    name: p.string().length(100),
    /** First characters of the key, shown in lists so a person can tell keys apart. */
    prefix: p.string().length(20),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: p.string().length(64).unique(),
    scopes: p.json<ApiScope[]>(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /** When a replacement was created: from then on the key winds down to `expiresAt`, outside the plan's limit. */
    rolledAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});

export type ApiKey = InferEntity<typeof ApiKeyEntity>;
