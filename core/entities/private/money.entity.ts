import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from '../member.entity.ts';
import { OrganizationEntity } from '../organization.entity.ts';
import { PackEntity } from './pack.entity.ts';

// Revenue splits, collections and payouts with their confirmations: private to the pack.

export interface RevenueShare {
  organizationId: string;
  percent: number;
  amountCents: number;
}

export const RevenueSplitEntity = defineEntity({
  name: 'RevenueSplit',
  tableName: 'revenue_splits',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    frozen: p.boolean().default(false),
    shares: p.json<RevenueShare[]>(),
    totalCents: p.integer(),
    currency: p.string().length(3),
  }),
});

export const CollectionEntity = defineEntity({
  name: 'Collection',
  tableName: 'collections',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    amountCents: p.integer(),
    currency: p.string().length(3),
    payerReference: p.string().length(200),
    receivedAt: p.datetime(),
  }),
});

export const PayoutEntity = defineEntity({
  name: 'Payout',
  tableName: 'payouts',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    recipient: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    amountCents: p.integer(),
    currency: p.string().length(3),
    status: p.enum(['scheduled', 'paid', 'confirmed']),
    paidAt: p.datetime().nullable(),
  }),
});

export const PayoutConfirmationEntity = defineEntity({
  name: 'PayoutConfirmation',
  tableName: 'payout_confirmations',
  properties: (p) => ({
    id: p.string().primary().length(40),
    payout: p.manyToOne(PayoutEntity).deleteRule('no action'),
    confirmedBy: p.manyToOne(MemberEntity).deleteRule('no action'),
    note: p.text(),
    confirmedAt: p.datetime(),
  }),
});

export type RevenueSplit = InferEntity<typeof RevenueSplitEntity>;
export type Collection = InferEntity<typeof CollectionEntity>;
export type Payout = InferEntity<typeof PayoutEntity>;
export type PayoutConfirmation = InferEntity<typeof PayoutConfirmationEntity>;
