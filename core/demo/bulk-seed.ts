import { sql, type Insertable } from 'kysely';
import { randomInt } from 'node:crypto';
import type { Core } from '../composition-root.ts';
import type { DatabaseKind } from '../db/orm.ts';
import { sqlOf, type DB, type Sql } from '../db/sql.ts';
import { invalidInput } from '../errors.ts';
import { DISCOVERABLE_ORGANIZATION_FILTER, PUBLIC_EVENT_FILTER, PUBLIC_NEED_FILTER } from '../visibility.ts';
import {
  BULK_ORGANIZATIONS,
  bulkEvent,
  bulkNeed,
  eventTimeLine,
  needTimeLine,
  randomSource,
  type BulkEvent,
  type BulkNeed,
} from './bulk-data.ts';

/** Most rows of one kind a single run may write. */
export const BULK_SEED_LIMIT = 5_000_000;

/** Rows per INSERT: 500 × 17 bound values stays far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_STATEMENT = 500;
/** Statements per transaction: each commit is one write lock (SQLite) and one change-epoch bump. */
const STATEMENTS_PER_TRANSACTION = 40;

export interface BulkSeedProgress {
  needs: number;
  events: number;
  totalNeeds: number;
  totalEvents: number;
}

export interface BulkSeedOptions {
  needs: number;
  events: number;
  /** @default new Date() */
  now?: Date;
  /** Seed of the content generator (ids stay random). @default random */
  seed?: number;
  /** Called after each committed transaction. */
  onProgress?: (progress: BulkSeedProgress) => void;
}

export interface BulkSeedResult {
  organizations: string[];
  needs: number;
  events: number;
  seconds: number;
}

/**
 * Writes `needs` public needs and `events` upcoming public events of a few generated organizations,
 * fast: multi-row INSERTs in batched transactions straight into the tables the entities map.
 *
 * The rows are written as already-published history: no outbox row is recorded, so no webhook
 * is sent for them (a million `need.created` signals would bury every destination's lane). Each
 * transaction bumps the change epoch, so running servers drop their caches and see the rows.
 * On PostgreSQL the three tables are analyzed at the end. Nothing private is written: no
 * billing e-mail, internal notes or host contact fields.
 */
export async function bulkSeed(core: Core, kind: DatabaseKind, options: BulkSeedOptions): Promise<BulkSeedResult> {
  const needs = checkCount('needs', options.needs);
  const events = checkCount('events', options.events);
  const started = performance.now();
  const now = (options.now ?? new Date()).getTime();
  const random = randomSource(options.seed ?? randomInt(2 ** 32));
  const em = core.db.em.fork();
  const progress: BulkSeedProgress = { needs: 0, events: 0, totalNeeds: needs, totalEvents: events };

  await sqlOf(em)
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('Organization')
        .values(BULK_ORGANIZATIONS.map((o) => organizationRow(o, now)))
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      await bumpEpoch(trx);
    });
  await refuseHiddenOrganizations(sqlOf(em));

  const report = (rows: 'needs' | 'events') => (done: number) => {
    progress[rows] = done;
    options.onProgress?.({ ...progress });
  };
  const needTimes = needTimeLine(random, now, needs);
  const eventTimes = eventTimeLine(random, now, events);
  await withLargeCache(sqlOf(em), kind, async () => {
    await insertInBatches(sqlOf(em), needs, report('needs'), (trx, count) =>
      trx
        .insertInto('Need')
        .values(Array.from({ length: count }, () => needRow(bulkNeed(random, needTimes.next()))))
        .execute(),
    );
    await insertInBatches(sqlOf(em), events, report('events'), (trx, count) =>
      trx
        .insertInto('Event')
        .values(Array.from({ length: count }, () => eventRow(bulkEvent(random, eventTimes.next(), now), now)))
        .execute(),
    );
  });
  // Fresh statistics, so the planner costs the feed indexes for the new size at once rather than
  // after autovacuum's next pass. (SQLite plans without statistics; none are kept here.)
  if (kind === 'postgresql') await sql`analyze organizations, needs, events`.execute(sqlOf(em));
  core.feed.changed();
  return { organizations: BULK_ORGANIZATIONS.map((o) => o.id), needs, events, seconds: (performance.now() - started) / 1000 };
}

function checkCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > BULK_SEED_LIMIT) {
    throw invalidInput(name, `${name} must be an integer from 0 to ${BULK_SEED_LIMIT.toLocaleString('en-US')}`);
  }
  return value;
}

function organizationRow(o: (typeof BULK_ORGANIZATIONS)[number], now: number) {
  const since = new Date(now - 800 * 24 * 3600_000);
  return {
    ...DISCOVERABLE_ORGANIZATION_FILTER,
    id: o.id,
    name: o.name,
    plan: o.plan,
    description: o.description,
    website: `https://${o.id.slice('scale-'.length)}.example`,
    sectors: o.sectors,
    capabilities: o.capabilities,
    networks: [],
    city: o.city,
    region: o.region,
    country: o.country,
    createdAt: since,
    updatedAt: since,
  } satisfies Insertable<DB['Organization']>;
}

/** A generated organization that already existed and is hidden would hide or mislabel the rows. */
async function refuseHiddenOrganizations(db: Sql): Promise<void> {
  const hidden = await db
    .selectFrom('Organization')
    .select('id')
    .where(
      'id',
      'in',
      BULK_ORGANIZATIONS.map((o) => o.id),
    )
    .where((w) => w.or([w('demo', '=', true), w('listed', '=', false), w('complete', '=', false)]))
    .execute();
  if (hidden.length > 0) {
    throw invalidInput(
      'needs',
      `The generated organizations ${hidden.map((h) => `'${h.id}'`).join(', ')} exist but are demonstration, unlisted or incomplete`,
    );
  }
}

function needRow(n: BulkNeed) {
  const published = new Date(n.publishedAt);
  // Version 1: published once, its `need.created` long delivered (see bulkSeed).
  return {
    ...PUBLIC_NEED_FILTER,
    id: n.id,
    organization: n.organizationId,
    title: n.title,
    description: n.description,
    requiredExpertise: n.requiredExpertise,
    remoteAllowed: n.remoteAllowed,
    city: n.city,
    region: n.region,
    country: n.country,
    deadline: n.deadline === null ? null : new Date(n.deadline),
    discreet: false,
    version: 1,
    publishedAt: published,
    createdAt: published,
    updatedAt: published,
  } satisfies Insertable<DB['Need']>;
}

function eventRow(e: BulkEvent, now: number) {
  const created = new Date(Math.min(e.createdAt, now));
  return {
    ...PUBLIC_EVENT_FILTER,
    id: e.id,
    host: e.hostId,
    title: e.title,
    description: e.description,
    startsAt: new Date(e.startsAt),
    endsAt: new Date(e.endsAt),
    timezone: e.timezone,
    online: e.online,
    city: e.city,
    region: e.region,
    country: e.country,
    version: 1,
    createdAt: created,
    updatedAt: created,
  } satisfies Insertable<DB['Event']>;
}

/** Running servers drop their caches and see the rows. */
const bumpEpoch = (db: Sql) =>
  db
    .updateTable('ChangeEpoch')
    .set((set) => ({ value: set('value', '+', 1) }))
    .where('id', '=', 1)
    .execute();

/**
 * Random ids land all over the primary-key index: with SQLite's default 2 MB page cache, every
 * batch rereads and rewrites the same pages. The connection gets 256 MB while seeding, then its
 * own size back.
 */
async function withLargeCache(db: Sql, kind: DatabaseKind, work: () => Promise<void>): Promise<void> {
  if (kind !== 'sqlite') return work();
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  await sql`pragma cache_size = -262144`.execute(db);
  try {
    await work();
  } finally {
    await sql.raw(`pragma cache_size = ${Number(rows[0]?.cache_size ?? -2000)}`).execute(db);
  }
}

/** Inserts `total` rows, ROWS_PER_STATEMENT per INSERT, STATEMENTS_PER_TRANSACTION per commit. */
async function insertInBatches(
  db: Sql,
  total: number,
  committed: (done: number) => void,
  insert: (trx: Sql, count: number) => Promise<unknown>,
) {
  let done = 0;
  while (done < total) {
    const inTransaction = Math.min(total - done, ROWS_PER_STATEMENT * STATEMENTS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      for (let written = 0; written < inTransaction; written += ROWS_PER_STATEMENT) {
        await insert(trx, Math.min(ROWS_PER_STATEMENT, inTransaction - written));
      }
      await bumpEpoch(trx);
    });
    done += inTransaction;
    committed(done);
  }
}
