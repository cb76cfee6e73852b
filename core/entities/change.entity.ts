import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * What one committed transaction touched, written in that transaction (beside its outbox row):
 * the resource's kind and id, and the public lists that show or embed it. Other processes read
 * these rows (the change feed) to retire exactly the cached answers the change made stale.
 * Rows are pruned after a while; a process that fell behind further retires everything.
 */
export const ChangeEntity = defineEntity({
  name: 'Change',
  tableName: 'changes',
  properties: (p) => ({
    seq: p.integer().primary().autoincrement(),
    /** `need`, `event`, `organization`, `api_key`, `destination`, `delivery`. */
    kind: p.string().length(20),
    resourceId: p.string().length(64),
    /** Public lists showing or embedding the resource, comma-separated (`opportunities,events`). */
    lists: p.string().length(100).default(''),
    at: p.datetime(),
  }),
  indexes: [{ name: 'changes_at_idx', properties: ['at'] }],
});

export type Change = InferEntity<typeof ChangeEntity>;
