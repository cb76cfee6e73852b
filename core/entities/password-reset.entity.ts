import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from './member.entity.ts';

/**
 * A password reset link sent to a member: the link's token is stored as its SHA-256 only, works
 * once (`usedAt`) and until `expiresAt`. In the database, so every instance knows it.
 */
export const PasswordResetEntity = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: (p) => ({
    tokenHash: p.string().primary().length(64),
    member: p.manyToOne(MemberEntity).deleteRule('cascade'),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  }),
  indexes: [{ name: 'password_resets_member_idx', properties: ['member'] }],
});

export type PasswordReset = InferEntity<typeof PasswordResetEntity>;
