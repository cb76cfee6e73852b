import { EVENT_STATUSES } from '../../core/entities/index.ts';
import type { EventView } from '../../core/public-views.ts';
import { builder, describedValues, type InputFields } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { OrganizationSummaryRef } from './organization.type.ts';
import { PlaceRef } from './place.type.ts';

export const EventStatusEnum = builder.enumType('EventStatus', {
  description: 'Whether an event is still public.',
  values: describedValues(EVENT_STATUSES, {
    public: 'Listed and readable until it is cancelled.',
    cancelled: 'Cancelled: no longer public output; event.cancelled was sent.',
  }),
});

const EventAdminRef = builder.objectRef<EventView['admin']>('EventAdmin').implement({
  description: 'Lifecycle facts of an event, for internal callers.',
  fields: (t) => ({
    status: t.expose('status', { description: 'public, or cancelled.', type: EventStatusEnum }),
    demo: t.exposeBoolean('demo', { description: 'Demonstration content: never public output.' }),
    version: t.exposeInt('version', { description: 'Bumped on every public change; part of webhook event ids.' }),
    cancelledAt: t.expose('cancelledAt', {
      description: 'When the event was cancelled; null while it was not.',
      type: 'DateTime',
      nullable: true,
    }),
  }),
});

export const EventRef = builder.objectRef<EventView>('Event').implement({
  description: 'A public event. Internal host fields are never part of it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The event's id." }),
    title: t.exposeString('title', { description: "The event's title." }),
    description: t.exposeString('description', { description: 'What the event is about, in plain text; empty when none was given.' }),
    startsAt: t.expose('startsAt', { description: 'When the event starts.', type: 'DateTime' }),
    endsAt: t.expose('endsAt', { description: 'When the event ends.', type: 'DateTime' }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone of the event, such as Europe/Paris' }),
    online: t.exposeBoolean('online', { description: 'True when the event takes place online, without a place.' }),
    place: t.expose('place', { type: PlaceRef, nullable: true, description: 'Null for online events.' }),
    url: t.exposeString('url', { description: "The event's public page." }),
    host: t.field({ description: 'The organization hosting the event.', type: OrganizationSummaryRef, resolve: (e) => e.host ?? e.hostId }),
    updatedAt: t.expose('updatedAt', { description: 'When public content last changed.', type: 'DateTime' }),
    admin: t.field({
      description: 'Lifecycle facts; internal callers only.',
      type: EventAdminRef,
      authScopes: { internal: true },
      resolve: (e) => e.admin,
    }),
  }),
});

const contentFields = (t: InputFields) => ({
  description: t.string({ description: 'What the event is about, in plain text.' }),
  timezone: t.string({ description: 'IANA time zone, such as Europe/Paris. Default UTC.' }),
  online: t.boolean({ description: 'True for an online event; it then has no place.' }),
  city: t.string({ description: 'City or town of the venue. In changes, null clears it.' }),
  region: t.string({ description: 'Region, county or state of the venue. In changes, null clears it.' }),
  country: t.string({ description: 'ISO 3166-1 alpha-2 code' }),
});

const NewEventInput = builder.inputType('NewEventInput', {
  description: 'A new public event of an organization.',
  fields: (t) => ({
    organizationId: t.id({ description: 'The hosting organization.', required: true }),
    title: t.string({ description: "The event's title.", required: true }),
    startsAt: t.field({ description: 'When the event starts.', type: 'DateTime', required: true }),
    endsAt: t.field({ description: 'When the event ends; not before startsAt.', type: 'DateTime', required: true }),
    ...contentFields(t),
    hostContactEmail: t.string({ description: 'Internal: never output.' }),
    hostContactPhone: t.string({ description: 'Internal: never output.' }),
    hostNotes: t.string({ description: 'Internal: never output.' }),
  }),
});

const EventChangesInput = builder.inputType('EventChangesInput', {
  description: 'Changes to an event: omitted fields stay as they are.',
  fields: (t) => ({
    title: t.string({ description: 'A new title.' }),
    startsAt: t.field({ description: 'A new start.', type: 'DateTime' }),
    endsAt: t.field({ description: 'A new end; not before the start.', type: 'DateTime' }),
    ...contentFields(t),
  }),
});

builder.queryFields((t) => ({
  event: t.field({
    type: EventRef,
    nullable: true,
    description: 'A public event; NOT_FOUND when absent or cancelled.',
    // public: the public pages at its url.
    authScopes: { internal: true, public: true, apiScope: 'events:read' },
    args: { id: t.arg.id({ description: "The event's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.events.getPublic(ctx.actor, String(id)),
  }),
  events: t.connection(
    {
      type: EventRef,
      description: 'Upcoming and ongoing public events, soonest first. Forward pagination only (first ≤ 50).',
      authScopes: { internal: true, apiScope: 'events:read' },
      resolve: async (_root, args, ctx) => toConnection(await ctx.services.events.listPublic(ctx.actor, forwardArgs(args))),
    },
    { name: 'EventConnection', description: 'A page of public events.' },
    { name: 'EventEdge', description: 'A public event and its cursor.' },
  ),
  anyEvent: t.field({
    type: EventRef,
    nullable: true,
    description: 'Any event, cancelled included.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: "The event's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.events.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createEvent: t.field({
    type: EventRef,
    description: 'Creates a public event: event.created.',
    authScopes: { internal: true },
    args: {
      input: t.arg({
        description: "The event's organization, title, dates, place and internal host fields.",
        type: NewEventInput,
        required: true,
      }),
    },
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
    args: {
      id: t.arg.id({ description: "The event's id.", required: true }),
      input: t.arg({ description: 'The fields to change.', type: EventChangesInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) =>
      ctx.services.events.update(ctx.actor, String(id), withoutNulls(input, ['city', 'region', 'country'])),
  }),
  cancelEvent: t.field({
    type: EventRef,
    description: 'Cancels the event: event.cancelled; it is no longer public.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: "The event's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.events.cancel(ctx.actor, String(id)),
  }),
}));
