import type { Database } from '../db/orm.ts';
import { OrganizationEntity, WebhookDestinationEntity, type DestinationScope, type Plan, type SignalType, type WebhookDestination } from '../entities/index.ts';
import { newTimeOrderedId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import type { SecretBox } from '../secret-box.ts';
import type { DeliveryFormat, Language, WebhookEnvelope } from './envelope.ts';
import { all, ATTEMPT_COLUMNS, DELIVERY_COLUMNS, forIds, insert, RowCodec, run, type Script, type ScriptRunner } from './delivery-sql.ts';
import { secretContext, urlContext } from './views.ts';

/** Raw rows of the hot-path statements (column types vary by database; see RowCodec). */
interface OutboxRow {
  seq: number | string;
  event_id: string;
  type: SignalType;
  organization_id: string;
  deliverable: unknown;
}
interface SignalRow {
  seq: number | string;
  event_id: string;
  type: SignalType;
  organization_id: string;
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
  event_id: string;
  envelope: unknown;
  test: unknown;
  attempts: number | string;
  next_attempt_at: unknown;
}

/**
 * Deliveries written by one fan-out transaction, at most (beyond the outbox row that crosses it):
 * a large backlog is fanned out in chunks, and sending starts after the first.
 */
const FAN_OUT_DELIVERIES = 2_000;

/** Envelope texts kept in memory: a few signals' worth for every lane. */
const ENVELOPES_KEPT = 10_000;

/** Key of the PostgreSQL advisory lock held by the one dispatcher fanning out at a time. */
const FAN_OUT_LOCK = 7_316_023;

/** A destination as its lane needs it: URL and secrets unsealed. */
export interface LaneTarget {
  id: string;
  organizationId: string;
  plan: Plan;
  format: DeliveryFormat;
  language: Language;
  scope: DestinationScope;
  url: string;
  /** Current secret first; the replaced one too while a rotation is under way. */
  secrets: string[];
  active: boolean;
  /** Changes whenever the destination's row does (see `stamp`). */
  stamp: string;
}

export interface PendingDelivery {
  id: string;
  seq: number;
  eventId: string;
  /** The envelope as JSON text: on SQLite the very text written at fan-out. */
  envelope: string;
  test: boolean;
  attempts: number;
  /** Epoch milliseconds. */
  nextAttemptAt: number;
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
  /** Envelope texts by outbox row and scope, oldest first (see `envelopes`). */
  private readonly envelopeTexts = new Map<string, string>();
  private readonly codec: RowCodec;

  constructor(
    private readonly sql: ScriptRunner,
    private readonly db: Database,
    private readonly box: SecretBox,
  ) {
    this.codec = new RowCodec(sql.kind);
  }

  /**
   * Turns outbox rows not yet fanned out into one delivery per matching destination, in one
   * transaction with marking them done. Returns how many rows were handled.
   */
  async fanOut(limit = 500): Promise<{ rows: number; destinations: Set<string> }> {
    // Most calls find nothing: a read outside any transaction says so without taking the write lock.
    const waiting = await this.sql.read(() => all('select seq from outbox_events where fanned_out_at is null order by seq limit 1'));
    if (waiting.length === 0) return { rows: 0, destinations: new Set() };
    return this.sql.write(() => this.fanOutScript(limit));
  }

  private *fanOutScript(limit: number): Script<{ rows: number; destinations: Set<string> }> {
    const touched = new Set<string>();
    const codec = this.codec;
    // One fan-out at a time across dispatchers: were two to split the waiting rows between them,
    // the later rows could reach a lane before the earlier ones and break its order. Writers
    // already commit in sequence order (they all update the change epoch row first).
    if (this.sql.kind === 'postgresql') {
      const [lock] = yield* all<{ held: boolean }>('select pg_try_advisory_xact_lock(?) as held', [FAN_OUT_LOCK]);
      if (!lock?.held) return { rows: 0, destinations: touched };
    }
    const rows = yield* all<OutboxRow>('select seq, event_id, type, organization_id, deliverable from outbox_events where fanned_out_at is null order by seq limit ?', [limit]);
    if (rows.length === 0) return { rows: 0, destinations: touched };
    const destinations = rows.some((row) => codec.readBool(row.deliverable))
      ? (yield* all<DestinationRow>("select id, organization_id, kinds, scope, since_seq from webhook_destinations where status = 'active'")).map((d) => ({
          id: d.id,
          organizationId: d.organization_id,
          kinds: new Set(codec.readJson<string[]>(d.kinds)),
          own: d.scope === 'own',
          sinceSeq: Number(d.since_seq),
        }))
      : [];
    const now = codec.date(Date.now());
    // The envelope stays in the outbox row: JSON null here, built again from `seq` when sent.
    const fromOutbox = codec.json(null);
    const deliveries: unknown[][] = [];
    let handled = 0;
    for (const row of rows) {
      // Whole outbox rows only: a row is marked fanned out with all its deliveries.
      if (deliveries.length >= FAN_OUT_DELIVERIES) break;
      handled++;
      if (!codec.readBool(row.deliverable)) continue;
      const seq = Number(row.seq);
      for (const destination of destinations) {
        if (seq <= destination.sinceSeq || !destination.kinds.has(row.type)) continue;
        if (destination.own && destination.organizationId !== row.organization_id) continue;
        touched.add(destination.id);
        deliveries.push([newTimeOrderedId('delivery'), destination.id, destination.organizationId, seq, row.event_id, row.type, fromOutbox, codec.bool(false), 'pending', 0, now, now]);
      }
    }
    yield* insert('webhook_deliveries', DELIVERY_COLUMNS, deliveries);
    const seqs = rows.slice(0, handled).map((row) => Number(row.seq));
    yield* forIds(seqs, [now], (list) => `update outbox_events set fanned_out_at = ? where seq in (${list})`);
    return { rows: handled, destinations: touched };
  }

  /** Active destinations that have deliveries waiting. */
  async destinationsWithWork(): Promise<string[]> {
    const rows = await this.sql.read(() =>
      // One index probe per destination (the lane index), not a scan of every waiting delivery.
      all<{ id: string }>(
        "select w.id as id from webhook_destinations w where w.status = 'active' and exists (select 1 from webhook_deliveries d where d.destination_id = w.id and d.status = 'pending')",
      ),
    );
    return rows.map((row) => row.id);
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
      scope: destination.scope,
      url: this.box.open(destination.urlSealed, urlContext(destination.id)),
      secrets: this.secrets(destination, now),
      active: destination.status === 'active',
      stamp: stampOf(destination.status, destination.updatedAt.getTime()),
    };
  }

  /**
   * A value that changes whenever the destination does (every change sets its `updated_at`), or
   * null once it is gone: a lane compares it with its target's to know whether to read it again.
   */
  async stamp(destinationId: string): Promise<string | null> {
    const [row] = await this.sql.read(() => all<{ status: string; updated_at: unknown }>('select status, updated_at from webhook_destinations where id = ?', [destinationId]));
    return row ? stampOf(row.status, this.codec.readMs(row.updated_at)) : null;
  }

  /** The lane's waiting deliveries in order: outbox sequence, then creation. */
  async pending(destination: Pick<LaneTarget, 'id' | 'scope'>, limit: number): Promise<PendingDelivery[]> {
    const codec = this.codec;
    const rows = await this.sql.read(() =>
      all<PendingRow>(
        "select id, seq, event_id, envelope, test, attempts, next_attempt_at from webhook_deliveries where destination_id = ? and status = 'pending' order by seq, created_at, id limit ?",
        [destination.id, limit],
      ),
    );
    const own = destination.scope === 'own';
    const fromOutbox = rows.filter((row) => isJsonNull(row.envelope)).map((row) => Number(row.seq));
    const envelopes = fromOutbox.length > 0 ? await this.envelopes(fromOutbox, own) : new Map<number, string>();
    return rows.map((row) => {
      const seq = Number(row.seq);
      return {
        id: row.id,
        seq,
        eventId: row.event_id,
        envelope: isJsonNull(row.envelope) ? envelopes.get(seq)! : codec.readJsonText(row.envelope),
        test: codec.readBool(row.test),
        attempts: Number(row.attempts),
        nextAttemptAt: codec.readMs(row.next_attempt_at),
      };
    });
  }

  /**
   * The envelope text of outbox rows `seqs` as a destination of that scope receives it. Every lane
   * sends the same few signals, so each text is built once and kept a while.
   */
  private async envelopes(seqs: number[], own: boolean): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    const missing: number[] = [];
    for (const seq of new Set(seqs)) {
      const text = this.envelopeTexts.get(envelopeKey(seq, own));
      if (text === undefined) missing.push(seq);
      else found.set(seq, text);
    }
    if (missing.length === 0) return found;
    const rows = await this.sql.read(function* () {
      const read: SignalRow[] = [];
      for (let start = 0; start < missing.length; start += 100) {
        const chunk = missing.slice(start, start + 100);
        read.push(...(yield* all<SignalRow>(`select seq, event_id, type, organization_id, occurred_at, data from outbox_events where seq in (${chunk.map(() => '?').join(', ')})`, chunk)));
      }
      return read;
    });
    const codec = this.codec;
    for (const row of rows) {
      const text = codec.json({
        id: row.event_id,
        type: row.type,
        version: '1',
        occurred_at: codec.readDate(row.occurred_at).toISOString(),
        organization_id: own ? row.organization_id : null,
        data: codec.readJson(row.data),
      } satisfies WebhookEnvelope);
      const seq = Number(row.seq);
      if (this.envelopeTexts.size >= ENVELOPES_KEPT) this.envelopeTexts.delete(this.envelopeTexts.keys().next().value!);
      this.envelopeTexts.set(envelopeKey(seq, own), text);
      found.set(seq, text);
    }
    const lost = missing.filter((seq) => !found.has(seq));
    if (lost.length > 0) throw new Error(`Outbox rows ${lost.join(', ')} are gone, but deliveries of them are waiting`);
    return found;
  }

  /** Writes a batch of attempt outcomes in one transaction. */
  async record(outcomes: AttemptOutcome[], retention: Map<string, Plan>): Promise<void> {
    if (outcomes.length === 0) return;
    await this.sql.write(() => this.recordScript(outcomes));
    for (const o of outcomes) {
      const plan = retention.get(o.destinationId);
      if (plan && o.next.status !== 'pending') this.untrimmed.set(o.destinationId, plan);
    }
  }

  private *recordScript(outcomes: AttemptOutcome[]): Script<void> {
    const codec = this.codec;
    yield* insert(
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
      yield* forIds(
        group.map((o) => o.deliveryId),
        [group[0]!.number, group[0]!.statusCode, at, at],
        (list) => `update webhook_deliveries set status = 'succeeded', attempts = ?, last_status_code = ?, last_error = null, last_attempt_at = ?, delivered_at = ? where id in (${list})`,
      );
    }
    for (const o of outcomes) {
      const common = [o.number, o.statusCode, o.error, codec.date(o.at)];
      if (o.next.status === 'succeeded') continue;
      if (o.next.status === 'pending') {
        yield* run(
          "update webhook_deliveries set attempts = ?, last_status_code = ?, last_error = ?, last_attempt_at = ?, status = 'pending', next_attempt_at = ? where id = ?",
          [...common, codec.date(o.next.at), o.deliveryId],
        );
        continue;
      }
      yield* run("update webhook_deliveries set attempts = ?, last_status_code = ?, last_error = ?, last_attempt_at = ?, status = 'failed' where id = ?", [...common, o.deliveryId]);
      if (o.next.disableDestination) {
        yield* run("update webhook_destinations set status = 'disabled', disabled_reason = ?, updated_at = ? where id = ?", [o.next.disableDestination, codec.date(o.at), o.destinationId]);
        // Other processes' caches and lanes learn of it through the change epoch.
        yield* run('update change_epoch set value = value + 1 where id = 1');
      }
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
    await this.sql.write(function* () {
      for (const [destinationId, plan] of due) yield* trim(destinationId, PLAN_ALLOWANCES[plan].retainedDeliveries);
    });
  }

  async close(): Promise<void> {
    await this.sql.close();
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

const stampOf = (status: string, updatedAtMs: number) => `${status}:${updatedAtMs}`;
const envelopeKey = (seq: number, own: boolean) => `${seq}:${own ? 'own' : 'platform'}`;
/** SQLite returns the JSON text, PostgreSQL the parsed value. */
const isJsonNull = (value: unknown) => value === null || value === 'null';

/** Keeps the newest `keep` finished deliveries of a destination; waiting ones are never trimmed. */
function* trim(destinationId: string, keep: number): Script<void> {
  // The oldest delivery kept; everything finished before it goes.
  const [edge] = yield* all<{ created_at: unknown; id: string }>(
    "select created_at, id from webhook_deliveries where destination_id = ? and status <> 'pending' order by created_at desc, id desc limit 1 offset ?",
    [destinationId, keep - 1],
  );
  if (!edge) return;
  const doomed = "select id from webhook_deliveries where destination_id = ? and status <> 'pending' and (created_at < ? or (created_at = ? and id < ?))";
  const params = [destinationId, edge.created_at, edge.created_at, edge.id];
  yield* run(`delete from delivery_attempts where delivery_id in (${doomed})`, params);
  yield* run(`delete from webhook_deliveries where id in (${doomed})`, params);
}
