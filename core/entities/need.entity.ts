import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from './member.entity.ts';
import { OrganizationEntity } from './organization.entity.ts';

export const NEED_STATES = ['draft', 'public', 'private', 'withdrawn'] as const;
export type NeedState = (typeof NEED_STATES)[number];

export const NeedEntity = defineEntity({
  name: 'Need',
  tableName: 'needs',
  properties: (p) => ({
    id: p.string().primary().length(40),
    organization: p.manyToOne(OrganizationEntity),
    title: p.string().length(200),
    description: p.text().default(''),
    requiredExpertise: p.json<string[]>(),
    remoteAllowed: p.boolean().default(false),
    city: p.string().length(120).nullable(),
    region: p.string().length(120).nullable(),
    country: p.string().length(2).nullable(),
    deadline: p.datetime().nullable(),
    state: p.enum([...NEED_STATES]),
    /** Readable by id and in lists, never pushed by webhook. */
    discreet: p.boolean().default(false),
    /** Demonstration content: never public output. */
    demo: p.boolean().default(false),
    /** Bumped on every public change; part of the webhook event id. */
    version: p.integer().default(0),
    publishedAt: p.datetime().nullable(),
    withdrawnAt: p.datetime().nullable(),
    createdBy: p.manyToOne(MemberEntity).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  }),
  // Keyset pagination of public needs, newest first (see need.service.ts): the list's equalities,
  // then its order; a deep page seeks it with `(published_at, id) < (?, ?)` like the first one.
  indexes: [{ name: 'needs_public_feed_idx', properties: ['state', 'demo', 'publishedAt', 'id'] }],
});

export type Need = InferEntity<typeof NeedEntity>;
