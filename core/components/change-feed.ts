import type { EntityManager } from '@mikro-orm/sql';
import { raw } from '@mikro-orm/core';
import { ChangeEntity, ChangeEpochEntity, type Change } from '../entities/index.ts';
import { sqlOf } from '../db/sql.ts';
import type { Database } from '../db/orm.ts';
import type { PreparedStatements } from '../db/prepared.ts';
import { prepared } from '../db/statement-compiler.ts';

export const CHANGE_KINDS = ['need', 'event', 'organization', 'api_key', 'destination', 'delivery'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
/** The public lists a change can show in or be embedded by. */
export type PublicList = 'opportunities' | 'events';

/** What one change touched: a resource, and the public lists that show or embed it. */
export interface Touched {
  kind: ChangeKind;
  id: string;
  lists: readonly PublicList[];
}

/** A change recorded in a transaction; its row's sequence number is known once committed. */
export interface RecordedChange extends Touched {
  readonly row?: { seq?: number };
}

/** What listeners hear: `all` when everything may have changed (bulk loads, a feed that fell behind). */
export interface ChangeNotice {
  all: boolean;
  changes: readonly Touched[];
}

/** Cache tags: one resource, every resource of a kind, and one public list. */
export const resourceTag = (kind: ChangeKind, id: string) => `${kind}:${id}`;
export const kindTag = (kind: ChangeKind) => `${kind}:*`;
export const listTag = (list: PublicList) => `list:${list}`;

const tagsOf = (change: Touched) => [resourceTag(change.kind, change.id), kindTag(change.kind), ...change.lists.map(listTag)];

/**
 * Records, inside the caller's transaction, what the change touched. Call `feed.changed([change])`
 * with the result once the transaction committed.
 */
export function recordChange(em: EntityManager, touched: Touched): RecordedChange {
  const row = em.create(ChangeEntity, { kind: touched.kind, resourceId: touched.id, lists: touched.lists.join(','), at: new Date() });
  return { kind: touched.kind, id: touched.id, lists: touched.lists, row };
}

/**
 * Records, inside the caller's transaction, that anything may have changed (bulk work that does
 * not say what it touched): every cache of every process retires everything.
 */
export async function bumpChangeEpoch(em: EntityManager): Promise<void> {
  await em.nativeUpdate(ChangeEpochEntity, { id: 1 }, { value: raw('value + 1') });
}

/**
 * Takes the outbox's row lock for the rest of the transaction (a counter row of its own, which
 * no cache watches): outbox writers take it before their insert and readers of the outbox's last
 * sequence number before reading it, so no writer can commit a lower number after that read.
 */
export async function lockOutbox(em: EntityManager): Promise<void> {
  await em.nativeUpdate(ChangeEpochEntity, { id: OUTBOX_LOCK }, { value: raw('value + 1') });
}

/** The `change_epoch` rows: 1 retires every cache when it moves; 2 is the outbox lock. */
export const EPOCH = 1;
export const OUTBOX_LOCK = 2;

/** Carries committed changes between processes at once (Redis pub/sub); the database feed stays the fallback. */
export interface ChangeBus {
  publish(changes: readonly { seq: number | undefined; kind: ChangeKind; id: string; lists: readonly PublicList[] }[]): void;
  subscribe(receive: (changes: { seq: number | undefined; kind: ChangeKind; id: string; lists: PublicList[] }[]) => void): void;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** How often the database feed is read. @default 100 */
  intervalMs?: number;
  /** How long change rows are kept before any process prunes them. @default 600_000 */
  keepMs?: number;
}

/** Rows read per poll; more waiting means this process fell far behind: it retires everything. */
const POLL_ROWS = 1_000;
/** Tags whose versions are kept; past it they are forgotten, which retires every entry once. */
const MAX_TAGS = 100_000;
/** How long a missing sequence number (a transaction still open elsewhere, or rolled back) is looked for. */
const GAP_MS = 10_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * Tells this process what changed behind its caches: at once for changes it made itself (and,
 * with a bus, for those of other processes), within one poll of the `changes` table otherwise.
 *
 * Caches tag each entry with what it shows (`need:<id>`, `list:opportunities`, ...) and the tags'
 * versions when it was computed; a change bumps only the tags it touched, so it retires only the
 * entries that show it. `changed()` with no argument, or a bump of the shared epoch by bulk
 * work, retires everything.
 */
export class ChangeFeed {
  /** Increases with every notice, whatever it touched. */
  version = 0;
  /** Increases when everything is retired. */
  generation = 0;
  private counter = 0;
  private floor = 0;
  private readonly tags = new Map<string, number>();
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  private readonly seen = new Set<number>();
  private readonly gaps = new Map<number, number>();
  private lastSeq: number | undefined;
  private lastEpoch: number | undefined;
  private lastPollAt = 0;
  private lastPruneAt = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The poll in flight: `stop()` waits for it, so the database is not closed under it. */
  private polling: Promise<void> | undefined;
  private bus: ChangeBus | undefined;
  private readonly intervalMs: number;
  private readonly keepMs: number;

  private readonly db: Database;
  /** The poll's two reads, compiled once: built on every poll, they took about a third of an idle server's CPU. */
  private readonly statements: PreparedStatements;

  constructor(db: Database, statements: PreparedStatements, { intervalMs = 100, keepMs = 600_000 }: ChangeFeedOptions = {}) {
    this.db = db;
    this.statements = statements;
    this.intervalMs = intervalMs;
    this.keepMs = keepMs;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops polling; resolves once the poll in flight, if any, is over. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** Publishes this process's changes on the bus and applies those of others as they arrive. */
  attachBus(bus: ChangeBus): void {
    this.bus = bus;
    bus.subscribe((changes) => {
      const fresh = changes.filter((c) => c.seq === undefined || !this.markSeen(c.seq));
      if (fresh.length > 0) this.notify(fresh);
    });
  }

  /**
   * Call after committing a change made in this process, with what it touched; with no
   * argument, everything is retired.
   */
  changed(changes?: readonly RecordedChange[]): void {
    if (changes === undefined) {
      this.notify(undefined);
      return;
    }
    for (const change of changes) if (change.row?.seq !== undefined) this.markSeen(change.row.seq);
    this.notify(changes);
    this.bus?.publish(changes.map((c) => ({ seq: c.row?.seq, kind: c.kind, id: c.id, lists: c.lists })));
  }

  onChange(listener: (notice: ChangeNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The counter's value now: a tag whose stamp is above it changed since. */
  mark(): number {
    return this.counter;
  }

  /** The tag's version: the counter's value when a change last touched it. */
  stamp(tag: string): number {
    return this.tags.get(tag) ?? this.floor;
  }

  /**
   * Reads the changes other processes committed since the last poll (a call while a poll runs gets
   * that poll); exposed so tests and start-up need not wait.
   */
  poll(): Promise<void> {
    this.polling ??= this.read().then(
      () => {
        this.polling = undefined;
      },
      () => {
        // The database is unreachable: caches keep serving; the next poll retries.
        this.polling = undefined;
      },
    );
    return this.polling;
  }

  private async read(): Promise<void> {
    const now = Date.now();
    const [epochRow] = await this.statements.allAtOnce(EPOCH_VALUE, {});
    const epoch = Number(epochRow?.value ?? 0);
    if (this.lastSeq === undefined) {
      const top = await sqlOf(this.db.em.fork())
        .selectFrom('Change')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      this.lastSeq = Number(top?.seq ?? 0);
      this.lastEpoch = epoch;
      this.lastPollAt = now;
      return;
    }
    const rows = await this.statements.allAtOnce(CHANGES_AFTER, { seq: this.lastSeq });
    const late = this.gaps.size > 0 ? await this.lateRows(now) : [];
    const behind = now - this.lastPollAt > this.keepMs / 2 || rows.length === POLL_ROWS || epoch !== this.lastEpoch;
    this.lastPollAt = now;
    this.lastEpoch = epoch;
    let expected = this.lastSeq + 1;
    const fresh: Touched[] = [];
    for (const row of [...late, ...rows]) {
      const seq = Number(row.seq);
      const applied = this.seen.has(seq);
      if (seq > this.lastSeq) {
        for (let missing = expected; missing < seq && this.gaps.size < POLL_ROWS; missing++) this.gaps.set(missing, now);
        expected = seq + 1;
        this.lastSeq = seq;
      }
      this.gaps.delete(seq);
      if (applied) continue;
      fresh.push({ kind: row.kind as ChangeKind, id: row.resourceId, lists: row.lists ? (row.lists.split(',') as PublicList[]) : [] });
    }
    for (const seq of this.seen) if (seq <= this.lastSeq && !this.gaps.has(seq)) this.seen.delete(seq);
    if (behind) this.notify(undefined);
    else if (fresh.length > 0) this.notify(fresh);
    if (now - this.lastPruneAt > PRUNE_EVERY_MS) {
      this.lastPruneAt = now;
      await this.db.em.fork().nativeDelete(ChangeEntity, { at: { $lt: new Date(now - this.keepMs) } });
    }
  }

  /** Rows of sequence numbers skipped earlier: transactions that committed after later ones. */
  private async lateRows(now: number): Promise<ChangeRow[]> {
    for (const [seq, since] of this.gaps) if (now - since > GAP_MS) this.gaps.delete(seq);
    if (this.gaps.size === 0) return [];
    return sqlOf(this.db.em.fork())
      .selectFrom('Change')
      .select(CHANGE_ROW)
      .where('seq', 'in', [...this.gaps.keys()])
      .execute();
  }

  /** True when the sequence number was applied already. */
  private markSeen(seq: number): boolean {
    if (this.seen.has(seq)) return true;
    if (this.lastSeq !== undefined && seq <= this.lastSeq && !this.gaps.has(seq)) return true;
    this.seen.add(seq);
    return false;
  }

  private notify(changes: readonly Touched[] | undefined): void {
    this.version++;
    this.counter++;
    if (changes === undefined) {
      this.generation++;
      this.floor = this.counter;
      this.tags.clear();
    } else {
      if (this.tags.size > MAX_TAGS) {
        this.floor = this.counter;
        this.tags.clear();
      }
      for (const change of changes) for (const tag of tagsOf(change)) this.tags.set(tag, this.counter);
    }
    const notice: ChangeNotice = { all: changes === undefined, changes: changes ?? [] };
    for (const listener of this.listeners) listener(notice);
  }
}

/** What the feed reads of a change row. */
const CHANGE_ROW = ['seq', 'kind', 'resourceId', 'lists'] as const;
type ChangeRow = Pick<Change, (typeof CHANGE_ROW)[number]>;

/** The shared epoch: bulk work moves it to retire every cache. */
const EPOCH_VALUE = prepared<Record<string, never>, { value: number }>('change_epoch', (db) =>
  db.selectFrom('ChangeEpoch').select('value').where('id', '=', EPOCH),
);

/** The changes committed after `seq`, in order, at most POLL_ROWS. */
const CHANGES_AFTER = prepared<{ seq: number }, ChangeRow>('changes_after', (db, { p }) =>
  db.selectFrom('Change').select(CHANGE_ROW).where('seq', '>', p.seq).orderBy('seq').limit(POLL_ROWS),
);
