import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { requireInternal, type Actor } from '../actor.ts';
import { DeliveryAttemptEntity, OrganizationEntity, WebhookDeliveryEntity, WebhookDestinationEntity, type WebhookDelivery } from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';
import { isPlausibleId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import { attemptView, deliveryView, type AttemptView, type DeliveryView } from '../webhooks/views.ts';
import { bumpChangeEpoch } from './change-feed.ts';
import { keysetPage, pageArgs, type Page, type PageArgs, type ServiceDeps } from './service-deps.ts';

const LIST = 'deliveries';

/** The retained deliveries of an organization's destinations, and manual retry. */
export class DeliveryService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: ServiceDeps,
  ) {}

  /** Newest first; optionally one destination's only. */
  async list(actor: Actor, filter: { organizationId: string; destinationId?: string }, args: PageArgs): Promise<Page<DeliveryView>> {
    requireInternal(actor, 'list deliveries');
    const { first, after } = pageArgs(args);
    const where: FilterQuery<WebhookDelivery> = { organizationId: filter.organizationId };
    if (filter.destinationId) where.destination = filter.destinationId;
    if (after !== undefined) {
      const { at, id } = this.deps.cursors.decode(LIST, after);
      const created = new Date(at);
      Object.assign(where, { createdAt: { $lte: created }, $or: [{ createdAt: { $lt: created } }, { id: { $lt: id } }] });
    }
    const rows = await this.em.find(WebhookDeliveryEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return keysetPage(this.deps.cursors, LIST, rows, first, deliveryView, (row) => row.createdAt.getTime());
  }

  async get(actor: Actor, id: string): Promise<DeliveryView> {
    requireInternal(actor, 'read deliveries');
    return deliveryView(await this.find(this.em, id));
  }

  /** Every attempt of a delivery, first to last. */
  async attempts(actor: Actor, deliveryId: string): Promise<AttemptView[]> {
    requireInternal(actor, 'read deliveries');
    const rows = await this.em.find(DeliveryAttemptEntity, { delivery: deliveryId }, { orderBy: { number: 'asc' } });
    return rows.map(attemptView);
  }

  /** Sends a failed delivery again, once, now (Clan plan). */
  async retry(actor: Actor, id: string, now = new Date()): Promise<DeliveryView> {
    requireInternal(actor, 'retry deliveries');
    const view = await this.em.transactional(async (em) => {
      const delivery = await this.find(em, id, true);
      const org = await em.findOneOrFail(OrganizationEntity, { id: delivery.organizationId });
      if (!PLAN_ALLOWANCES[org.plan].manualRetry) {
        throw new DomainError('plan_limit', `Manual retry is part of the clan plan; '${org.id}' is on the ${org.plan} plan`);
      }
      if (delivery.status !== 'failed') throw new DomainError('invalid_state', `Delivery '${id}' is ${delivery.status}; only failed deliveries can be retried`);
      const destination = await em.findOneOrFail(WebhookDestinationEntity, { id: delivery.destination.id });
      if (destination.status !== 'active') {
        throw new DomainError('invalid_state', `Destination '${delivery.destination.id}' is disabled; enable it before retrying`);
      }
      delivery.status = 'pending';
      delivery.nextAttemptAt = now;
      await bumpChangeEpoch(em);
      return deliveryView(delivery);
    });
    this.deps.feed.changed();
    return view;
  }

  private async find(em: EntityManager, id: string, lock = false): Promise<WebhookDelivery> {
    if (!isPlausibleId(id)) throw notFound('delivery', id);
    const found = await em.findOne(WebhookDeliveryEntity, { id }, lock ? this.deps.forUpdate : {});
    if (!found) throw notFound('delivery', id);
    return found;
  }
}
