import type { AttemptView, DeliveryView } from '../../core/webhooks/views.ts';
import { readHeaders } from '../../core/webhooks/attempt-headers.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';

const HttpHeaderRef = builder.objectRef<{ name: string; value: string }>('HttpHeader').implement({
  description: 'One HTTP header of a delivery attempt (name lower-cased; a value past 512 characters is cut, ending with …).',
  fields: (t) => ({
    name: t.exposeString('name', { description: "The header's name, lower-cased." }),
    value: t.exposeString('value', { description: "The header's value, cut past 512 characters." }),
  }),
});

const DeliveryAttemptRef = builder.objectRef<AttemptView>('DeliveryAttempt').implement({
  description: 'One attempt to deliver a signal: what was sent and what the receiver answered.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: "1 for the first attempt, then 2, 3… up to the schedule's 8." }),
    at: t.expose('at', { description: 'When the attempt started.', type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the attempt took, in milliseconds (8 s at most).' }),
    statusCode: t.exposeInt('statusCode', { description: "The receiver's HTTP status; null when no answer came.", nullable: true }),
    error: t.exposeString('error', {
      description: 'Why the attempt failed (timeout, refused address, status); null on success.',
      nullable: true,
    }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'At most 2 KB of the answer.' }),
    requestHeaders: t.field({
      type: [HttpHeaderRef],
      nullable: true,
      description:
        'The headers sent, signature values included (never the signing secret); at most 40, 4 KB. Null when nothing was sent or for attempts recorded before headers were kept.',
      resolve: (attempt) => readHeaders(attempt.requestHeaders),
    }),
    responseHeaders: t.field({
      type: [HttpHeaderRef],
      nullable: true,
      description: "The receiver's headers, without Set-Cookie; at most 40, 4 KB. Null without an answer.",
      resolve: (attempt) => readHeaders(attempt.responseHeaders),
    }),
  }),
});

export const WebhookDeliveryRef = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  description: 'One signal for one destination. The newest deliveries are retained per plan (12, 25, 100).',
  authScopes: ORGANIZATION_ADMIN,
  fields: (t) => ({
    id: t.exposeID('id', { description: "The delivery's id." }),
    destinationId: t.exposeID('destinationId', { description: 'The destination the signal goes to.' }),
    organizationId: t.exposeID('organizationId', { description: 'The organization owning the destination.' }),
    eventId: t.exposeString('eventId', { description: 'The envelope id, equal to X-Service-Event-Id.' }),
    type: t.exposeString('type', { description: 'The event kind, such as need.created or event.cancelled.' }),
    test: t.exposeBoolean('test', { description: 'A test signal sent on request.' }),
    status: t.exposeString('status', { description: 'pending, succeeded or failed.' }),
    attemptCount: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    nextAttemptAt: t.expose('nextAttemptAt', {
      description: 'When the next attempt is due; null when none is.',
      type: 'DateTime',
      nullable: true,
    }),
    lastStatusCode: t.exposeInt('lastStatusCode', {
      description: 'The HTTP status of the latest attempt; null without an answer.',
      nullable: true,
    }),
    lastError: t.exposeString('lastError', { description: 'Why the latest attempt failed; null after a success.', nullable: true }),
    lastAttemptAt: t.expose('lastAttemptAt', {
      description: 'When the latest attempt started; null before the first.',
      type: 'DateTime',
      nullable: true,
    }),
    deliveredAt: t.expose('deliveredAt', {
      description: 'When an attempt succeeded (any 2xx); null until then.',
      type: 'DateTime',
      nullable: true,
    }),
    createdAt: t.expose('createdAt', { description: 'When the signal was queued for this destination.', type: 'DateTime' }),
    body: t.string({
      nullable: true,
      description:
        'The envelope every attempt carried, as JSON text: standard JSON sends it byte for byte, the chat formats render it. Null once its signal is no longer kept.',
      resolve: (delivery, _args, ctx) => ctx.services.deliveries.body(ctx.actor, delivery.id),
    }),
    attempts: t.field({
      type: [DeliveryAttemptRef],
      description: 'Every attempt, first to last.',
      resolve: (delivery, _args, ctx) => ctx.services.deliveries.attempts(ctx.actor, delivery.id),
    }),
  }),
});

builder.queryFields((t) => ({
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryRef,
      description: "An organization's retained deliveries, newest first.",
      authScopes: ORGANIZATION_ADMIN,
      args: {
        organizationId: t.arg.id({ description: 'The organization whose deliveries to list.', required: true }),
        destinationId: t.arg.id({ description: 'Only deliveries to this destination.' }),
        status: t.arg.string({ description: 'Only deliveries in this state: pending, succeeded or failed.' }),
        type: t.arg.string({ description: 'Only deliveries of this event kind, such as need.created.' }),
        from: t.arg({ type: 'DateTime', description: 'Only deliveries created at or after this time.' }),
        to: t.arg({ type: 'DateTime', description: 'Only deliveries created before this time.' }),
        search: t.arg.string({ description: 'Only the delivery with this id, or the deliveries of this event id.' }),
      },
      resolve: async (_root, args, ctx) =>
        toConnection(
          await ctx.services.deliveries.list(
            ctx.actor,
            {
              organizationId: String(args.organizationId),
              destinationId: args.destinationId ? String(args.destinationId) : undefined,
              status: args.status ?? undefined,
              type: args.type ?? undefined,
              from: args.from ?? undefined,
              to: args.to ?? undefined,
              search: args.search?.trim() || undefined,
            },
            forwardArgs(args),
          ),
        ),
    },
    { name: 'WebhookDeliveryConnection', description: 'A page of webhook deliveries.' },
    { name: 'WebhookDeliveryEdge', description: 'A webhook delivery and its cursor.' },
  ),
  webhookDelivery: t.field({
    description: 'One delivery with its attempts; NOT_FOUND when absent or no longer retained.',
    type: WebhookDeliveryRef,
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The delivery's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.deliveries.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  retryWebhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends a failed delivery again now, or a delivery waiting between attempts now rather than later (clan plan).',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ description: "The delivery's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.deliveries.retry(ctx.actor, String(id)),
  }),
  sendTestSignal: t.field({
    type: WebhookDeliveryRef,
    description: 'Queues a sample signal of one of the destination’s kinds, marked with X-Service-Test: 1.',
    authScopes: ORGANIZATION_ADMIN,
    args: {
      destinationId: t.arg.id({ description: 'The destination to test.', required: true }),
      kind: t.arg.string({ description: "The event kind of the sample: one of the destination's kinds; its first when omitted." }),
    },
    resolve: (_root, { destinationId, kind }, ctx) =>
      ctx.services.destinations.sendTest(ctx.actor, String(destinationId), kind ?? undefined),
  }),
}));
