// The dispatcher's units of database work, by name: fan-out, queues, attempts and trimming here,
// what lanes know of their destinations in lane-scripts.ts. Each takes and returns plain data, so
// that a runner can carry it out on another thread (see script-runners.ts). Keep this module's
// imports light: it is loaded by the SQLite thread too.
import { sql } from 'kysely';
import type { SignalType } from './contract.ts';
import { newTimeOrderedId } from '../ids.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import {
  briefWrite,
  chunked,
  inBatches,
  probe,
  read,
  transactional,
  write,
  type ScriptContext,
  type ScriptDefinition,
} from '../db/scripts.ts';
import {
  ACTIVE_DESTINATIONS,
  ANY_ACTIVE_DESTINATION,
  INSERT_ATTEMPTS,
  INSERT_DELIVERIES,
  MARK_SUCCEEDED,
  type NewAttempt,
  type NewDelivery,
  OUTBOX_ROWS,
  OUTBOX_WAITING,
  PENDING_AFTER,
  PENDING_FIRST,
} from './delivery-statements.ts';
import { LANE_SCRIPTS } from './lane-scripts.ts';

/** Key of the PostgreSQL advisory lock held by the one dispatcher fanning out at a time. */
const FAN_OUT_LOCK = 7_316_023;

/**
 * One fan-out at a time across dispatchers: were two to split the waiting rows between them, the
 * later rows could reach a lane before the earlier ones and break its order. Writers already
 * commit in sequence order (they all update the change epoch row first). False when another
 * dispatcher holds it (PostgreSQL; on SQLite the write transaction itself is the lock).
 */
async function holdsFanOut({ sql: db, kind }: ScriptContext): Promise<boolean> {
  if (kind !== 'postgresql') return true;
  const { rows } = await sql<{ held: boolean }>`select pg_try_advisory_xact_lock(${FAN_OUT_LOCK}) as held`.execute(db);
  return rows[0]?.held === true;
}

/** Rows per multi-row insert: one statement for many rows, far below either database's parameter limit (a power of two). */
const INSERT_ROWS = { sqlite: 64, postgresql: 256 } as const;

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

