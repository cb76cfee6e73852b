import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** Calls to the public API per organization and UTC day: durable quota and usage charts. */
export const ApiUsageEntity = defineEntity({
  name: 'ApiUsage',
  tableName: 'api_usage',
  properties: (p) => ({
    organizationId: p.string().length(64).primary(),
    day: p.string().length(10).primary(),
    calls: p.integer().default(0),
  }),
});

export type ApiUsage = InferEntity<typeof ApiUsageEntity>;
