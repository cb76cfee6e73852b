// The dispatcher's units of database work, by name. Each takes and returns plain data, so that a
// runner can carry it out on another thread (see script-runners.ts). Keep this module's imports
// light: it is loaded by the SQLite thread too.
import type { DestinationScope } from '../entities/webhook-destination.entity.ts';
import type { Plan } from '../entities/organization.entity.ts';
import type { DeliveryFormat, Language, SignalType } from './contract.ts';
import { newTimeOrderedId } from '../ids.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import { all, allForIds, forIds, insert, run, type Script } from '../db/scripts.ts';
import type { RowCodec } from '../db/row-codec.ts';

const DELIVERY_COLUMNS = [
  'id',
  'destination_id',
  'organization_id',
  'seq',
  'event_id',
  'type',
  'envelope',
  'test',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
] as const;

const ATTEMPT_COLUMNS = [
  'delivery_id',
  'number',
  'at',
  'duration_ms',
  'status_code',
  'error',
  'response_excerpt',
  'request_headers',
  'response_headers',
] as const;

/** Key of the PostgreSQL advisory lock held by the one dispatcher fanning out at a time. */
const FAN_OUT_LOCK = 7_316_023;

interface OutboxRow {
  seq: number | string;
  event_id: string;
  type: SignalType;
  organization_id: string;
  deliverable: unknown;
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
  created_at: unknown;
}

interface TargetRow {
  id: string;
  organization_id: string;
  plan: Plan;
  format: DeliveryFormat;
  language: Language;
  scope: DestinationScope;
  url_sealed: string;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: unknown;
  status: string;
  updated_at: unknown;
}

/** What a lane knows of its destination besides the URL and the secrets. */
export interface TargetSettings {
  id: string;
  organizationId: string;
  plan: Plan;
  format: DeliveryFormat;
  language: Language;
  scope: DestinationScope;
}

/** A destination row as a lane's target is made from it. */
export interface StoredTarget extends TargetSettings {
  urlSealed: string;
  secretSealed: string | null;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  status: string;
  updatedAtMs: number;
}

/** An outbox row as an envelope is built from it. */
export interface SignalRow {
  seq: number;
  eventId: string;
  type: SignalType;
  organizationId: string;
  occurredAtMs: number;
  data: unknown;
}

/** A waiting delivery as stored: `envelope` is null when it is built from the outbox row `seq`. */
export interface StoredPending {
  id: string;
  seq: number;
  eventId: string;
  envelope: string | null;
  test: boolean;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
}

export interface ScriptDefinition<A, R> {
  /** `write` scripts run in one transaction; `read` scripts outside any. */
  mode: 'read' | 'write';
  run(codec: RowCodec, args: A): Script<R>;
}

const read = <A, R>(run: (codec: RowCodec, args: A) => Script<R>): ScriptDefinition<A, R> => ({ mode: 'read', run });
const write = <A, R>(run: (codec: RowCodec, args: A) => Script<R>): ScriptDefinition<A, R> => ({ mode: 'write', run });

