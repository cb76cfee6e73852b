import { EVENT_STATUSES } from '../../core/entities/index.ts';
import type { EventView } from '../../core/visibility.ts';
import { builder, type InputFields } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { OrganizationSummaryRef } from './organization.type.ts';
import { PlaceRef } from './place.type.ts';

export const EventStatusEnum = builder.enumType('EventStatus', { values: EVENT_STATUSES });

const EventAdminRef = builder.objectRef<EventView['admin']>('EventAdmin').implement({
  description: 'Lifecycle facts of an event, for internal callers.',
  fields: (t) => ({
    status: t.expose('status', { type: EventStatusEnum }),
    demo: t.exposeBoolean('demo'),
    version: t.exposeInt('version', { description: 'Bumped on every public change; part of webhook event ids.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
  }),
});

export const EventRef = builder.objectRef<EventView>('Event').implement({
  description: 'A public event. Internal host fields are never part of it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone of the event, such as Europe/Paris' }),
    online: t.exposeBoolean('online'),
    place: t.expose('place', { type: PlaceRef, nullable: true, description: 'Null for online events.' }),
    url: t.exposeString('url'),
    host: t.field({ type: OrganizationSummaryRef, resolve: (e) => e.host ?? e.hostId }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    admin: t.field({ type: EventAdminRef, authScopes: { internal: true }, resolve: (e) => e.admin }),
  }),
});

const contentFields = (t: InputFields) => ({
  description: t.string(),
  timezone: t.string({ description: 'IANA time zone, such as Europe/Paris. Default UTC.' }),
  online: t.boolean(),
  city: t.string(),
  region: t.string(),
  country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
});

const NewEventInput = builder.inputType('NewEventInput', {
  fields: (t) => ({
    organizationId: t.id({ required: true }),
    title: t.string({ required: true }),
    startsAt: t.field({ type: 'DateTime', required: true }),
    endsAt: t.field({ type: 'DateTime', required: true }),
    ...contentFields(t),
    hostContactEmail: t.string({ description: 'Internal: never output.' }),
    hostContactPhone: t.string({ description: 'Internal: never output.' }),
    hostNotes: t.string({ description: 'Internal: never output.' }),
  }),
});

const EventChangesInput = builder.inputType('EventChangesInput', {
  fields: (t) => ({
    title: t.string(),
    startsAt: t.field({ type: 'DateTime' }),
    endsAt: t.field({ type: 'DateTime' }),
    ...contentFields(t),
  }),
});

builder.queryFields((t) => ({
  event: t.field({
    type: EventRef,
    nullable: true,
    description: 'A public event; NOT_FOUND when absent or cancelled.',
    authScopes: { internal: true, apiScope: 'events:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.events.getPublic(ctx.actor, String(id)),
  }),
  events: t.connection(
    {
      type: EventRef,
      description: 'Upcoming and ongoing public events, soonest first. Forward pagination only (first ≤ 50).',
      authScopes: { internal: true, apiScope: 'events:read' },
      resolve: async (_root, args, ctx) => toConnection(await ctx.services.events.listPublic(ctx.actor, forwardArgs(args))),
    },
    { name: 'EventConnection' },
    { name: 'EventEdge' },
  ),
  anyEvent: t.field({
    type: EventRef,
    nullable: true,
    description: 'Any event, cancelled included.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.events.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createEvent: t.field({
    type: EventRef,
    description: 'Creates a public event: event.created.',
    authScopes: { internal: true },
    args: { input: t.arg({ type: NewEventInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.events.create(ctx.actor, {
        ...withoutNulls(input),
        organizationId: String(input.organizationId),
        title: input.title,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
      }),
  }),
  updateEvent: t.field({
    type: EventRef,
    description: 'Changes date, place or content: event.updated when something public changed.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: EventChangesInput, required: true }) },
    resolve: (_root, { id, input }, ctx) =>
      ctx.services.events.update(ctx.actor, String(id), withoutNulls(input, ['city', 'region', 'country'])),
  }),
  cancelEvent: t.field({
    type: EventRef,
    description: 'Cancels the event: event.cancelled; it is no longer public.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.events.cancel(ctx.actor, String(id)),
  }),
}));
