// The dispatcher's statements on its hot path, compiled once per runner (core/db/statement-compiler.ts)
// and run by its scripts (delivery-scripts.ts, lane-scripts.ts): a fan-out writes a delivery per
// destination, each lane reads its waiting deliveries and writes an attempt per send, and the
// dispatcher looks at the outbox and the lanes' queues many times a second. Building and compiling
// these queries each time cost the dispatcher's database thread a third of its time. Built each
// time, the outbox look (every 25 ms) still took 5 % of that thread's time in a webhook backlog,
// and with the scan of the lanes' queues (every second) about a quarter of an idle server's CPU
// (docs/benchmarks.md).
import { type Expression, type Insertable, type Selectable, sql } from 'kysely';
import { batch, prepared } from '../db/statement-compiler.ts';
import type { DB, Sql } from '../db/sql.ts';

/** The outbox rows waiting for their fan-out, in sequence order. */
const waitingOutbox = (db: Sql) => db.selectFrom('OutboxEvent').where('fannedOutAt', 'is', null).orderBy('seq');

/** The first outbox row waiting for its fan-out, if any: a read of one index entry. */
export const OUTBOX_WAITING = prepared<Record<string, never>, { seq: number }>('outbox_waiting', (db) =>
  waitingOutbox(db).select('seq').limit(1),
);

const OUTBOX_FIELDS = ['seq', 'eventId', 'type', 'organizationId', 'deliverable'] as const;

/** The outbox rows waiting for their fan-out, in order, at most `limit`. */
export const OUTBOX_ROWS = prepared<{ limit: number }, Pick<Selectable<DB['OutboxEvent']>, (typeof OUTBOX_FIELDS)[number]>>(
  'outbox_rows',
  (db, { p }) => waitingOutbox(db).select(OUTBOX_FIELDS).limit(p.limit),
);

/** The destinations a fan-out writes deliveries for. */
export const ACTIVE_DESTINATIONS = prepared<
  Record<string, never>,
  Pick<Selectable<DB['WebhookDestination']>, 'id' | 'organization' | 'kinds' | 'scope' | 'sinceSeq'>
>('active_destinations', (db) =>
  db.selectFrom('WebhookDestination').select(['id', 'organization', 'kinds', 'scope', 'sinceSeq']).where('status', '=', 'active'),
);

/** One active destination, if there is any: whether the outbox's rows have anyone to go to. */
export const ANY_ACTIVE_DESTINATION = prepared<Record<string, never>, { id: string }>('any_active_destination', (db) =>
  db.selectFrom('WebhookDestination').select('id').where('status', '=', 'active').limit(1),
);

/** Active destinations that have deliveries waiting: one index probe per destination (the lane index). */
export const DESTINATIONS_WITH_WORK = prepared<Record<string, never>, { id: string }>('destinations_with_work', (db) =>
  db
    .selectFrom('WebhookDestination as w')
    .select('w.id')
    .where('w.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb.selectFrom('WebhookDelivery as d').select('d.id').whereRef('d.destination', '=', 'w.id').where('d.status', '=', 'pending'),
      ),
    ),
);

/** What differs between the deliveries a fan-out writes: one outbox row to one destination. */
const DELIVERY_FIELDS = ['id', 'destination', 'organizationId', 'seq', 'eventId', 'type'] as const;
export type NewDelivery = Required<Pick<Insertable<DB['WebhookDelivery']>, (typeof DELIVERY_FIELDS)[number]>>;

/** Deliveries of fanned-out outbox rows, waiting from `now`. */
export const INSERT_DELIVERIES = batch<{ deliveries: readonly NewDelivery[]; now: Date }>(
  'insert_deliveries',
  'deliveries',
  (db, { items, p }) =>
    db.insertInto('WebhookDelivery').values(
      items('deliveries', DELIVERY_FIELDS).map((d) => ({
        ...d,
        // The envelope stays in the outbox row: JSON null here, built again from `seq` when sent.
        envelope: sql<null>`'null'`,
        test: false,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: p.now,
        createdAt: p.now,
      })),
    ),
);

/** An attempt as written: what was sent and what came back (its id is generated). */
const ATTEMPT_FIELDS = [
  'delivery',
  'number',
  'at',
  'durationMs',
  'statusCode',
  'error',
  'responseExcerpt',
  'requestHeaders',
  'responseHeaders',
] as const;
export type NewAttempt = Required<Pick<Insertable<DB['DeliveryAttempt']>, (typeof ATTEMPT_FIELDS)[number]>>;

export const INSERT_ATTEMPTS = batch<{ attempts: readonly NewAttempt[] }>('insert_attempts', 'attempts', (db, { items }) =>
  db.insertInto('DeliveryAttempt').values(items('attempts', ATTEMPT_FIELDS)),
);

/** Deliveries `ids` succeeded at `at` on attempt `attempts`. */
export const MARK_SUCCEEDED = prepared<{ ids: readonly string[]; attempts: number; statusCode: number | null; at: Date }, never>(
  'mark_succeeded',
  (db, { p, idTable }) =>
    db
      .updateTable('WebhookDelivery')
      .set({
        status: 'succeeded',
        attempts: p.attempts,
        lastStatusCode: p.statusCode,
        lastError: null,
        lastAttemptAt: p.at,
        deliveredAt: p.at,
      })
      .where('id', 'in', (eb) => eb.selectFrom(idTable('ids').as('j')).select('j.value')),
);

const PENDING_FIELDS = ['id', 'seq', 'eventId', 'envelope', 'test', 'attempts', 'nextAttemptAt', 'createdAt'] as const;
export type PendingRow = Pick<Selectable<DB['WebhookDelivery']>, (typeof PENDING_FIELDS)[number]>;

/** A lane's waiting deliveries in order: outbox sequence, then creation. */
const lane = (db: Sql, destination: Expression<string>) =>
  db.selectFrom('WebhookDelivery').select(PENDING_FIELDS).where('destination', '=', destination).where('status', '=', 'pending');

export const PENDING_FIRST = prepared<{ destinationId: string; limit: number }, PendingRow>('pending_first', (db, { p }) =>
  lane(db, p.destinationId).orderBy('seq').orderBy('createdAt').orderBy('id').limit(p.limit),
);

/** The same, after the delivery keyed (`seq`, `createdAt`, `id`). */
export const PENDING_AFTER = prepared<{ destinationId: string; limit: number; seq: number; createdAt: Date; id: string }, PendingRow>(
  'pending_after',
  (db, { p }) =>
    lane(db, p.destinationId)
      .where((eb) => eb(eb.refTuple('seq', 'createdAt', 'id'), '>', eb.tuple(p.seq, p.createdAt, p.id)))
      .orderBy('seq')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(p.limit),
);
