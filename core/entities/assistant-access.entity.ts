import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { MemberEntity } from './member.entity.ts';

// The member assistant connector's OAuth 2.1 records. Every secret (authorization code, access
// and refresh token) is stored as its SHA-256 only; the value itself is shown once, to the client.

/** What a member can let an assistant do. Publishing, messages, signatures and offers are not among them. */
export const ASSISTANT_SCOPES = ['account:read', 'invitations:read', 'needs:draft'] as const;
export type AssistantScope = (typeof ASSISTANT_SCOPES)[number];

/** Why a grant ended. */
export const GRANT_END_REASONS = [
  'revoked',
  'password_changed',
  'signed_out_everywhere',
  'refresh_token_reused',
  'code_replayed',
  'membership_changed',
] as const;
export type GrantEndReason = (typeof GRANT_END_REASONS)[number];

/**
 * An application registered through dynamic client registration (RFC 7591): public clients only.
 * Anyone may register one, so one that no member approves within UNUSED_CLIENT_DAYS expires.
 */
export const AssistantClientEntity = defineEntity({
  name: 'AssistantClient',
  tableName: 'assistant_clients',
  properties: (p) => ({
    id: p.string().primary().length(40),
    /** Self-declared by the application; the consent page says so. */
    name: p.string().length(200),
    redirectUris: p.json<string[]>(),
    createdAt: p.datetime(),
    /** Last approved by a member, or last exchanging a code or a refresh token; null: never used. */
    lastUsedAt: p.datetime().nullable(),
  }),
  indexes: [{ name: 'assistant_clients_unused_idx', properties: ['lastUsedAt', 'createdAt'] }],
});

/** Days a registered application may wait for its first use before it expires. */
export const UNUSED_CLIENT_DAYS = 30;

/** An authorization code: single-use, short-lived, bound to its PKCE challenge, redirect and resource. */
export const AuthorizationCodeEntity = defineEntity({
  name: 'AuthorizationCode',
  tableName: 'assistant_authorization_codes',
  properties: (p) => ({
    codeHash: p.string().primary().length(64),
    client: p.manyToOne(AssistantClientEntity).deleteRule('cascade'),
    member: p.manyToOne(MemberEntity).deleteRule('cascade'),
    scopes: p.json<AssistantScope[]>(),
    /** S256 challenge, base64url. */
    codeChallenge: p.string().length(128),
    redirectUri: p.text(),
    resource: p.string().length(500),
    /** The member's credentials epoch at consent: a password change in between voids the code. */
    credentialsEpoch: p.integer(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    /** The grant the code was exchanged into; a replay of the code ends it. */
    grantId: p.string().length(40).nullable(),
    createdAt: p.datetime(),
  }),
});

/** A member's consent to one application: ends on revocation, password change or sign-out everywhere. */
export const AssistantGrantEntity = defineEntity({
  name: 'AssistantGrant',
  tableName: 'assistant_grants',
  properties: (p) => ({
    id: p.string().primary().length(40),
    member: p.manyToOne(MemberEntity).deleteRule('cascade'),
    client: p.manyToOne(AssistantClientEntity).deleteRule('cascade'),
    scopes: p.json<AssistantScope[]>(),
    /** Must equal the member's current epoch for the grant to be usable. */
    credentialsEpoch: p.integer(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    revokedReason: p.string().length(40).nullable(),
  }),
  indexes: [{ name: 'assistant_grants_member_idx', properties: ['member', 'revokedAt'] }],
});

export const TOKEN_KINDS = ['access', 'refresh'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** An access or refresh token of a grant. Refresh tokens are rotated: each is used once. */
export const AssistantTokenEntity = defineEntity({
  name: 'AssistantToken',
  tableName: 'assistant_tokens',
  properties: (p) => ({
    hash: p.string().primary().length(64),
    grant: p.manyToOne(AssistantGrantEntity).deleteRule('cascade'),
    kind: p.enum([...TOKEN_KINDS]),
    scopes: p.json<AssistantScope[]>(),
    expiresAt: p.datetime(),
    /** Refresh tokens: when it was exchanged for the next pair. A second use ends the grant. */
    usedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  }),
  indexes: [{ name: 'assistant_tokens_grant_idx', properties: ['grant'] }],
});

/** One tool call made for a member: readable by the member and by internal callers. */
export const AssistantAuditEntryEntity = defineEntity({
  name: 'AssistantAuditEntry',
  tableName: 'assistant_audit_entries',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    member: p.manyToOne(MemberEntity).deleteRule('cascade'),
    grant: p.manyToOne(AssistantGrantEntity).deleteRule('cascade'),
    clientId: p.string().length(40),
    /** The application's name when the call was made. */
    clientName: p.string().length(200),
    tool: p.string().length(60),
    /** `ok`, or the error code the call ended with (`forbidden`, `invalid_input`, ...). */
    outcome: p.string().length(40),
    at: p.datetime(),
  }),
  indexes: [{ name: 'assistant_audit_member_idx', properties: ['member', 'id'] }],
});

export type AssistantClient = InferEntity<typeof AssistantClientEntity>;
export type AuthorizationCode = InferEntity<typeof AuthorizationCodeEntity>;
export type AssistantGrant = InferEntity<typeof AssistantGrantEntity>;
export type AssistantToken = InferEntity<typeof AssistantTokenEntity>;
export type AssistantAuditEntry = InferEntity<typeof AssistantAuditEntryEntity>;
