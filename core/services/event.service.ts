import type { EntityManager } from '@mikro-orm/sql';
import { requireInternal, type Actor } from '../actor.ts';
import { EventEntity, OrganizationEntity, type Event } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { isPlausibleId, newId } from '../ids.ts';
import * as v from '../validate.ts';
import { eventSignalData, eventView, isEventPublic } from '../visibility.ts';
import type { EventView } from '../public-views.ts';
import { recordChange, type PublicList } from '../components/change-feed.ts';
import { recordSignal } from '../service-kit/outbox.ts';
import { keysetPage, pageArgs, type Page, type PageArgs } from '../service-kit/paging.ts';
import { LazyEmService } from '../service-kit/lazy-em-service.ts';

export interface EventContent {
  title?: string;
  description?: string;
  startsAt?: Date;
  endsAt?: Date;
  timezone?: string;
  online?: boolean;
  city?: string | null;
  region?: string | null;
  country?: string | null;
}

export interface NewEvent extends EventContent {
  organizationId: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  /** Internal host fields: stored, never output. */
  hostContactEmail?: string | null;
  hostContactPhone?: string | null;
  hostNotes?: string | null;
}

const LIST = 'events';
const LISTS: readonly PublicList[] = ['events'];
const NO_LISTS: readonly PublicList[] = [];
const PUBLIC_FIELDS = ['title', 'description', 'startsAt', 'endsAt', 'timezone', 'online', 'city', 'region', 'country'] as const;

export class EventService extends LazyEmService {
  /** Creates a public event: `event.created`. */
  async create(actor: Actor, input: NewEvent): Promise<EventView> {
    requireInternal(actor, 'create events');
    const content = checkContent(input);
    const { view, change } = await this.em.transactional(async (em) => {
      const host = await em.findOne(OrganizationEntity, { id: input.organizationId });
      if (!host) throw notFound('organization', input.organizationId);
      const now = new Date();
      const event = em.create(EventEntity, {
        id: newId('event'),
        host,
        title: content.title ?? input.title,
        description: content.description ?? '',
        startsAt: content.startsAt ?? input.startsAt,
        endsAt: content.endsAt ?? input.endsAt,
        timezone: content.timezone ?? 'UTC',
        online: content.online ?? false,
        city: content.online ? null : (content.city ?? null),
        region: content.online ? null : (content.region ?? null),
        country: content.online ? null : (content.country ?? null),
        status: 'public',
        demo: host.demo,
        version: 1,
        hostContactEmail: v.optionalText('host_contact_email', input.hostContactEmail, 320),
        hostContactPhone: v.optionalText('host_contact_phone', input.hostContactPhone, 40),
        hostNotes: v.optionalText('host_notes', input.hostNotes, 5_000),
        createdAt: now,
        updatedAt: now,
      });
      checkConsistency(event);
      if (isEventPublic(event)) await this.signal(em, event, 'event.created', false);
      const change = recordChange(em, { kind: 'event', id: event.id, lists: isEventPublic(event) ? LISTS : NO_LISTS });
      return { view: eventView(event, this.deps.links), change };
    });
    this.deps.feed.changed([change]);
    return view;
  }

  /** Changes date, place or content; a real change of a public event sends `event.updated`. */
  async update(actor: Actor, id: string, input: EventContent): Promise<EventView> {
    requireInternal(actor, 'update events');
    const content = checkContent(input);
    return this.change(id, (event) => {
      if (event.status === 'cancelled') throw new DomainError('invalid_state', `Event '${id}' was cancelled and can no longer change`);
      let changed = false;
      if (content.online === true) Object.assign(content, { city: null, region: null, country: null });
      for (const key of PUBLIC_FIELDS) {
        const value = content[key];
        if (value === undefined) continue;
        const current = event[key];
        const same = value instanceof Date && current instanceof Date ? value.getTime() === current.getTime() : Object.is(value, current);
        if (!same) {
          (event as Record<string, unknown>)[key] = value;
          changed = true;
        }
      }
      if (content.online === false && !event.city && !event.country) {
        throw invalidInput('city', 'An in-person event needs a city and a country');
      }
      checkConsistency(event);
      return changed && isEventPublic(event) ? 'event.updated' : undefined;
    });
  }

