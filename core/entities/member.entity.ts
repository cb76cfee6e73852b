import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const MemberEntity = defineEntity({
  name: 'Member',
  tableName: 'members',
  properties: (p) => ({
    id: p.string().primary().length(40),
    email: p.string().length(320).unique(),
    name: p.string().length(200),
    /** scrypt hash; null until the member sets a password. */
    passwordHash: p.string().length(300).nullable(),
    /** Bumped by "sign out everywhere" and password changes: older sessions and grants end. */
    credentialsEpoch: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});

export type Member = InferEntity<typeof MemberEntity>;
