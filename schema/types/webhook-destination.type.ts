import { SIGNAL_TYPES } from '../../core/entities/index.ts';
import { DELIVERY_FORMATS } from '../../core/webhooks/envelope.ts';
import type { CreatedDestination } from '../../core/services/destination.service.ts';
import type { DestinationView } from '../../core/webhooks/views.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';

const formats = `One of ${DELIVERY_FORMATS.join(', ')}.`;
const kinds = `Any of ${SIGNAL_TYPES.join(', ')}; all when omitted.`;

export const WebhookDestinationRef = builder.objectRef<DestinationView>('WebhookDestination').implement({
  description: 'Where an organization receives signals. URLs and secrets are shown masked only.',
  authScopes: ORGANIZATION_ADMIN,
  fields: (t) => ({
    id: t.exposeID('id'),
    organizationId: t.exposeID('organizationId'),
    format: t.exposeString('format', { description: formats }),
    url: t.exposeString('url', { description: 'Masked.' }),
    language: t.exposeString('language'),
    kinds: t.exposeStringList('kinds'),
    scope: t.exposeString('scope', { description: 'platform: the platform-wide public feed; own: this organization only.' }),
    connectedVia: t.exposeString('connectedVia', { description: 'manual or oauth (the team-chat connection flow).' }),
    status: t.exposeString('status', { description: 'active or disabled (a 410 answer disables).' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    secret: t.exposeString('secret', { nullable: true, description: 'Masked signing secret (standard-json only).' }),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'During a rotation: when the replaced secret stops signing.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreatedDestinationRef = builder.objectRef<CreatedDestination>('CreatedWebhookDestination').implement({
  fields: (t) => ({
    destination: t.expose('destination', { type: WebhookDestinationRef }),
    secret: t.exposeString('secret', { nullable: true, description: 'The signing secret (standard-json). Shown this once: store it now.' }),
  }),
});

const TeamChatConnectionRef = builder.objectRef<{ state: string; expiresAt: Date }>('TeamChatConnection').implement({
  fields: (t) => ({
    state: t.exposeString('state', { description: 'The OAuth state to send to the provider; works once.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const NewDestinationInput = builder.inputType('NewWebhookDestinationInput', {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    format: t.string({ required: true, description: formats }),
    url: t.string({ required: true, description: 'https; never a private or reserved address.' }),
    language: t.string({ description: 'en (default) or fr.' }),
    kinds: t.stringList({ description: kinds }),
    scope: t.string({ description: 'platform (default) or own.' }),
  }),
});

const TeamChatConnectionInput = builder.inputType('TeamChatConnectionInput', {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    language: t.string({ description: 'en (default) or fr.' }),
    kinds: t.stringList({ description: kinds }),
    scope: t.string({ description: 'platform (default) or own.' }),
  }),
});

builder.queryFields((t) => ({
  pendingTeamChatConnection: t.field({
    type: TeamChatConnectionRef,
    description: 'A team-chat connection waiting for the provider; INVALID_STATE when the state is unknown, used or expired.',
    authScopes: { internal: true },
    args: { state: t.arg.string({ required: true }), sessionId: t.arg.id({ description: 'The browser session the callback arrived with, if any: a flow started from the pages must end in it.' }) },
    resolve: (_root, { state, sessionId }, ctx) => ctx.services.destinations.pendingTeamChatConnection(ctx.actor, state, sessionId == null ? null : String(sessionId)),
  }),
  webhookDestinations: t.field({
    type: [WebhookDestinationRef],
    description: "An organization's webhook destinations, oldest first.",
    authScopes: ORGANIZATION_ADMIN,
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.destinations.list(ctx.actor, String(organizationId)),
  }),
  webhookDestination: t.field({
    type: WebhookDestinationRef,
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookDestination: t.field({
    type: CreatedDestinationRef,
    description: "Adds a destination within the plan's limit; a standard-json destination's secret is returned this once.",
    authScopes: ORGANIZATION_ADMIN,
    args: { input: t.arg({ type: NewDestinationInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.destinations.create(ctx.actor, {
        organizationId: String(input.organizationId),
        format: input.format,
        url: input.url,
        language: input.language ?? undefined,
        kinds: input.kinds ?? undefined,
        scope: input.scope ?? undefined,
      }),
  }),
  deleteWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Deletes a destination and its deliveries.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.delete(ctx.actor, String(id)),
  }),
  rotateWebhookSecret: t.field({
    type: CreatedDestinationRef,
    description: 'A new signing secret, returned this once; the old one keeps signing for 24 hours.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.rotateSecret(ctx.actor, String(id)),
  }),
  enableWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Turns a disabled destination back on; its waiting deliveries resume.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.enable(ctx.actor, String(id)),
  }),
  beginTeamChatConnection: t.field({
    type: TeamChatConnectionRef,
    description: 'Starts the team-chat OAuth flow; the destination is created when the provider sends the admin back.',
    authScopes: ORGANIZATION_ADMIN,
    args: { input: t.arg({ type: TeamChatConnectionInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.destinations.beginTeamChatConnection(ctx.actor, {
        organizationId: String(input.organizationId),
        language: input.language ?? undefined,
        kinds: input.kinds ?? undefined,
        scope: input.scope ?? undefined,
      }),
  }),
  completeTeamChatConnection: t.field({
    type: WebhookDestinationRef,
    description: "Ends the team-chat OAuth flow with the channel's incoming URL.",
    authScopes: { internal: true },
    args: { state: t.arg.string({ required: true }), incomingUrl: t.arg.string({ required: true }), sessionId: t.arg.id({ description: 'The browser session the callback arrived with, if any: a flow started from the pages must end in it.' }) },
    resolve: (_root, { state, incomingUrl, sessionId }, ctx) =>
      ctx.services.destinations.completeTeamChatConnection(ctx.actor, state, incomingUrl, sessionId == null ? null : String(sessionId)),
  }),
}));
