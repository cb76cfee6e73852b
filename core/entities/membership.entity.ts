import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from './member.entity.ts';
import { OrganizationEntity } from './organization.entity.ts';

export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const MembershipEntity = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: (p) => ({
    member: p.manyToOne(MemberEntity).deleteRule('no action').primary(),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action').primary(),
    role: p.enum([...ROLES]),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});

export type Membership = InferEntity<typeof MembershipEntity>;
