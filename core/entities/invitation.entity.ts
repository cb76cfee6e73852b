import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from './member.entity.ts';
import { ROLES } from './membership.entity.ts';
import { OrganizationEntity } from './organization.entity.ts';

/**
 * An invitation to join an organization, mailed by one of its admins: the link's token is stored as
 * its SHA-256 only, works once (`acceptedAt`) and until `expiresAt` (7 days).
 */
export const InvitationEntity = defineEntity({
  name: 'Invitation',
  tableName: 'organization_invitations',
  properties: (p) => ({
    id: p.string().primary().length(40),
    tokenHash: p.string().length(64).unique(),
    organization: p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    email: p.string().length(320),
    role: p.enum([...ROLES]),
    invitedBy: p.manyToOne(MemberEntity).deleteRule('set null').nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
  }),
  indexes: [{ name: 'organization_invitations_organization_idx', properties: ['organization'] }],
});

export type Invitation = InferEntity<typeof InvitationEntity>;
