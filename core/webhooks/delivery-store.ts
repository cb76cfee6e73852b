import type { EntityManager } from '@mikro-orm/core';
import type { Database, DatabaseKind } from '../db/orm.ts';
import {
  OrganizationEntity,
  WebhookDestinationEntity,
  type Plan,
  type SignalType,
  type WebhookDestination,
} from '../entities/index.ts';
import { newId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import type { SecretBox } from '../secret-box.ts';
import { bumpChangeEpoch } from '../services/change-feed.ts';
import type { DeliveryFormat, Language, WebhookEnvelope } from './envelope.ts';
import { ATTEMPT_COLUMNS, DELIVERY_COLUMNS, forChunks, insertRows, RowCodec, sqlOf } from './delivery-sql.ts';
import { secretContext, urlContext } from './views.ts';

/** Raw rows of the hot-path statements (column types vary by database; see RowCodec). */
interface OutboxRow {
  seq: number | string;
  event_id: string;
  type: SignalType;
  organization_id: string;
  deliverable: unknown;
  occurred_at: unknown;
  data: unknown;
}
interface DestinationRow {
  id: string;
  organization_id: string;
  kinds: unknown;
  scope: string;
  since_seq: number | string;
}
interface PendingRow {
  id: string;
  seq: number | string;
  envelope: unknown;
  test: unknown;
  attempts: number | string;
  next_attempt_at: unknown;
}

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
  private readonly codec: RowCodec;

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly kind: DatabaseKind,
  ) {
    this.codec = new RowCodec(kind);
  }

  /**
   * Turns outbox rows not yet fanned out into one delivery per matching destination, in one
   * transaction with marking them done. Returns how many rows were handled.
   */
  async fanOut(limit = 500): Promise<{ rows: number; destinations: Set<string> }> {
    const touched = new Set<string>();
    // Most calls find nothing: a read outside any transaction says so without taking the write lock.
    const waiting = await sqlOf(this.db.em.fork()).all<{ seq: number }>('select seq from outbox_events where fanned_out_at is null order by seq limit 1');
    if (waiting.length === 0) return { rows: 0, destinations: touched };
    return this.db.em.fork().transactional(async (em) => {
      const sql = sqlOf(em);
      const codec = this.codec;
      // One fan-out at a time across dispatchers: were two to split the waiting rows between them,
      // the later rows could reach a lane before the earlier ones and break its order. Writers
      // already commit in sequence order (they all update the change epoch row first).
      if (this.kind === 'postgresql') {
        const [lock] = await sql.all<{ held: boolean }>('select pg_try_advisory_xact_lock(?) as held', [FAN_OUT_LOCK]);
        if (!lock?.held) return { rows: 0, destinations: touched };
      }
      const rows = await sql.all<OutboxRow>(
        'select seq, event_id, type, organization_id, deliverable, occurred_at, data from outbox_events where fanned_out_at is null order by seq limit ?',
        [limit],
      );
      if (rows.length === 0) return { rows: 0, destinations: touched };
      const destinations = rows.some((row) => codec.readBool(row.deliverable))
        ? (await sql.all<DestinationRow>("select id, organization_id, kinds, scope, since_seq from webhook_destinations where status = 'active'")).map((d) => ({
            ...d,
            kinds: codec.readJson<string[]>(d.kinds),
            since_seq: Number(d.since_seq),
          }))
        : [];
      const now = codec.date(new Date());
      const deliveries: unknown[][] = [];
      for (const row of rows) {
        if (!codec.readBool(row.deliverable)) continue;
        const seq = Number(row.seq);
        // The envelope as JSON text, once per scope: only `organization_id` differs between them.
        const envelope = (own: boolean) =>
          codec.json({
            id: row.event_id,
            type: row.type,
            version: '1',
            occurred_at: codec.readDate(row.occurred_at).toISOString(),
            organization_id: own ? row.organization_id : null,
            data: codec.readJson(row.data),
          } satisfies WebhookEnvelope);
        const bodies = new Map<boolean, string>();
        for (const destination of destinations) {
          if (seq <= destination.since_seq || !destination.kinds.includes(row.type)) continue;
          const own = destination.scope === 'own';
          if (own && destination.organization_id !== row.organization_id) continue;
          let body = bodies.get(own);
          if (body === undefined) bodies.set(own, (body = envelope(own)));
          touched.add(destination.id);
          deliveries.push([newId('delivery'), destination.id, destination.organization_id, seq, row.event_id, row.type, body, codec.bool(false), 'pending', 0, now, now]);
        }
      }
      await insertRows(sql, 'webhook_deliveries', DELIVERY_COLUMNS, deliveries);
      const seqs = rows.map((row) => Number(row.seq));
      await sql.run(`update outbox_events set fanned_out_at = ? where seq in (${seqs.map(() => '?').join(', ')})`, [now, ...seqs]);
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
    const codec = this.codec;
    const rows = await sqlOf(this.db.em.fork()).all<PendingRow>(
      "select id, seq, envelope, test, attempts, next_attempt_at from webhook_deliveries where destination_id = ? and status = 'pending' order by seq, created_at, id limit ?",
      [destinationId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      seq: Number(row.seq),
      envelope: codec.readJson<WebhookEnvelope>(row.envelope),
      test: codec.readBool(row.test),
      attempts: Number(row.attempts),
      nextAttemptAt: codec.readDate(row.next_attempt_at),
    }));
  }

  /** Writes a batch of attempt outcomes in one transaction. */
  async record(outcomes: AttemptOutcome[], retention: Map<string, Plan>): Promise<void> {
    if (outcomes.length === 0) return;
    const codec = this.codec;
    await this.db.em.fork().transactional(async (em) => {
      const sql = sqlOf(em);
      await insertRows(
        sql,
        'delivery_attempts',
        ATTEMPT_COLUMNS,
        outcomes.map((o) => [o.deliveryId, o.number, codec.date(o.at), o.durationMs, o.statusCode, o.error, o.responseExcerpt]),
      );
      // Successes are the bulk: one statement per (attempt number, status code); their exact
      // times stay on the attempt rows, the delivery keeps the batch's latest.
      const succeeded = new Map<string, AttemptOutcome[]>();
      for (const o of outcomes) {
        if (o.next.status !== 'succeeded') continue;
        const key = `${o.number}:${o.statusCode}`;
        const group = succeeded.get(key);
        if (group) group.push(o);
        else succeeded.set(key, [o]);
      }
      for (const group of succeeded.values()) {
        const at = codec.date(group.reduce((latest, o) => (o.at > latest ? o.at : latest), group[0]!.at));
        await forChunks(
          group.map((o) => o.deliveryId),
          (placeholders, ids) =>
            sql.run(
              `update webhook_deliveries set status = 'succeeded', attempts = ?, last_status_code = ?, last_error = null, last_attempt_at = ?, delivered_at = ? where id in (${placeholders})`,
              [group[0]!.number, group[0]!.statusCode, at, at, ...ids],
            ),
        );
      }
      for (const o of outcomes) {
        const common = [o.number, o.statusCode, o.error, codec.date(o.at)];
        if (o.next.status === 'succeeded') {
          continue;
        } else if (o.next.status === 'pending') {
          await sql.run(
            "update webhook_deliveries set attempts = ?, last_status_code = ?, last_error = ?, last_attempt_at = ?, status = 'pending', next_attempt_at = ? where id = ?",
            [...common, codec.date(o.next.at), o.deliveryId],
          );
        } else {
          await sql.run("update webhook_deliveries set attempts = ?, last_status_code = ?, last_error = ?, last_attempt_at = ?, status = 'failed' where id = ?", [...common, o.deliveryId]);
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
  const sql = sqlOf(em);
  // The oldest delivery kept; everything finished before it goes.
  const [edge] = await sql.all<{ created_at: unknown; id: string }>(
    "select created_at, id from webhook_deliveries where destination_id = ? and status <> 'pending' order by created_at desc, id desc limit 1 offset ?",
    [destinationId, keep - 1],
  );
  if (!edge) return;
  const doomed = "select id from webhook_deliveries where destination_id = ? and status <> 'pending' and (created_at < ? or (created_at = ? and id < ?))";
  const params = [destinationId, edge.created_at, edge.created_at, edge.id];
  await sql.run(`delete from delivery_attempts where delivery_id in (${doomed})`, params);
  await sql.run(`delete from webhook_deliveries where id in (${doomed})`, params);
}