  /** Cancels the event: `event.cancelled`; it is no longer public. */
  async cancel(actor: Actor, id: string): Promise<EventView> {
    requireInternal(actor, 'cancel events');
    return this.change(id, (event) => {
      if (event.status === 'cancelled') throw new DomainError('invalid_state', `Event '${id}' is already cancelled`);
      const wasPublic = isEventPublic(event);
      event.status = 'cancelled';
      event.cancelledAt = new Date();
      return wasPublic ? 'event.cancelled' : undefined;
    });
  }

  /** A public event, or `not_found` when absent or cancelled. */
  async getPublic(_actor: Actor, id: string): Promise<EventView> {
    if (!isPlausibleId(id)) throw notFound('event', id);
    const event = await this.deps.reads.event(id);
    if (!event) throw notFound('event', id);
    return event;
  }

  /** Upcoming and ongoing public events, soonest first, by keyset. */
  async listPublic(_actor: Actor, args: PageArgs, now = new Date()): Promise<Page<EventView>> {
    const { first, after } = pageArgs(args);
    const position = after === undefined ? undefined : this.deps.cursors.decode(LIST, after);
    const { views, positions } = await this.deps.reads.eventPage(first, position, now);
    return keysetPage(
      this.deps.cursors,
      LIST,
      views,
      first,
      (e) => e,
      (e) => positions.get(e.id) ?? 0,
    );
  }

  /** Any event, cancelled included (internal callers). */
  async get(actor: Actor, id: string): Promise<EventView> {
    requireInternal(actor, 'read cancelled events');
    if (!isPlausibleId(id)) throw notFound('event', id);
    const event = await this.em.findOne(EventEntity, { id });
    if (!event) throw notFound('event', id);
    return eventView(event, this.deps.links);
  }

  private async change(id: string, mutate: (event: Event) => 'event.updated' | 'event.cancelled' | undefined) {
    const { view, change } = await this.em.transactional(async (em) => {
      if (!isPlausibleId(id)) throw notFound('event', id);
      const event = await em.findOne(EventEntity, { id }, this.deps.forUpdate);
      if (!event) throw notFound('event', id);
      const wasPublic = isEventPublic(event);
      const signal = mutate(event);
      event.updatedAt = new Date();
      if (signal) await this.signal(em, event, signal, true);
      const change = recordChange(em, { kind: 'event', id, lists: wasPublic || isEventPublic(event) ? LISTS : NO_LISTS });
      return { view: eventView(event, this.deps.links), change };
    });
    this.deps.feed.changed([change]);
    return view;
  }

  private async signal(em: EntityManager, event: Event, type: 'event.created' | 'event.updated' | 'event.cancelled', bump: boolean) {
    if (bump) event.version += 1;
    await recordSignal(em, {
      type,
      resourceId: event.id,
      resourceVersion: event.version,
      organizationId: event.host.id,
      deliverable: !event.demo,
      data: eventSignalData(event, this.deps.links),
    });
  }
}

function checkContent(input: EventContent): EventContent {
  const out: EventContent = {};
  if (input.title !== undefined) out.title = v.text('title', input.title, { max: 200 });
  if (input.description !== undefined) out.description = v.text('description', input.description, { min: 0, max: 10_000 });
  if (input.startsAt !== undefined) out.startsAt = v.date('starts_at', input.startsAt);
  if (input.endsAt !== undefined) out.endsAt = v.date('ends_at', input.endsAt);
  if (input.timezone !== undefined) out.timezone = v.timezone('timezone', input.timezone);
  if (input.online !== undefined) out.online = input.online;
  if (input.city !== undefined) out.city = v.optionalText('city', input.city, 120);
  if (input.region !== undefined) out.region = v.optionalText('region', input.region, 120);
  if (input.country !== undefined) out.country = v.country('country', input.country);
  return out;
}

function checkConsistency(event: Event): void {
  if (event.endsAt.getTime() <= event.startsAt.getTime()) throw invalidInput('ends_at', 'ends_at must be after starts_at');
  if (event.online && (event.city || event.country)) throw invalidInput('online', 'An online event has no city or country');
  if (!event.online && (!event.city || !event.country)) {
    throw invalidInput('city', 'An in-person event needs a city and a country (or mark it online)');
  }
}
