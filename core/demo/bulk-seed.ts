import type { AbstractSqlConnection, Knex } from '@mikro-orm/knex';
import { randomInt } from 'node:crypto';
import type { Core } from '../core.ts';
import type { DatabaseKind } from '../db/orm.ts';
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
  const knex = (core.db.em.getConnection() as AbstractSqlConnection).getKnex();
  const value = dialectValues(kind);
  const progress: BulkSeedProgress = { needs: 0, events: 0, totalNeeds: needs, totalEvents: events };

  await knex.transaction(async (trx) => {
    await insert(
      trx,
      'organizations',
      ORGANIZATION_COLUMNS,
      BULK_ORGANIZATIONS.map((o) => organizationRow(o, value, now)),
      'on conflict (id) do nothing',
    );
    await trx.raw('update change_epoch set value = value + 1 where id = 1');
  });
  await refuseHiddenOrganizations(knex, value);

  const report = (rows: 'needs' | 'events') => (done: number) => {
    progress[rows] = done;
    options.onProgress?.({ ...progress });
  };
  const needTimes = needTimeLine(random, now, needs);
  const eventTimes = eventTimeLine(random, now, events);
  await withLargeCache(knex, kind, async () => {
    await insertInBatches(knex, 'needs', NEED_COLUMNS, needs, () => needRow(bulkNeed(random, needTimes.next()), value), report('needs'));
    await insertInBatches(
      knex,
      'events',
      EVENT_COLUMNS,
      events,
      () => eventRow(bulkEvent(random, eventTimes.next(), now), value, now),
      report('events'),
    );
  });
  // Fresh statistics, so the planner costs the feed indexes for the new size at once rather than
  // after autovacuum's next pass. (SQLite plans without statistics; none are kept here.)
  if (kind === 'postgresql') await knex.raw('analyze organizations, needs, events');
  core.feed.changed();
  return { organizations: BULK_ORGANIZATIONS.map((o) => o.id), needs, events, seconds: (performance.now() - started) / 1000 };
}

function checkCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > BULK_SEED_LIMIT) {
    throw invalidInput(name, `${name} must be an integer from 0 to ${BULK_SEED_LIMIT.toLocaleString('en-US')}`);
  }
  return value;
}

/** How each database takes booleans and datetimes (SQLite: 0/1 and epoch ms, as the ORM stores them). */
interface DialectValues {
  bool(value: boolean): boolean | number;
  date(ms: number | null): string | number | null;
}

function dialectValues(kind: DatabaseKind): DialectValues {
  if (kind === 'postgresql') return { bool: (b) => b, date: (ms) => (ms === null ? null : new Date(ms).toISOString()) };
  return { bool: (b) => (b ? 1 : 0), date: (ms) => ms };
}

const ORGANIZATION_COLUMNS = [
  'id',
  'name',
  'plan',
  'listed',
  'demo',
  'complete',
  'description',
  'website',
  'sectors',
  'capabilities',
  'networks',
  'city',
  'region',
  'country',
  'created_at',
  'updated_at',
];

function organizationRow(o: (typeof BULK_ORGANIZATIONS)[number], v: DialectValues, now: number): unknown[] {
  const { listed, complete, demo } = DISCOVERABLE_ORGANIZATION_FILTER;
  const since = v.date(now - 800 * 24 * 3600_000);
  return [
    o.id,
    o.name,
    o.plan,
    v.bool(listed),
    v.bool(demo),
    v.bool(complete),
    o.description,
    `https://${o.id.slice('scale-'.length)}.example`,
    JSON.stringify(o.sectors),
    JSON.stringify(o.capabilities),
    '[]',
    o.city,
    o.region,
    o.country,
    since,
    since,
  ];
}

/** A generated organization that already existed and is hidden would hide or mislabel the rows. */
async function refuseHiddenOrganizations(knex: Knex, v: DialectValues): Promise<void> {
  const ids = BULK_ORGANIZATIONS.map((o) => o.id);
  const hidden = (await knex('organizations')
    .whereIn('id', ids)
    .andWhere((q) => q.where('demo', v.bool(true)).orWhere('listed', v.bool(false)).orWhere('complete', v.bool(false)))
    .select('id')) as { id: string }[];
  if (hidden.length > 0) {
    throw invalidInput(
      'needs',
      `The generated organizations ${hidden.map((h) => `'${h.id}'`).join(', ')} exist but are demonstration, unlisted or incomplete`,
    );
  }
}

