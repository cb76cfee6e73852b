import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { SignalType } from '../webhooks/contract.ts';
import { OrganizationEntity } from './organization.entity.ts';

/**
 * A team-chat connection in progress: the destination settings wait here, under the hash of
 * the OAuth `state`, until the provider sends the admin back.
 */
export const TeamChatAuthorizationEntity = defineEntity({
  name: 'TeamChatAuthorization',
  tableName: 'team_chat_authorizations',
  properties: (p) => ({
    stateHash: p.string().primary().length(64),
    organization: p.manyToOne(OrganizationEntity).deleteRule('no action'),
    language: p.string().length(5),
    kinds: p.json<SignalType[]>(),
    scope: p.string().length(10),
    /**
     * SHA-256 of the admin's browser session that started the flow from the administration
     * pages: only that browser may finish it. Null for a flow started by the CLI operator.
     */
    sessionHash: p.string().length(64).nullable(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  }),
});

export type TeamChatAuthorization = InferEntity<typeof TeamChatAuthorizationEntity>;