export const DELIVERY_SCRIPTS = {
  /** Whether any outbox row waits for its fan-out: a read that takes no write lock. */
  outboxWaiting: read(function* (): Script<boolean> {
    const rows = yield* all('select seq from outbox_events where fanned_out_at is null order by seq limit 1');
    return rows.length > 0;
  }),

  /**
   * Turns waiting outbox rows into one delivery per matching destination, whole rows at a time,
   * until about `maxDeliveries` are written, and marks those rows done, in one transaction.
   */
  fanOut: write(function* (
    codec: RowCodec,
    { limit, maxDeliveries }: { limit: number; maxDeliveries: number },
  ): Script<{ rows: number; destinations: string[] }> {
    const touched = new Set<string>();
    // One fan-out at a time across dispatchers: were two to split the waiting rows between them,
    // the later rows could reach a lane before the earlier ones and break its order. Writers
    // already commit in sequence order (they all update the change epoch row first).
    if (codec.kind === 'postgresql') {
      const [lock] = yield* all<{ held: boolean }>('select pg_try_advisory_xact_lock(?) as held', [FAN_OUT_LOCK]);
      if (!lock?.held) return { rows: 0, destinations: [] };
    }
    const rows = yield* all<OutboxRow>(
      'select seq, event_id, type, organization_id, deliverable from outbox_events where fanned_out_at is null order by seq limit ?',
      [limit],
    );
    if (rows.length === 0) return { rows: 0, destinations: [] };
    const destinations = rows.some((row) => codec.readBool(row.deliverable))
      ? (yield* all<DestinationRow>(
          "select id, organization_id, kinds, scope, since_seq from webhook_destinations where status = 'active'",
        )).map((d) => ({
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
      if (deliveries.length >= maxDeliveries) break;
      handled++;
      if (!codec.readBool(row.deliverable)) continue;
      const seq = Number(row.seq);
      for (const destination of destinations) {
        if (seq <= destination.sinceSeq || !destination.kinds.has(row.type)) continue;
        if (destination.own && destination.organizationId !== row.organization_id) continue;
        touched.add(destination.id);
        deliveries.push([
          newTimeOrderedId('delivery'),
          destination.id,
          destination.organizationId,
          seq,
          row.event_id,
          row.type,
          fromOutbox,
          codec.bool(false),
          'pending',
          0,
          now,
          now,
        ]);
      }
    }
    yield* insert('webhook_deliveries', DELIVERY_COLUMNS, deliveries);
    const seqs = rows.slice(0, handled).map((row) => Number(row.seq));
    yield* forIds(seqs, [now], (list) => `update outbox_events set fanned_out_at = ? where seq in (${list})`);
    return { rows: handled, destinations: [...touched] };
  }),

  /**
   * Takes the lanes of `ids` that no live dispatcher holds (free, expired, or already `owner`'s)
   * until `now + leaseMs`; returns those `owner` now holds.
   */
  claimLanes: write(function* (
    codec: RowCodec,
    { owner, ids, leaseMs, now }: { owner: string; ids: string[]; leaseMs: number; now: number },
  ): Script<string[]> {
    yield* forIds(
      ids,
      [owner, codec.date(now + leaseMs), codec.date(now), owner],
      (list) =>
        `update webhook_destinations set lease_owner = ?, lease_expires_at = ? where (lease_owner is null or lease_expires_at < ? or lease_owner = ?) and id in (${list})`,
    );
    const held = yield* allForIds<{ id: string; lease_owner: string | null }>(
      ids,
      (list) => `select id, lease_owner from webhook_destinations where id in (${list})`,
    );
    return held.filter((row) => row.lease_owner === owner).map((row) => row.id);
  }),

  /** Extends `owner`'s leases to `now + leaseMs`; returns the lanes it still holds. */
  renewLanes: write(function* (
    codec: RowCodec,
    { owner, leaseMs, now }: { owner: string; leaseMs: number; now: number },
  ): Script<string[]> {
    yield* run('update webhook_destinations set lease_expires_at = ? where lease_owner = ?', [codec.date(now + leaseMs), owner]);
    return (yield* all<{ id: string }>('select id from webhook_destinations where lease_owner = ?', [owner])).map((row) => row.id);
  }),

  /** Gives `owner`'s lanes back (only those of `ids` when given), so another dispatcher takes them at once. */
  releaseLanes: write(function* (_codec: RowCodec, { owner, ids }: { owner: string; ids?: string[] | undefined }): Script<void> {
    const release = 'update webhook_destinations set lease_owner = null, lease_expires_at = null where lease_owner = ?';
    if (ids) yield* forIds(ids, [owner], (list) => `${release} and id in (${list})`);
    else yield* run(release, [owner]);
  }),

  /** Active destinations that have deliveries waiting. */
  destinationsWithWork: read(function* (): Script<string[]> {
    // One index probe per destination (the lane index), not a scan of every waiting delivery.
    const rows = yield* all<{ id: string }>(
      "select w.id as id from webhook_destinations w where w.status = 'active' and exists (select 1 from webhook_deliveries d where d.destination_id = w.id and d.status = 'pending')",
    );
    return rows.map((row) => row.id);
  }),

  /** What lanes need of each destination of `ids` still there (sealed values as stored). */
  destinationTargets: read(function* (codec: RowCodec, { ids }: { ids: string[] }): Script<StoredTarget[]> {
    const rows = yield* allForIds<TargetRow>(
      ids,
      (
        list,
      ) => `select d.id, d.organization_id, o.plan, d.format, d.language, d.scope, d.url_sealed, d.secret_sealed, d.previous_secret_sealed, d.previous_secret_expires_at, d.status, d.updated_at
           from webhook_destinations d join organizations o on o.id = d.organization_id where d.id in (${list})`,
    );
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      plan: row.plan,
      format: row.format,
      language: row.language,
      scope: row.scope,
      urlSealed: row.url_sealed,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : codec.readMs(row.previous_secret_expires_at),
      status: row.status,
      updatedAtMs: codec.readMs(row.updated_at),
    }));
  }),

  /** The status and last change of each destination of `ids` still there. */
  destinationStamps: read(function* (
    codec: RowCodec,
    { ids }: { ids: string[] },
  ): Script<{ id: string; status: string; updatedAtMs: number }[]> {
    const rows = yield* allForIds<{ id: string; status: string; updated_at: unknown }>(
      ids,
      (list) => `select id, status, updated_at from webhook_destinations where id in (${list})`,
    );
    return rows.map((row) => ({ id: row.id, status: row.status, updatedAtMs: codec.readMs(row.updated_at) }));
  }),

  /** A lane's waiting deliveries in order (outbox sequence, then creation), after the key `after` when given. */
  pending: read(function* (
    codec: RowCodec,
    {
      destinationId,
      limit,
      after,
    }: { destinationId: string; limit: number; after?: { seq: number; createdAt: number; id: string } | undefined },
  ): Script<StoredPending[]> {
    const columns = 'id, seq, event_id, envelope, test, attempts, next_attempt_at, created_at';
    const rows = after
      ? yield* all<PendingRow>(
          `select ${columns} from webhook_deliveries where destination_id = ? and status = 'pending' and (seq, created_at, id) > (?, ?, ?) order by seq, created_at, id limit ?`,
          [destinationId, after.seq, codec.date(after.createdAt), after.id, limit],
        )
      : yield* all<PendingRow>(
          `select ${columns} from webhook_deliveries where destination_id = ? and status = 'pending' order by seq, created_at, id limit ?`,
          [destinationId, limit],
        );
    return rows.map((row) => ({
      id: row.id,
      seq: Number(row.seq),
      eventId: row.event_id,
      // SQLite returns the JSON text, PostgreSQL the parsed value.
      envelope: row.envelope === null || row.envelope === 'null' ? null : codec.readJsonText(row.envelope),
      test: codec.readBool(row.test),
      attempts: Number(row.attempts),
      nextAttemptAt: codec.readMs(row.next_attempt_at),
      createdAt: codec.readMs(row.created_at),
    }));
  }),

  /** Outbox rows by sequence number. */
  signals: read(function* (codec: RowCodec, { seqs }: { seqs: number[] }): Script<SignalRow[]> {
    const rows = yield* allForIds<{
      seq: number | string;
      event_id: string;
      type: SignalType;
      organization_id: string;
      occurred_at: unknown;
      data: unknown;
    }>(seqs, (list) => `select seq, event_id, type, organization_id, occurred_at, data from outbox_events where seq in (${list})`);
    return rows.map((row) => ({
      seq: Number(row.seq),
      eventId: row.event_id,
      type: row.type,
      organizationId: row.organization_id,
      occurredAtMs: codec.readMs(row.occurred_at),
      data: codec.readJson(row.data),
    }));
  }),

  /** Writes a batch of attempt outcomes. */
  record: write(function* (codec: RowCodec, { outcomes }: { outcomes: AttemptOutcome[] }): Script<void> {
    yield* insert(
      'delivery_attempts',
      ATTEMPT_COLUMNS,
      outcomes.map((o) => [
        o.deliveryId,
        o.number,
        codec.date(o.at),
        o.durationMs,
        o.statusCode,
        o.error,
        o.responseExcerpt,
        o.requestHeaders ?? null,
        o.responseHeaders ?? null,
      ]),
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
        (list) =>
          `update webhook_deliveries set status = 'succeeded', attempts = ?, last_status_code = ?, last_error = null, last_attempt_at = ?, delivered_at = ? where id in (${list})`,
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
      yield* run(
        "update webhook_deliveries set attempts = ?, last_status_code = ?, last_error = ?, last_attempt_at = ?, status = 'failed' where id = ?",
        [...common, o.deliveryId],
      );
      if (o.next.disableDestination) {
        yield* run("update webhook_destinations set status = 'disabled', disabled_reason = ?, updated_at = ? where id = ?", [
          o.next.disableDestination,
          codec.date(o.at),
          o.destinationId,
        ]);
        // Other processes' caches and lanes learn of it through the change epoch.
        yield* run('update change_epoch set value = value + 1 where id = 1');
      }
    }
  }),

  /** Keeps the newest `keep` finished deliveries of each destination; waiting ones are never trimmed. */
  trim: write(function* (_codec: RowCodec, { keep }: { keep: [destinationId: string, count: number][] }): Script<void> {
    for (const [destinationId, count] of keep) {
      // The oldest delivery kept; everything finished before it goes.
      const [edge] = yield* all<{ created_at: unknown; id: string }>(
        "select created_at, id from webhook_deliveries where destination_id = ? and status <> 'pending' order by created_at desc, id desc limit 1 offset ?",
        [destinationId, count - 1],
      );
      if (!edge) continue;
      const doomed =
        "select id from webhook_deliveries where destination_id = ? and status <> 'pending' and (created_at < ? or (created_at = ? and id < ?))";
      const params = [destinationId, edge.created_at, edge.created_at, edge.id];
      yield* run(`delete from delivery_attempts where delivery_id in (${doomed})`, params);
      yield* run(`delete from webhook_deliveries where id in (${doomed})`, params);
    }
  }),
};

export type DeliveryScripts = typeof DELIVERY_SCRIPTS;
export type ScriptName = keyof DeliveryScripts;
export type ScriptArgs<N extends ScriptName> = DeliveryScripts[N] extends ScriptDefinition<infer A, unknown> ? A : never;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ScriptResult<N extends ScriptName> = DeliveryScripts[N] extends ScriptDefinition<any, infer R> ? R : never;

/** The script `name` over `args`, and whether it runs in a transaction: what every runner starts from. */
export function scriptOf<N extends ScriptName>(
  name: N,
  codec: RowCodec,
  args: ScriptArgs<N>,
): { mode: 'read' | 'write'; script: Script<ScriptResult<N>> } {
  const definition = DELIVERY_SCRIPTS[name];
  return { mode: definition.mode, script: (definition.run as (codec: RowCodec, args: unknown) => Script<ScriptResult<N>>)(codec, args) };
}
