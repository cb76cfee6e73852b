import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from '../member.entity.ts';
import { NeedEntity } from '../need.entity.ts';
import { OrganizationEntity } from '../organization.entity.ts';
import { PackEntity } from './pack.entity.ts';

// Quotes, pacts and their signatures, private clauses and contract templates.

export const QuoteEntity = defineEntity({
  name: 'Quote',
  tableName: 'quotes',
  properties: (p) => ({
    id: p.string().primary().length(40),
    need: p.manyToOne(NeedEntity).deleteRule('no action'),
    pack: p.manyToOne(PackEntity).nullable().deleteRule('set null'),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    amountCents: p.integer(),
    currency: p.string().length(3),
    body: p.text(),
    status: p.enum(['draft', 'submitted', 'accepted', 'refused']),
  }),
});

export const PactEntity = defineEntity({
  name: 'Pact',
  tableName: 'pacts',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    terms: p.text(),
    status: p.enum(['draft', 'sent', 'signed', 'void']),
  }),
});

/** Signature state, updated by the e-signature provider's inbound notifications. */
export const PactSignatureEntity = defineEntity({
  name: 'PactSignature',
  tableName: 'pact_signatures',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pact: p.manyToOne(PactEntity).deleteRule('no action'),
    member: p.manyToOne(MemberEntity).deleteRule('no action'),
    providerEnvelopeId: p.string().length(200),
    state: p.enum(['pending', 'signed', 'declined']),
    signedAt: p.datetime().nullable(),
  }),
});

export const PrivateClauseEntity = defineEntity({
  name: 'PrivateClause',
  tableName: 'private_clauses',
  properties: (p) => ({
    id: p.string().primary().length(40),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    title: p.string().length(200),
    body: p.text(),
  }),
});

export const ContractTemplateEntity = defineEntity({
  name: 'ContractTemplate',
  tableName: 'contract_templates',
  properties: (p) => ({
    id: p.string().primary().length(40),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    name: p.string().length(200),
    body: p.text(),
  }),
});

export type Quote = InferEntity<typeof QuoteEntity>;
export type Pact = InferEntity<typeof PactEntity>;
export type PactSignature = InferEntity<typeof PactSignatureEntity>;
export type PrivateClause = InferEntity<typeof PrivateClauseEntity>;
export type ContractTemplate = InferEntity<typeof ContractTemplateEntity>;