export const DELIVERY_SCRIPTS = {
  ...LANE_SCRIPTS,

  /** Whether any outbox row waits for its fan-out: a read that takes no write lock. */
  outboxWaiting: probe(async ({ run }, _: object): Promise<boolean> => (await run(OUTBOX_WAITING, {})).length > 0),

  /**
   * Turns waiting outbox rows into one delivery per matching destination, whole rows at a time,
   * until about `maxDeliveries` are written, and marks those rows done, in one transaction.
   */
  fanOut: write(
    async (
      context,
      { limit, maxDeliveries }: { limit: number; maxDeliveries: number },
    ): Promise<{ rows: number; destinations: string[] }> => {
      const { sql: db, kind, run } = context;
      const touched = new Set<string>();
      if (!(await holdsFanOut(context))) return { rows: 0, destinations: [] };
      const rows = await run(OUTBOX_ROWS, { limit });
      if (rows.length === 0) return { rows: 0, destinations: [] };
      const destinations = rows.some((row) => row.deliverable)
        ? (await run(ACTIVE_DESTINATIONS, {})).map((d) => ({
            id: d.id,
            organizationId: d.organization,
            kinds: new Set<string>(d.kinds),
            own: d.scope === 'own',
            sinceSeq: Number(d.sinceSeq),
          }))
        : [];
      const now = new Date();
      const deliveries: NewDelivery[] = [];
      let handled = 0;
      for (const row of rows) {
        // Whole outbox rows only: a row is marked fanned out with all its deliveries.
        if (deliveries.length >= maxDeliveries) break;
        handled++;
        if (!row.deliverable) continue;
        const seq = Number(row.seq);
        for (const destination of destinations) {
          if (seq <= destination.sinceSeq || !destination.kinds.has(row.type)) continue;
          if (destination.own && destination.organizationId !== row.organizationId) continue;
          touched.add(destination.id);
          deliveries.push({
            id: newTimeOrderedId('delivery'),
            destination: destination.id,
            organizationId: destination.organizationId,
            seq,
            eventId: row.eventId,
            type: row.type,
          });
        }
      }
      for (const list of inBatches(deliveries, INSERT_ROWS[kind])) await run(INSERT_DELIVERIES, { deliveries: list, now });
      const seqs = rows.slice(0, handled).map((row) => row.seq);
      for (const list of chunked(seqs)) await db.updateTable('OutboxEvent').set({ fannedOutAt: now }).where('seq', 'in', list).execute();
      return { rows: handled, destinations: [...touched] };
    },
  ),

  /**
   * While no destination is active, marks up to `limit` waiting outbox rows fanned out (nobody is
   * there to deliver them to) and returns false; once one is, writes nothing and returns true: the
   * rows wait for a dispatcher's fan-out. So public changes on an instance without destinations
   * start no dispatcher thread (workers/dispatcher-thread.ts). The rows are read before the
   * destinations, as in `fanOut`: a destination made meanwhile takes signals from its creation on
   * (`sinceSeq`, read under the outbox lock), after every row read here.
   */
  settleOutbox: briefWrite(async (context, { limit }: { limit: number }): Promise<boolean> => {
    const { sql: db, run } = context;
    if (!(await holdsFanOut(context))) return false;
    const rows = await run(OUTBOX_ROWS, { limit });
    if (rows.length === 0) return false;
    if ((await run(ANY_ACTIVE_DESTINATION, {})).length > 0) return true;
    const now = new Date();
    for (const list of chunked(rows.map((row) => row.seq))) {
      await db.updateTable('OutboxEvent').set({ fannedOutAt: now }).where('seq', 'in', list).execute();
    }
    return false;
  }),

  /** A lane's waiting deliveries in order (outbox sequence, then creation), after the key `after` when given. */
  pending: read(
    async (
      { run },
      {
        destinationId,
        limit,
        after,
      }: { destinationId: string; limit: number; after?: { seq: number; createdAt: number; id: string } | undefined },
    ): Promise<StoredPending[]> => {
      const rows = after
        ? await run(PENDING_AFTER, { destinationId, limit, seq: after.seq, createdAt: new Date(after.createdAt), id: after.id })
        : await run(PENDING_FIRST, { destinationId, limit });
      return rows.map((row) => ({
        id: row.id,
        seq: Number(row.seq),
        eventId: row.eventId,
        envelope: row.envelope === null ? null : JSON.stringify(row.envelope),
        test: row.test,
        attempts: row.attempts,
        nextAttemptAt: row.nextAttemptAt.getTime(),
        createdAt: row.createdAt.getTime(),
      }));
    },
  ),

  /** Outbox rows by sequence number. */
  signals: read(async ({ sql: db }, { seqs }: { seqs: number[] }): Promise<SignalRow[]> => {
    const signals: SignalRow[] = [];
    for (const list of chunked(seqs)) {
      const rows = await db
        .selectFrom('OutboxEvent')
        .select(['seq', 'eventId', 'type', 'organizationId', 'occurredAt', 'data'])
        .where('seq', 'in', list)
        .execute();
      for (const row of rows) {
        signals.push({
          seq: Number(row.seq),
          eventId: row.eventId,
          type: row.type,
          organizationId: row.organizationId,
          occurredAtMs: row.occurredAt.getTime(),
          data: row.data,
        });
      }
    }
    return signals;
  }),

  /** Writes a batch of attempt outcomes. */
  record: write(async ({ sql: db, kind, run }, { outcomes }: { outcomes: AttemptOutcome[] }): Promise<void> => {
    const attempts = outcomes.map(
      (o): NewAttempt => ({
        delivery: o.deliveryId,
        number: o.number,
        at: new Date(o.at),
        durationMs: o.durationMs,
        statusCode: o.statusCode,
        error: o.error,
        responseExcerpt: o.responseExcerpt,
        requestHeaders: o.requestHeaders ?? null,
        responseHeaders: o.responseHeaders ?? null,
      }),
    );
    for (const list of inBatches(attempts, INSERT_ROWS[kind])) await run(INSERT_ATTEMPTS, { attempts: list });
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
      const at = new Date(group.reduce((latest, o) => Math.max(latest, o.at.getTime()), 0));
      const { number: attempts, statusCode } = group[0]!;
      await run(MARK_SUCCEEDED, { ids: group.map((o) => o.deliveryId), attempts, statusCode, at });
    }
    for (const o of outcomes) {
      if (o.next.status === 'succeeded') continue;
      const common = { attempts: o.number, lastStatusCode: o.statusCode, lastError: o.error, lastAttemptAt: new Date(o.at) };
      if (o.next.status === 'pending') {
        await db
          .updateTable('WebhookDelivery')
          .set({ ...common, status: 'pending', nextAttemptAt: new Date(o.next.at) })
          .where('id', '=', o.deliveryId)
          .execute();
        continue;
      }
      await db
        .updateTable('WebhookDelivery')
        .set({ ...common, status: 'failed' })
        .where('id', '=', o.deliveryId)
        .execute();
      if (o.next.disableDestination) {
        await db
          .updateTable('WebhookDestination')
          .set({ status: 'disabled', disabledReason: o.next.disableDestination, updatedAt: new Date(o.at) })
          .where('id', '=', o.destinationId)
          .execute();
        // Other processes' caches and lanes learn of it through the change epoch.
        await db
          .updateTable('ChangeEpoch')
          .set((eb) => ({ value: eb('value', '+', 1) }))
          .where('id', '=', 1)
          .execute();
      }
    }
  }),

  /** Keeps the newest `keep` finished deliveries of each destination; waiting ones are never trimmed. */
  trim: write(async ({ sql: db }, { keep }: { keep: [destinationId: string, count: number][] }): Promise<void> => {
    for (const [destinationId, count] of keep) {
      // The oldest delivery kept; everything finished before it goes.
      const edge = await db
        .selectFrom('WebhookDelivery')
        .select(['createdAt', 'id'])
        .where('destination', '=', destinationId)
        .where('status', '<>', 'pending')
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .offset(count - 1)
        .executeTakeFirst();
      if (!edge) continue;
      // Their attempts go with them: the foreign key cascades.
      await db
        .deleteFrom('WebhookDelivery')
        .where('destination', '=', destinationId)
        .where('status', '<>', 'pending')
        .where((eb) =>
          eb.or([eb('createdAt', '<', edge.createdAt), eb.and([eb('createdAt', '=', edge.createdAt), eb('id', '<', edge.id)])]),
        )
        .execute();
    }
  }),
} satisfies Record<string, ScriptDefinition<never, unknown>>;

export type DeliveryScripts = typeof DELIVERY_SCRIPTS;
export type ScriptName = keyof DeliveryScripts;
export type ScriptArgs<N extends ScriptName> = Parameters<DeliveryScripts[N]['run']>[1];
export type ScriptResult<N extends ScriptName> = Awaited<ReturnType<DeliveryScripts[N]['run']>>;

/** The definition of the script `name`: what every runner carries out. */
export const scriptNamed = <N extends ScriptName>(name: N): ScriptDefinition<ScriptArgs<N>, ScriptResult<N>> =>
  DELIVERY_SCRIPTS[name] as unknown as ScriptDefinition<ScriptArgs<N>, ScriptResult<N>>;

/** Whether the script `name` writes (runs in a transaction). */
export const writes = (name: ScriptName): boolean => transactional(DELIVERY_SCRIPTS[name].mode);

/**
 * Whether the script `name` may run on the caller's own connection while a runner's thread is
 * stopped: a probe (a few index entries read, asked often while idle) or a brief write.
 */
export const runsOnCaller = (name: ScriptName): boolean => {
  const { mode } = DELIVERY_SCRIPTS[name];
  return mode === 'probe' || mode === 'brief-write';
};
