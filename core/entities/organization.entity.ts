import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const PLANS = ['base', 'alpha', 'clan'] as const;
export type Plan = (typeof PLANS)[number];

export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: (p) => ({
    id: p.string().primary().length(64),
    name: p.string().length(200),
    plan: p.enum([...PLANS]),
    /** Chose to appear in public directories (the public assistant connector). */
    listed: p.boolean().default(true),
    /** A demonstration account: never public output. */
    demo: p.boolean().default(false),
    /** Profile complete enough to be shown by the public assistant connector. */
    complete: p.boolean().default(true),
    description: p.text().default(''),
    website: p.string().length(500).nullable(),
    logoUrl: p.string().length(500).nullable(),
    sectors: p.json<string[]>(),
    capabilities: p.json<string[]>(),
    networks: p.json<string[]>(),
    city: p.string().length(120).nullable(),
    region: p.string().length(120).nullable(),
    country: p.string().length(2).nullable(),
    /** Partner payments due and confirmed: public only as a rate and a count. */
    partnerPaymentsDue: p.integer().default(0),
    partnerPaymentsConfirmed: p.integer().default(0),
    partnersCount: p.integer().default(0),
    completedPacks: p.integer().default(0),
    referencesCount: p.integer().default(0),
    certificationsCount: p.integer().default(0),
    /** Internal: never output by any facade. */
    billingEmail: p.string().length(320).nullable(),
    internalNotes: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  }),
});

export type Organization = InferEntity<typeof OrganizationEntity>;
