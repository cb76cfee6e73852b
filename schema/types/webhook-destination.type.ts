import { SIGNAL_TYPES } from '../../core/entities/index.ts';
import { DELIVERY_FORMATS } from '../../core/webhooks/contract.ts';
import type { CreatedDestination } from '../../core/service-kit/destination-records.ts';
import type { DestinationView } from '../../core/webhooks/views.ts';
import type { DeliveryOutcomes } from '../../core/services/delivery.service.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { SecretOverlapEnum } from './overlap.type.ts';

const formats = `One of ${DELIVERY_FORMATS.join(', ')}.`;
const kinds = `Any of ${SIGNAL_TYPES.join(', ')}; all when omitted.`;

const DeliveryOutcomesRef = builder.objectRef<DeliveryOutcomes>('DeliveryOutcomes').implement({
  description: "How a destination's retained deliveries of a period ended; those still being attempted are not counted.",
  fields: (t) => ({
    since: t.expose('since', { type: 'DateTime', description: 'The start of the period; it ends now.' }),
    finished: t.exposeInt('finished', { description: 'Deliveries created in the period that succeeded or failed.' }),
    succeeded: t.exposeInt('succeeded', { description: 'Of those, the deliveries that succeeded.' }),
  }),
});

export const WebhookDestinationRef = builder.objectRef<DestinationView>('WebhookDestination').implement({
  description: 'Where an organization receives signals. URLs and secrets are shown masked only.',
  authScopes: ORGANIZATION_ADMIN,
  fields: (t) => ({
    id: t.exposeID('id', { description: "The destination's id." }),
    organizationId: t.exposeID('organizationId', { description: 'The organization receiving the signals.' }),
    name: t.exposeString('name', { description: 'The admins’ name for it; empty for destinations added before names.' }),
    description: t.exposeString('description', { description: "The admins' note about it; empty when none." }),
    format: t.exposeString('format', { description: formats }),
    url: t.exposeString('url', { description: 'Masked: the host and the last characters of the path.' }),
    receiverUrl: t.exposeString('receiverUrl', {
      nullable: true,
      description:
        "standard-json only: the URL whole (the admins' own receiver); null for chat and suite formats, whose URL is a credential.",
    }),
    language: t.exposeString('language', { description: "Language of the chat formats' text and dates: en or fr." }),
    kinds: t.exposeStringList('kinds', { description: 'The event kinds sent to it, such as need.created.' }),
    scope: t.exposeString('scope', { description: 'platform: the platform-wide public feed; own: this organization only.' }),
    connectedVia: t.exposeString('connectedVia', { description: 'manual or oauth (the team-chat connection flow).' }),
    status: t.exposeString('status', { description: 'active, paused (by an admin) or disabled (a 410 answer disables).' }),
    disabledReason: t.exposeString('disabledReason', {
      description: 'Why the destination was disabled, such as a 410 answer; null unless disabled.',
      nullable: true,
    }),
    secret: t.exposeString('secret', { nullable: true, description: 'Masked signing secret (standard-json only).' }),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'During a rotation: when the replaced secret stops signing.',
    }),
    createdAt: t.expose('createdAt', { description: 'When the destination was added.', type: 'DateTime' }),
    lastDayDeliveries: t.loadable({
      type: DeliveryOutcomesRef,
      description: 'Its deliveries of the last 24 hours that finished, and how many succeeded; one query for all the destinations asked.',
      load: (destinations: DestinationView[], ctx) => ctx.services.deliveries.lastDayOutcomes(ctx.actor, destinations),
      resolve: (destination) => destination,
    }),
  }),
});

const CreatedDestinationRef = builder.objectRef<CreatedDestination>('CreatedWebhookDestination').implement({
  description: 'A destination just added or given a new secret, with that secret this once.',
  fields: (t) => ({
    destination: t.expose('destination', { description: 'The destination, secrets masked.', type: WebhookDestinationRef }),
    secret: t.exposeString('secret', { nullable: true, description: 'The signing secret (standard-json). Shown this once: store it now.' }),
  }),
});

const TeamChatConnectionRef = builder.objectRef<{ state: string; expiresAt: Date }>('TeamChatConnection').implement({
  description: 'A team-chat connection flow waiting for the provider.',
  fields: (t) => ({
    state: t.exposeString('state', { description: 'The OAuth state to send to the provider; works once.' }),
    expiresAt: t.expose('expiresAt', { description: 'When the state stops working.', type: 'DateTime' }),
  }),
});

const NewDestinationInput = builder.inputType('NewWebhookDestinationInput', {
  description: 'A new webhook destination of an organization.',
  fields: (t) => ({
    organizationId: t.id({ description: 'The organization receiving the signals.', required: true }),
    format: t.string({ required: true, description: formats }),
    url: t.string({ required: true, description: 'https; never a private or reserved address.' }),
    name: t.string({ description: 'To tell destinations apart; up to 100 characters.' }),
    description: t.string({ description: 'Up to 500 characters.' }),
    language: t.string({ description: 'en (default) or fr.' }),
    kinds: t.stringList({ description: kinds }),
    scope: t.string({ description: 'own (default): this organization only; platform: the platform-wide public feed.' }),
  }),
});

const DestinationChangesInput = builder.inputType('WebhookDestinationChangesInput', {
  description: 'What to change; absent fields stay as they are.',
  fields: (t) => ({
    name: t.string({ description: 'A new name, up to 100 characters.' }),
    description: t.string({ description: 'A new note, up to 500 characters.' }),
    url: t.string({ description: 'A new https address; the signing secret and the retained deliveries stay.' }),
    language: t.string({ description: 'en or fr.' }),
    kinds: t.stringList({ description: `Any of ${SIGNAL_TYPES.join(', ')}; at least one.` }),
    scope: t.string({ description: 'platform or own.' }),
  }),
});

