import type { AttemptView, DeliveryView } from '../../core/webhooks/views.ts';
import { readHeaders } from '../../core/webhooks/attempt-headers.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';

const HttpHeaderRef = builder.objectRef<{ name: string; value: string }>('HttpHeader').implement({
  description: 'One HTTP header of a delivery attempt (name lower-cased; a value past 512 characters is cut, ending with …).',
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

const DeliveryAttemptRef = builder.objectRef<AttemptView>('DeliveryAttempt').implement({
  fields: (t) => ({
    number: t.exposeInt('number'),
    at: t.expose('at', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
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
    id: t.exposeID('id'),
    destinationId: t.exposeID('destinationId'),
    organizationId: t.exposeID('organizationId'),
    eventId: t.exposeString('eventId', { description: 'The envelope id, equal to X-Service-Event-Id.' }),
    type: t.exposeString('type'),
    test: t.exposeBoolean('test', { description: 'A test signal sent on request.' }),
    status: t.exposeString('status', { description: 'pending, succeeded or failed.' }),
    attemptCount: t.exposeInt('attempts'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
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
        organizationId: t.arg.id({ required: true }),
        destinationId: t.arg.id(),
        status: t.arg.string({ description: 'Only deliveries in this state: pending, succeeded or failed.' }),
        type: t.arg.string({ description: 'Only deliveries of this event kind, such as need.created.' }),
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
            },
            forwardArgs(args),
          ),
        ),
    },
    { name: 'WebhookDeliveryConnection' },
    { name: 'WebhookDeliveryEdge' },
  ),
  webhookDelivery: t.field({
    type: WebhookDeliveryRef,
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.deliveries.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  retryWebhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends a failed delivery again now, or a delivery waiting between attempts now rather than later (clan plan).',
    authScopes: ORGANIZATION_ADMIN,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.deliveries.retry(ctx.actor, String(id)),
  }),
  sendTestSignal: t.field({
    type: WebhookDeliveryRef,
    description: "Queues a sample signal of the destination's first kind, marked with X-Service-Test: 1.",
    authScopes: ORGANIZATION_ADMIN,
    args: { destinationId: t.arg.id({ required: true }) },
    resolve: (_root, { destinationId }, ctx) => ctx.services.destinations.sendTest(ctx.actor, String(destinationId)),
  }),
}));
