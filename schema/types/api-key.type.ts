import type { ApiKeyView } from '../../core/services/api-key.service.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';

const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', { values: ['active', 'expired', 'revoked'] as const });

export const ApiKeyRef = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'A public API key. Its value is shown once, at creation, and never stored.',
  authScopes: ORGANIZATION_ADMIN,
  fields: (t) => ({
    id: t.exposeID('id'),
    organizationId: t.exposeID('organizationId'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'First characters of the key, to tell keys apart.' }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    status: t.expose('status', { type: ApiKeyStatusEnum }),
  }),
});

const CreatedApiKeyRef = builder.objectRef<{ apiKey: ApiKeyView; key: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    apiKey: t.expose('apiKey', { type: ApiKeyRef }),
    key: t.exposeString('key', { description: 'The key itself. Shown this once: store it now.' }),
  }),
});

const NewApiKeyInput = builder.inputType('NewApiKeyInput', {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    name: t.string(),
    scopes: t.stringList({ required: true, description: 'Any of organization:read, opportunities:read, events:read.' }),
    expiresAt: t.field({ type: 'DateTime', required: true }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: "An organization's API keys, newest first.",
    authScopes: ORGANIZATION_ADMIN,
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.apiKeys.list(ctx.actor, String(organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyRef,
    description: "Creates a key within the plan's active-key limit.",
    authScopes: ORGANIZATION_ADMIN,
    args: { input: t.arg({ type: NewApiKeyInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.apiKeys.create(ctx.actor, {
        organizationId: String(input.organizationId),
        name: input.name ?? undefined,
        scopes: input.scopes,
        expiresAt: input.expiresAt,
      }),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    description: 'Revokes a key at once.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.apiKeys.revoke(ctx.actor, String(id)),
  }),
}));
