import type { ApiKeyView } from '../../core/services/api-key.service.ts';
import { builder, describedValues, ORGANIZATION_ADMIN } from '../builder.ts';
import { KeyRollOverlapEnum } from './overlap.type.ts';

const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', {
  description: 'Whether a key still opens the public API.',
  values: describedValues(['active', 'retiring', 'expired', 'revoked'] as const, {
    active: 'Opens the public API until its expiry.',
    retiring: "Rolled: still opens the public API until its expiry, outside the plan's active-key limit.",
    expired: 'Past its expiry: refused with invalid_key.',
    revoked: 'Revoked by an admin: refused with invalid_key from that moment.',
  }),
});

export const ApiKeyRef = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'A public API key. Its value is shown once, at creation, and never stored.',
  authScopes: ORGANIZATION_ADMIN,
  fields: (t) => ({
    id: t.exposeID('id', { description: "The key's id (not the key itself)." }),
    organizationId: t.exposeID('organizationId', {
      description: "The organization the key reads for; its plan sets the key's rate limit and quota.",
    }),
    name: t.exposeString('name', { description: 'A label the admins chose, to tell their keys apart.' }),
    prefix: t.exposeString('prefix', { description: 'First characters of the key, to tell keys apart.' }),
    scopes: t.exposeStringList('scopes', { description: 'What the key may read: organization:read, opportunities:read, events:read.' }),
    createdAt: t.expose('createdAt', { description: 'When the key was created.', type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { description: 'When the key stops working, chosen at creation.', type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', {
      description: 'When the key last authenticated a request; null if never.',
      type: 'DateTime',
      nullable: true,
    }),
    revokedAt: t.expose('revokedAt', { description: 'When the key was revoked; null while it was not.', type: 'DateTime', nullable: true }),
    rolledAt: t.expose('rolledAt', {
      description: 'When a replacement was created by rolling it; null if never rolled.',
      type: 'DateTime',
      nullable: true,
    }),
    status: t.expose('status', { description: 'active, retiring, expired or revoked, as of now.', type: ApiKeyStatusEnum }),
  }),
});

const CreatedApiKeyRef = builder.objectRef<{ apiKey: ApiKeyView; key: string }>('CreatedApiKey').implement({
  description: 'A new API key: its record and, this once, the key itself.',
  fields: (t) => ({
    apiKey: t.expose('apiKey', { description: 'The stored record of the key (its hash only).', type: ApiKeyRef }),
    key: t.exposeString('key', { description: 'The key itself. Shown this once: store it now.' }),
  }),
});

const RolledApiKeyRef = builder.objectRef<{ apiKey: ApiKeyView; key: string; rolled: ApiKeyView }>('RolledApiKey').implement({
  description: 'The replacement of a rolled key, with its value this once, and the old key winding down.',
  fields: (t) => ({
    apiKey: t.expose('apiKey', { description: 'The replacement key (its hash only).', type: ApiKeyRef }),
    key: t.exposeString('key', { description: 'The replacement key itself. Shown this once: store it now.' }),
    rolled: t.expose('rolled', { description: 'The old key, working until its new expiry.', type: ApiKeyRef }),
  }),
});

const NewApiKeyInput = builder.inputType('NewApiKeyInput', {
  description: 'A new API key for an organization.',
  fields: (t) => ({
    organizationId: t.id({ description: 'The organization the key reads for; an admin of it asks.', required: true }),
    name: t.string({ description: 'A label to tell the key apart; a default name when omitted.' }),
    scopes: t.stringList({ required: true, description: 'Any of organization:read, opportunities:read, events:read.' }),
    expiresAt: t.field({ description: 'When the key stops working; must be in the future.', type: 'DateTime', required: true }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: "An organization's API keys, newest first.",
    authScopes: ORGANIZATION_ADMIN,
    args: { organizationId: t.arg.id({ description: 'The organization whose keys to list.', required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.apiKeys.list(ctx.actor, String(organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyRef,
    description: "Creates a key within the plan's active-key limit.",
    authScopes: ORGANIZATION_ADMIN,
    args: { input: t.arg({ description: "The key's organization, label, scopes and expiry.", type: NewApiKeyInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.apiKeys.create(ctx.actor, {
        organizationId: String(input.organizationId),
        name: input.name ?? undefined,
        scopes: input.scopes,
        expiresAt: input.expiresAt,
      }),
  }),
  rollApiKey: t.field({
    type: RolledApiKeyRef,
    description:
      "Replaces an active key with a new one of the same name, scopes and lifetime; the old key works on for the overlap, outside the plan's limit.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      id: t.arg.id({ description: 'The id of the key to roll.', required: true }),
      overlap: t.arg({ description: 'How long the old key keeps working.', type: KeyRollOverlapEnum, required: true }),
    },
    resolve: (_root, { id, overlap }, ctx) => ctx.services.apiKeys.roll(ctx.actor, String(id), overlap),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    description: 'Revokes a key at once.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: 'The id of the key to revoke.', required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.apiKeys.revoke(ctx.actor, String(id)),
  }),
}));
