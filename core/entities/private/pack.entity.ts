import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from '../member.entity.ts';
import { NeedEntity } from '../need.entity.ts';
import { OrganizationEntity } from '../organization.entity.ts';

// Packs and everything inside them are private: readable only by the pack's members,
// never by any facade of this service (see core/visibility.ts).

export const PackEntity = defineEntity({
  name: 'Pack',
  tableName: 'packs',
  properties: (p) => ({
    id: p.string().primary().length(40),
    need: p.manyToOne(NeedEntity).nullable().deleteRule('set null'),
    leadOrganization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    name: p.string().length(200),
    status: p.enum(['forming', 'active', 'completed']),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});

/** A pack member's positioning and price: private to the pack. */
export const PackMemberEntity = defineEntity({
  name: 'PackMember',
  tableName: 'pack_members',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    positioning: p.text(),
    priceCents: p.integer(),
    currency: p.string().length(3),
  }),
});

/** An invitation to join a pack; accepted or refused on the platform only. */
export const PackInvitationEntity = defineEntity({
  name: 'PackInvitation',
  tableName: 'pack_invitations',
  properties: (p) => ({
    id: p.string().primary().length(40),
    pack: p.manyToOne(PackEntity).deleteRule('no action'),
    member: p.manyToOne(MemberEntity).deleteRule('no action'),
    invitedBy: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    status: p.enum(['pending', 'accepted', 'refused']),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});

export type Pack = InferEntity<typeof PackEntity>;
export type PackMember = InferEntity<typeof PackMemberEntity>;
export type PackInvitation = InferEntity<typeof PackInvitationEntity>;
