import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../actor.ts';
import {
  DELIVERY_STATUSES,
  DeliveryAttemptEntity,
  OrganizationEntity,
  OutboxEventEntity,
  SIGNAL_TYPES,
  WebhookDeliveryEntity,
  WebhookDestinationEntity,
  type WebhookDelivery,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { isPlausibleId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import { sqlOf } from '../db/sql.ts';
import { envelopeText } from '../webhooks/delivery-store.ts';
import { attemptView, deliveryView, type AttemptView, type DeliveryView } from '../webhooks/views.ts';
import { recordChange } from '../components/change-feed.ts';
import { requireOrganizationAdmin, requireResourceAdmin } from '../service-kit/organization-admin.ts';
import { keysetPage, pageArgs, type Page, type PageArgs } from '../service-kit/paging.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

const LIST = 'deliveries';
const LAST_DAY_MS = 24 * 60 * 60 * 1000;

/** How a destination's retained deliveries created since `since` ended: the pending ones are not counted. */
export interface DeliveryOutcomes {
  destinationId: string;
  since: Date;
  /** Succeeded or failed. */
  finished: number;
  succeeded: number;
}

/** Which of an organization's deliveries to list. */
export interface DeliveryFilter {
  organizationId: string;
  destinationId?: string;
  status?: string;
  type?: string;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  to?: Date;
  /** A delivery id or an event id, exactly. */
  search?: string;
}

/** The retained deliveries of an organization's destinations, and manual retry. */
export class DeliveryService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /** Newest first; optionally one destination's only, created within [from, to), or by its id or event id. */
  async list(actor: Actor, filter: DeliveryFilter, args: PageArgs): Promise<Page<DeliveryView>> {
    await requireOrganizationAdmin(this.em, actor, filter.organizationId, 'list deliveries');
    const { first, after } = pageArgs(args);
    const where: FilterQuery<WebhookDelivery> = { organizationId: filter.organizationId };
    if (filter.destinationId) where.destination = filter.destinationId;
    if (filter.status !== undefined) {
      if (!(DELIVERY_STATUSES as readonly string[]).includes(filter.status))
        throw invalidInput('status', `status must be one of ${DELIVERY_STATUSES.join(', ')} (got '${filter.status}')`);
      where.status = filter.status as WebhookDelivery['status'];
    }
    if (filter.type !== undefined) {
      if (!(SIGNAL_TYPES as readonly string[]).includes(filter.type))
        throw invalidInput('type', `type must be one of ${SIGNAL_TYPES.join(', ')} (got '${filter.type}')`);
      where.type = filter.type;
    }
    if (filter.from && filter.to && filter.from >= filter.to) throw invalidInput('to', 'to must be later than from');
    const and: FilterQuery<WebhookDelivery>[] = [];
    if (filter.from) and.push({ createdAt: { $gte: filter.from } });
    if (filter.to) and.push({ createdAt: { $lt: filter.to } });
    if (filter.search) and.push({ $or: [{ id: filter.search }, { eventId: filter.search }] });
    if (after !== undefined) {
      const { at, id } = this.deps.cursors.decode(LIST, after);
      const created = new Date(at);
      and.push({ createdAt: { $lte: created }, $or: [{ createdAt: { $lt: created } }, { id: { $lt: id } }] });
    }
    if (and.length > 0) where.$and = and;
    const rows = await this.em.find(WebhookDeliveryEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return keysetPage(this.deps.cursors, LIST, rows, first, deliveryView, (row) => row.createdAt.getTime());
  }

  /**
   * For each destination, its retained deliveries created in the 24 hours before `now` that
   * finished, and how many succeeded, in the order given: one grouped query per organization.
   */
  async lastDayOutcomes(
    actor: Actor,
    destinations: readonly { id: string; organizationId: string }[],
    now = new Date(),
  ): Promise<DeliveryOutcomes[]> {
    const since = new Date(now.getTime() - LAST_DAY_MS);
    const counts = new Map<string, number>();
    for (const organizationId of new Set(destinations.map((d) => d.organizationId))) {
      await requireOrganizationAdmin(this.em, actor, organizationId, 'read delivery outcomes');
      const rows = await sqlOf(this.em)
        .selectFrom('WebhookDelivery')
        .select((eb) => ['destination', 'status', eb.fn.countAll().as('count')])
        .where('organizationId', '=', organizationId)
        .where('createdAt', '>=', since)
        .where('status', '<>', 'pending')
        .groupBy(['destination', 'status'])
        .execute();
      for (const row of rows) counts.set(`${row.destination} ${row.status}`, Number(row.count));
    }
    return destinations.map(({ id }) => {
      const succeeded = counts.get(`${id} succeeded`) ?? 0;
      return { destinationId: id, since, succeeded, finished: succeeded + (counts.get(`${id} failed`) ?? 0) };
    });
  }

  async get(actor: Actor, id: string): Promise<DeliveryView> {
    return deliveryView(await this.find(this.em, actor, id));
  }

  /** Every attempt of a delivery, first to last. */
  async attempts(actor: Actor, deliveryId: string): Promise<AttemptView[]> {
    await this.find(this.em, actor, deliveryId);
    const rows = await this.em.find(DeliveryAttemptEntity, { delivery: deliveryId }, { orderBy: { number: 'asc' } });
    return rows.map(attemptView);
  }

  /**
   * The envelope every attempt of the delivery carries, as JSON text (standard JSON sends it byte
   * for byte; the chat formats render it): a test signal's is stored, a signal's is built from
   * its outbox row as the dispatcher builds it. Null once that row is gone.
   */
  async body(actor: Actor, deliveryId: string): Promise<string | null> {
    const delivery = await this.find(this.em, actor, deliveryId);
    if (delivery.envelope) return JSON.stringify(delivery.envelope);
    const [row, destination] = await Promise.all([
      this.em.findOne(OutboxEventEntity, { seq: delivery.seq }),
      this.em.findOne(WebhookDestinationEntity, { id: delivery.destination.id }),
    ]);
    if (!row || !destination) return null;
    const signal = {
      seq: row.seq,
      eventId: row.eventId,
      type: row.type,
      organizationId: row.organizationId,
      occurredAtMs: row.occurredAt.getTime(),
      data: row.data,
    };
    return envelopeText(signal, destination.scope === 'own');
  }

  /** Sends a failed delivery again, once, now; or a delivery waiting between attempts now rather than later (Clan plan). */
  async retry(actor: Actor, id: string, now = new Date()): Promise<DeliveryView> {
    const view = await this.em.transactional(async (em) => {
      const delivery = await this.find(em, actor, id, true);
      const org = await em.findOneOrFail(OrganizationEntity, { id: delivery.organizationId });
      if (!PLAN_ALLOWANCES[org.plan].manualRetry) {
        throw new DomainError('plan_limit', `Manual retry is part of the clan plan; '${org.id}' is on the ${org.plan} plan`);
      }
      // A failed delivery, or one waiting between attempts (sent now rather than at its next attempt).
      const waiting = delivery.status === 'pending' && delivery.attempts > 0;
      if (delivery.status !== 'failed' && !waiting) {
        throw new DomainError(
          'invalid_state',
          `Delivery '${id}' is ${delivery.status}; only failed deliveries, or ones waiting for their next attempt, can be retried`,
        );
      }
      const destination = await em.findOneOrFail(WebhookDestinationEntity, { id: delivery.destination.id });
      if (destination.status !== 'active') {
        throw new DomainError('invalid_state', `The destination of this delivery is ${destination.status}; enable it before retrying`);
      }
      delivery.status = 'pending';
      delivery.nextAttemptAt = now;
      // Dispatchers everywhere look at their lanes again at once.
      const change = recordChange(em, { kind: 'delivery', id: delivery.id, lists: [] });
      return { view: deliveryView(delivery), change };
    });
    this.deps.feed.changed([view.change]);
    return view.view;
  }

  /** The delivery, once the actor may administer its organization. */
  private async find(em: EntityManager, actor: Actor, id: string, lock = false): Promise<WebhookDelivery> {
    if (!isPlausibleId(id)) throw notFound('delivery', id);
    const found = await em.findOne(WebhookDeliveryEntity, { id }, lock ? this.deps.forUpdate : {});
    if (!found) throw notFound('delivery', id);
    await requireResourceAdmin(em, actor, found.organizationId, 'delivery', id);
    return found;
  }
}