const NEED_COLUMNS = [
  'id',
  'organization_id',
  'title',
  'description',
  'required_expertise',
  'remote_allowed',
  'city',
  'region',
  'country',
  'deadline',
  'state',
  'discreet',
  'demo',
  'version',
  'published_at',
  'created_at',
  'updated_at',
];

function needRow(n: BulkNeed, v: DialectValues): unknown[] {
  const published = v.date(n.publishedAt);
  // Version 1: published once, its `need.created` long delivered (see bulkSeed).
  return [
    n.id,
    n.organizationId,
    n.title,
    n.description,
    JSON.stringify(n.requiredExpertise),
    v.bool(n.remoteAllowed),
    n.city,
    n.region,
    n.country,
    v.date(n.deadline),
    PUBLIC_NEED_FILTER.state,
    v.bool(false),
    v.bool(PUBLIC_NEED_FILTER.demo),
    1,
    published,
    published,
    published,
  ];
}

const EVENT_COLUMNS = [
  'id',
  'host_id',
  'title',
  'description',
  'starts_at',
  'ends_at',
  'timezone',
  'online',
  'city',
  'region',
  'country',
  'status',
  'demo',
  'version',
  'created_at',
  'updated_at',
];

function eventRow(e: BulkEvent, v: DialectValues, now: number): unknown[] {
  const created = v.date(Math.min(e.createdAt, now));
  return [
    e.id,
    e.hostId,
    e.title,
    e.description,
    v.date(e.startsAt),
    v.date(e.endsAt),
    e.timezone,
    v.bool(e.online),
    e.city,
    e.region,
    e.country,
    PUBLIC_EVENT_FILTER.status,
    v.bool(PUBLIC_EVENT_FILTER.demo),
    1,
    created,
    created,
  ];
}

/**
 * Random ids land all over the primary-key index: with SQLite's default 2 MB page cache, every
 * batch rereads and rewrites the same pages. The connection gets 256 MB while seeding, then its
 * own size back.
 */
async function withLargeCache(knex: Knex, kind: DatabaseKind, work: () => Promise<void>): Promise<void> {
  if (kind !== 'sqlite') return work();
  const [row] = (await knex.raw('pragma cache_size')) as { cache_size: number }[];
  await knex.raw('pragma cache_size = -262144');
  try {
    await work();
  } finally {
    await knex.raw(`pragma cache_size = ${Number(row?.cache_size ?? -2000)}`);
  }
}

async function insert(trx: Knex.Transaction, table: string, columns: string[], rows: unknown[][], suffix = ''): Promise<void> {
  if (rows.length === 0) return;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const sql = `insert into ${table} (${columns.join(', ')}) values ${rows.map(() => tuple).join(', ')} ${suffix}`;
  await trx.raw(sql, rows.flat() as Knex.ValueDict[keyof Knex.ValueDict][]);
}

/** Generates and inserts `total` rows, ROWS_PER_STATEMENT per INSERT, STATEMENTS_PER_TRANSACTION per commit. */
async function insertInBatches(
  knex: Knex,
  table: string,
  columns: string[],
  total: number,
  row: () => unknown[],
  committed: (done: number) => void,
) {
  let done = 0;
  while (done < total) {
    const inTransaction = Math.min(total - done, ROWS_PER_STATEMENT * STATEMENTS_PER_TRANSACTION);
    await knex.transaction(async (trx) => {
      for (let written = 0; written < inTransaction; written += ROWS_PER_STATEMENT) {
        const count = Math.min(ROWS_PER_STATEMENT, inTransaction - written);
        await insert(trx, table, columns, Array.from({ length: count }, row));
      }
      await trx.raw('update change_epoch set value = value + 1 where id = 1');
    });
    done += inTransaction;
    committed(done);
  }
}
