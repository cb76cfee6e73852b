import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A single counter bumped in every transaction that changes public output or API keys.
 * Processes poll it to drop cached pages and key lookups made stale by another process.
 */
export const ChangeEpochEntity = defineEntity({
  name: 'ChangeEpoch',
  tableName: 'change_epoch',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(false),
    value: p.integer().default(0),
  }),
});

export type ChangeEpoch = InferEntity<typeof ChangeEpochEntity>;
