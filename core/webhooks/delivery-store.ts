import type { EntityManager } from '@mikro-orm/core';
import type { Database, DatabaseKind } from '../db/orm.ts';
import {
  DeliveryAttemptEntity,
  OrganizationEntity,
  OutboxEventEntity,
  WebhookDeliveryEntity,
  WebhookDestinationEntity,
  type Plan,
  type WebhookDestination,
} from '../entities/index.ts';
import { newId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import type { SecretBox } from '../secret-box.ts';
import { bumpChangeEpoch } from '../services/change-feed.ts';
import type { DeliveryFormat, Language, WebhookEnvelope } from './envelope.ts';
import { secretContext, urlContext } from './views.ts';

/** Key of the PostgreSQL advisory lock held by the one dispatcher fanning out at a time. */
const FAN_OUT_LOCK = 7_316_023;

/** A destination as its lane needs it: URL and secrets unsealed. */
export interface LaneTarget {
  id: string;
  organizationId: string;
  plan: Plan;
  format: DeliveryFormat;
  language: Language;
  url: string;
  /** Current secret first; the replaced one too while a rotation is under way. */
  secrets: string[];
  active: boolean;
}

export interface PendingDelivery {
  id: string;
  seq: number;
  envelope: WebhookEnvelope;
  test: boolean;
  attempts: number;
  nextAttemptAt: Date;
}

/** What one attempt gave and what follows from it. */
export interface AttemptOutcome {
  deliveryId: string;
  destinationId: string;
  /** 1-based, counting every attempt including manual retries. */
  number: number;
  at: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  next: { status: 'succeeded' } | { status: 'failed'; disableDestination?: string } | { status: 'pending'; at: Date };
}

/**
 * The dispatcher's durable bookkeeping: fan-out of outbox rows into deliveries, lane leases,
 * and attempt results. Every state change is a database write, so a crash loses nothing.
 */
export class DeliveryStore {
  /** Destinations with finished deliveries not yet trimmed to their plan's retention. */
  private readonly untrimmed = new Map<string, Plan>();

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly kind: DatabaseKind,
  ) {}

  /**
   * Turns outbox rows not yet fanned out into one delivery per matching destination, in one
   * transaction with marking them done. Returns how many rows were handled.
   */
  async fanOut(limit = 500): Promise<{ rows: number; destinations: Set<string> }> {
    return this.db.em.fork().transactional(async (em) => {
      const touched = new Set<string>();
      // One fan-out at a time across dispatchers: were two to split the waiting rows between them,
      // the later rows could reach a lane before the earlier ones and break its order. Writers
      // already commit in sequence order (they all update the change epoch row first).
      if (this.kind === 'postgresql') {
        const [lock] = await em.getConnection().execute<{ held: boolean }[]>('select pg_try_advisory_xact_lock(?) as held', [FAN_OUT_LOCK], 'all', em.getTransactionContext());
        if (!lock?.held) return { rows: 0, destinations: touched };
      }
      const rows = await em.find(OutboxEventEntity, { fannedOutAt: null }, { orderBy: { seq: 'asc' }, limit });
      if (rows.length === 0) return { rows: 0, destinations: touched };
      const destinations = rows.some((row) => row.deliverable)
        ? await em.find(WebhookDestinationEntity, { status: 'active' }, { fields: ['id', 'organization', 'kinds', 'scope', 'sinceSeq'] })
        : [];
      const now = new Date();
      const deliveries = [];
      for (const row of rows) {
        if (!row.deliverable) continue;
        for (const destination of destinations) {
          if (row.seq <= destination.sinceSeq || !destination.kinds.includes(row.type)) continue;
          const own = destination.scope === 'own';
          if (own && destination.organization.id !== row.organizationId) continue;
          const envelope: WebhookEnvelope = {
            id: row.eventId,
            type: row.type,
            version: '1',
            occurred_at: row.occurredAt.toISOString(),
            organization_id: own ? row.organizationId : null,
            data: row.data,
          };
          touched.add(destination.id);
          deliveries.push({
            id: newId('delivery'),
            destination: destination.id,
            organizationId: destination.organization.id,
            seq: row.seq,
            eventId: row.eventId,
            type: row.type,
            envelope,
            test: false,
            status: 'pending' as const,
            attempts: 0,
            nextAttemptAt: now,
            createdAt: now,
          });
        }
      }
      if (deliveries.length > 0) await em.insertMany(WebhookDeliveryEntity, deliveries);
      await em.nativeUpdate(OutboxEventEntity, { seq: { $in: rows.map((row) => row.seq) } }, { fannedOutAt: now });
      em.clear();
      return { rows: rows.length, destinations: touched };
    });
  }

  /** Active destinations that have deliveries waiting. */
  async destinationsWithWork(): Promise<string[]> {
    const rows = await this.db.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        // One index probe per destination (the lane index), not a scan of every waiting delivery.
        "select w.id as id from webhook_destinations w where w.status = 'active' and exists (select 1 from webhook_deliveries d where d.destination_id = w.id and d.status = 'pending')",
      );
    return rows.map((row: { id: string }) => row.id);
  }

  /** Takes the lanes of `ids` that no other live dispatcher holds; returns those now held by `owner`. */
  async claim(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const em = this.db.em.fork();
    const now = new Date();
    await em.nativeUpdate(
      WebhookDestinationEntity,
      { id: { $in: ids }, $or: [{ leaseOwner: null }, { leaseExpiresAt: { $lt: now } }, { leaseOwner: owner }] },
      { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
    );
    const held = await em.find(WebhookDestinationEntity, { id: { $in: ids }, leaseOwner: owner }, { fields: ['id'] });
    return held.map((row) => row.id);
  }

  /** Extends `owner`'s leases; returns the lanes it still holds. */
  async renew(owner: string, leaseMs: number): Promise<string[]> {
    const em = this.db.em.fork();
    const now = new Date();
    await em.nativeUpdate(WebhookDestinationEntity, { leaseOwner: owner }, { leaseExpiresAt: new Date(now.getTime() + leaseMs) });
    const held = await em.find(WebhookDestinationEntity, { leaseOwner: owner }, { fields: ['id'] });
    return held.map((row) => row.id);
  }

  /** Gives lanes back (all of `owner`'s when `ids` is omitted) so another dispatcher takes them at once. */
  async release(owner: string, ids?: string[]): Promise<void> {
    const where = ids ? { leaseOwner: owner, id: { $in: ids } } : { leaseOwner: owner };
    await this.db.em.fork().nativeUpdate(WebhookDestinationEntity, where, { leaseOwner: null, leaseExpiresAt: null });
  }

  async target(destinationId: string, now = new Date()): Promise<LaneTarget | null> {
    const em = this.db.em.fork();
    const destination = await em.findOne(WebhookDestinationEntity, { id: destinationId });
    if (!destination) return null;
    const organization = await em.findOneOrFail(OrganizationEntity, { id: destination.organization.id }, { fields: ['plan'] });
    return {
      id: destination.id,
      organizationId: destination.organization.id,
      plan: organization.plan,
      format: destination.format,
      language: destination.language,
      url: this.box.open(destination.urlSealed, urlContext(destination.id)),
      secrets: this.secrets(destination, now),
      active: destination.status === 'active',
    };
  }

  /** The lane's waiting deliveries in order: outbox sequence, then creation. */
  async pending(destinationId: string, limit: number): Promise<PendingDelivery[]> {
    const rows = await this.db.em
      .fork()
      .find(
        WebhookDeliveryEntity,
        { destination: destinationId, status: 'pending' },
        { orderBy: { seq: 'asc', createdAt: 'asc', id: 'asc' }, limit, fields: ['id', 'seq', 'envelope', 'test', 'attempts', 'nextAttemptAt'] },
      );
    return rows.map((row) => ({ id: row.id, seq: row.seq, envelope: row.envelope, test: row.test, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt }));
  }

  /** Writes a batch of attempt outcomes in one transaction, then trims old deliveries. */
  async record(outcomes: AttemptOutcome[], retention: Map<string, Plan>): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db.em.fork().transactional(async (em) => {
      await em.insertMany(
        DeliveryAttemptEntity,
        outcomes.map((o) => ({
          delivery: o.deliveryId,
          number: o.number,
          at: o.at,
          durationMs: o.durationMs,
          statusCode: o.statusCode,
          error: o.error,
          responseExcerpt: o.responseExcerpt,
        })),
      );
      // Successes are the bulk: one statement per (attempt number, status code); their exact
      // times stay on the attempt rows, the delivery keeps the batch's latest.
      const succeeded = new Map<string, AttemptOutcome[]>();
      for (const o of outcomes) {
        if (o.next.status !== 'succeeded') continue;
        const key = `${o.number}:${o.statusCode}`;
        succeeded.set(key, [...(succeeded.get(key) ?? []), o]);
      }
      for (const group of succeeded.values()) {
        const at = group.reduce((latest, o) => (o.at > latest ? o.at : latest), group[0]!.at);
        await em.nativeUpdate(
          WebhookDeliveryEntity,
          { id: { $in: group.map((o) => o.deliveryId) } },
          { status: 'succeeded', attempts: group[0]!.number, lastStatusCode: group[0]!.statusCode, lastError: null, lastAttemptAt: at, deliveredAt: at },
        );
      }
      for (const o of outcomes) {
        const common = { attempts: o.number, lastStatusCode: o.statusCode, lastError: o.error, lastAttemptAt: o.at };
        if (o.next.status === 'succeeded') {
          continue;
        } else if (o.next.status === 'pending') {
          await em.nativeUpdate(WebhookDeliveryEntity, { id: o.deliveryId }, { ...common, status: 'pending', nextAttemptAt: o.next.at });
        } else {
          await em.nativeUpdate(WebhookDeliveryEntity, { id: o.deliveryId }, { ...common, status: 'failed' });
          if (o.next.disableDestination) {
            await em.nativeUpdate(WebhookDestinationEntity, { id: o.destinationId }, { status: 'disabled', disabledReason: o.next.disableDestination, updatedAt: o.at });
            await bumpChangeEpoch(em);
          }
        }
      }
    });
    for (const o of outcomes) {
      const plan = retention.get(o.destinationId);
      if (plan && o.next.status !== 'pending') this.untrimmed.set(o.destinationId, plan);
    }
  }

  /**
   * Deletes finished deliveries beyond what each plan retains, for the destinations that
   * finished some since the last call. Called periodically: trimming after every batch would
   * cost more than the sends.
   */
  async trimRetained(): Promise<void> {
    if (this.untrimmed.size === 0) return;
    const due = [...this.untrimmed];
    this.untrimmed.clear();
    await this.db.em.fork().transactional(async (em) => {
      for (const [destinationId, plan] of due) await trim(em, destinationId, PLAN_ALLOWANCES[plan].retainedDeliveries);
    });
  }

  private secrets(destination: WebhookDestination, now: Date): string[] {
    if (!destination.secretSealed) return [];
    const current = this.box.open(destination.secretSealed, secretContext(destination.id));
    const previous =
      destination.previousSecretSealed && destination.previousSecretExpiresAt && destination.previousSecretExpiresAt > now
        ? [this.box.open(destination.previousSecretSealed, secretContext(destination.id))]
        : [];
    return [current, ...previous];
  }
}

/** Keeps the newest `keep` finished deliveries of a destination; waiting ones are never trimmed. */
async function trim(em: EntityManager, destinationId: string, keep: number): Promise<void> {
  const doomed = `select id from webhook_deliveries where destination_id = ? and status <> 'pending' and id not in (
      select id from webhook_deliveries where destination_id = ? and status <> 'pending' order by created_at desc, id desc limit ?)`;
  const connection = em.getConnection();
  await connection.execute(`delete from delivery_attempts where delivery_id in (${doomed})`, [destinationId, destinationId, keep], 'run', em.getTransactionContext());
  await connection.execute(`delete from webhook_deliveries where id in (${doomed})`, [destinationId, destinationId, keep], 'run', em.getTransactionContext());
}