const TeamChatConnectionInput = builder.inputType('TeamChatConnectionInput', {
  description: 'What the team-chat destination will receive once the provider sends the admin back.',
  fields: (t) => ({
    organizationId: t.id({ description: 'The organization connecting its team chat.', required: true }),
    language: t.string({ description: 'en (default) or fr.' }),
    kinds: t.stringList({ description: kinds }),
    scope: t.string({ description: 'own (default): this organization only; platform: the platform-wide public feed.' }),
  }),
});

builder.queryFields((t) => ({
  pendingTeamChatConnection: t.field({
    type: TeamChatConnectionRef,
    description: 'A team-chat connection waiting for the provider; INVALID_STATE when the state is unknown, used or expired.',
    authScopes: { internal: true },
    args: {
      state: t.arg.string({ description: 'The OAuth state the provider sent back.', required: true }),
      sessionId: t.arg.id({
        description: 'The browser session the callback arrived with, if any: a flow started from the pages must end in it.',
      }),
    },
    resolve: (_root, { state, sessionId }, ctx) =>
      ctx.services.teamChatConnections.pending(ctx.actor, state, sessionId == null ? null : String(sessionId)),
  }),
  webhookDestinations: t.field({
    type: [WebhookDestinationRef],
    description: "An organization's webhook destinations, oldest first.",
    authScopes: ORGANIZATION_ADMIN,
    args: { organizationId: t.arg.id({ description: 'The organization whose destinations to list.', required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.destinations.list(ctx.actor, String(organizationId)),
  }),
  webhookDestination: t.field({
    description: 'One destination, secrets masked; NOT_FOUND when absent.',
    type: WebhookDestinationRef,
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The destination's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookDestination: t.field({
    type: CreatedDestinationRef,
    description: "Adds a destination within the plan's limit; a standard-json destination's secret is returned this once.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      input: t.arg({
        description: "The destination's organization, format, URL and what it receives.",
        type: NewDestinationInput,
        required: true,
      }),
    },
    resolve: (_root, { input }, ctx) =>
      ctx.services.destinations.create(ctx.actor, {
        organizationId: String(input.organizationId),
        format: input.format,
        url: input.url,
        name: input.name ?? undefined,
        description: input.description ?? undefined,
        language: input.language ?? undefined,
        kinds: input.kinds ?? undefined,
        scope: input.scope ?? undefined,
      }),
  }),
  deleteWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Deletes a destination and its deliveries.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The destination's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.delete(ctx.actor, String(id)),
  }),
  rotateWebhookSecret: t.field({
    type: CreatedDestinationRef,
    description: 'A new signing secret, returned this once; the old one keeps signing for the overlap (24 hours unless chosen).',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      id: t.arg.id({ description: "The destination's id.", required: true }),
      overlap: t.arg({ description: 'How long the old secret keeps signing; one_day when omitted.', type: SecretOverlapEnum }),
    },
    resolve: (_root, { id, overlap }, ctx) => ctx.services.destinations.rotateSecret(ctx.actor, String(id), overlap ?? 'one_day'),
  }),
  revealWebhookSecret: t.field({
    type: CreatedDestinationRef,
    description: "A standard-json destination's signing secret again, for an admin signed in in person who confirms their password.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      id: t.arg.id({ description: "The destination's id.", required: true }),
      password: t.arg.string({ description: "The admin's own password.", required: true }),
    },
    resolve: (_root, { id, password }, ctx) => ctx.services.destinations.revealSecret(ctx.actor, String(id), password),
  }),
  updateWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Changes a destination’s name, description, URL, language, kinds or scope.',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      id: t.arg.id({ description: "The destination's id.", required: true }),
      input: t.arg({ description: 'The fields to change.', type: DestinationChangesInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) =>
      ctx.services.destinations.update(ctx.actor, String(id), {
        name: input.name ?? undefined,
        description: input.description ?? undefined,
        url: input.url ?? undefined,
        language: input.language ?? undefined,
        kinds: input.kinds ?? undefined,
        scope: input.scope ?? undefined,
      }),
  }),
  pauseWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Stops deliveries until resumed; signals published meanwhile are not sent to it later.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The destination's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.pause(ctx.actor, String(id)),
  }),
  resumeWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Turns a paused or disabled (410) destination back on; it takes signals from now on.',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The destination's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.enable(ctx.actor, String(id)),
  }),
  enableWebhookDestination: t.field({
    type: WebhookDestinationRef,
    description: 'Turns a disabled or paused destination back on; it takes signals from now on (same as resumeWebhookDestination).',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The destination's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.destinations.enable(ctx.actor, String(id)),
  }),
  beginTeamChatConnection: t.field({
    type: TeamChatConnectionRef,
    description: 'Starts the team-chat OAuth flow; the destination is created when the provider sends the admin back.',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      input: t.arg({
        description: 'The organization, language and what the destination will receive.',
        type: TeamChatConnectionInput,
        required: true,
      }),
    },
    resolve: (_root, { input }, ctx) =>
      ctx.services.teamChatConnections.begin(ctx.actor, {
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
    args: {
      state: t.arg.string({ description: 'The OAuth state the provider sent back.', required: true }),
      incomingUrl: t.arg.string({ description: "The channel's incoming webhook URL, from the provider.", required: true }),
      sessionId: t.arg.id({
        description: 'The browser session the callback arrived with, if any: a flow started from the pages must end in it.',
      }),
    },
    resolve: (_root, { state, incomingUrl, sessionId }, ctx) =>
      ctx.services.teamChatConnections.complete(ctx.actor, state, incomingUrl, sessionId == null ? null : String(sessionId)),
  }),
}));
