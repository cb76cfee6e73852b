import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from '../member.entity.ts';
import { PackEntity } from './pack.entity.ts';

// Milestones, documents and the private thread of a pack.

export const MilestoneEntity = defineEntity({
  name: 'Milestone',
  tableName: 'milestones',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    title: p.string().length(200),
    amountCents: p.integer(),
    dueAt: p.datetime(),
    status: p.enum(['planned', 'delivered', 'accepted']),
  }),
});

export const PackDocumentEntity = defineEntity({
  name: 'PackDocument',
  tableName: 'pack_documents',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    filename: p.string().length(255),
    storageKey: p.string().length(500),
    summary: p.text(),
  }),
});

export const PrivateThreadEntity = defineEntity({
  name: 'PrivateThread',
  tableName: 'private_threads',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    subject: p.string().length(200),
  }),
});

export const ThreadMessageEntity = defineEntity({
  name: 'ThreadMessage',
  tableName: 'thread_messages',
  properties: (p) => ({
    id: p.string().primary().length(40),
    thread: p.manyToOne(PrivateThreadEntity).deleteRule('no action'),
    author: p.manyToOne(MemberEntity).deleteRule('no action'),
    body: p.text(),
    sentAt: p.datetime(),
  }),
});

export type Milestone = InferEntity<typeof MilestoneEntity>;
export type PackDocument = InferEntity<typeof PackDocumentEntity>;
export type PrivateThread = InferEntity<typeof PrivateThreadEntity>;
export type ThreadMessage = InferEntity<typeof ThreadMessageEntity>;
