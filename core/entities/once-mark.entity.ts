import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * An id claimed once for every instance and restart, such as a one-time secret that was shown:
 * a second claim of the same id finds the row. Kept until it expires (the value it guards is
 * unusable by then), and deleted after.
 */
export const OnceMarkEntity = defineEntity({
  name: 'OnceMark',
  tableName: 'once_marks',
  properties: (p) => ({
    id: p.string().primary().length(100),
    expiresAt: p.datetime(),
  }),
  indexes: [{ name: 'once_marks_expires_idx', properties: ['expiresAt'] }],
});

export type OnceMark = InferEntity<typeof OnceMarkEntity>;
