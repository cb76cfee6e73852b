import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from './member.entity.ts';

/** A member's signed-in browser: the cookie holds a random id, stored here as its SHA-256 only. */
export const MemberSessionEntity = defineEntity({
  name: 'MemberSession',
  tableName: 'member_sessions',
  properties: (p) => ({
    idHash: p.string().primary().length(64),
    member: p.manyToOne(MemberEntity).deleteRule('cascade'),
    /** Must equal the member's current epoch: a password change or sign-out everywhere ends it. */
    credentialsEpoch: p.integer(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  }),
  indexes: [{ name: 'member_sessions_member_idx', properties: ['member'] }],
});

export type MemberSession = InferEntity<typeof MemberSessionEntity>;
