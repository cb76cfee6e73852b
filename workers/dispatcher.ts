import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { Agent } from 'undici';
import {
  FAN_OUT_DELIVERIES,
  type AttemptOutcome,
  type DeliveryStore,
  type LaneTarget,
  type PendingDelivery,
} from '../core/webhooks/delivery-store.ts';
import type { PreparedDelivery } from '../core/webhooks/envelope.ts';
import { recordSpan, tracingOn } from '../core/telemetry.ts';
import { RetryPolicy } from '../core/webhooks/retry-policy.ts';
import { isForbiddenAddress, type UrlPolicy } from '../core/webhooks/url-policy.ts';
import { Lane, type LanePort, type LaneSettings, type Route } from './lane.ts';
import { Ledger } from './ledger.ts';
import type { DeliveryPreparer } from './pool.ts';
import { PrepareBatcher } from './prepare-batcher.ts';
import { createSenderAgent, send, sendTarget, type SendResult } from './send.ts';

/** What the dispatcher reads of the change feed: on its own thread, the main thread's, relayed. */
export interface SettingsFeed {
  /** Bumped on every change (see ChangeFeed.version). */
  readonly version: number;
  onChange(listener: () => void): () => void;
}

/** What the dispatcher logs through: on its own thread, relayed to the main thread's logger. */
export interface DispatcherLog {
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface DispatcherOptions {
  store: DeliveryStore;
  preparer: DeliveryPreparer;
  feed: SettingsFeed;
  policy: UrlPolicy;
  log: DispatcherLog;
  /** Delay in seconds before each attempt; its length is the number of attempts. */
  retrySchedule: number[];
  /** How long a lane's lease lasts without renewal (WEBHOOK_LEASE_SECONDS). @default 10 */
  leaseSeconds?: number;
  /** Seen in lease columns; unique per process. @default '<host>:<pid>:<random>' */
  owner?: string;
  /** Called after each attempt (tests, metrics). */
  onAttempt?: (outcome: AttemptOutcome, delivery: PendingDelivery) => void;
}

/** How often the dispatcher looks at every destination's queue, beyond the ones it just filled. */
const SCAN_INTERVAL_MS = 1_000;
/** How often the outbox is looked at for signals written by other processes. */
const OUTBOX_WATCH_MS = 25;
/** Deliveries of the first fan-out chunk of a tick (later chunks: FAN_OUT_DELIVERIES). */
const FIRST_FAN_OUT_DELIVERIES = 250;
/** Longest a trim of retained deliveries waits for the lanes to be idle. */
const TRIM_DEFER_MS = 10_000;
const REFUSED: SendResult = {
  statusCode: null,
  error: 'refused: private or reserved address',
  responseExcerpt: null,
  retryAfterSeconds: null,
  durationMs: 0,
};

/**
 * Turns outbox rows into deliveries and runs one lane per destination it holds a lease on.
 * Leases live in the database: a dispatcher that dies loses them when they expire, and any
 * other (or the restarted one) takes the lanes over and sends what was not recorded as done.
 */
export class Dispatcher {
  private readonly store: DeliveryStore;
  /** Lanes re-read their destination's settings when it moves (a rotation, a disabling). */
  private readonly feed: SettingsFeed;
  private readonly log: DispatcherLog;
  private readonly ledger: Ledger;
  private readonly batcher: PrepareBatcher;
  /** All a lane sees of the dispatcher. */
  private readonly port: LanePort;
  private readonly owner: string;
  private readonly leaseMs: number;
  private readonly lanes = new Map<string, Lane>();
  private held = new Set<string>();
  private readonly agent: Agent;
  private readonly retry: RetryPolicy;
  private timer: NodeJS.Timeout | undefined;
  private watch: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private ticking: Promise<void> | undefined;
  /** The outbox watch's look in flight: `stop()` waits for it, so the database is not closed under it. */
  private watching: Promise<void> | undefined;
  private tickAgain = false;
  private lastRenew = 0;
  private lastScan = 0;
  private lastTrim = 0;
  private stamps: { version: number; ids: Set<string>; values: Promise<Map<string, string | null>> } | undefined;
  private targetBatch: { ids: Set<string>; values: Promise<Map<string, LaneTarget | null>> } | undefined;
  private stopped = true;
  private cutOff = false;

  private readonly options: DispatcherOptions;

  constructor(options: DispatcherOptions) {
    this.options = options;
    this.store = options.store;
    this.feed = options.feed;
    this.log = options.log;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = (options.leaseSeconds ?? 10) * 1000;
    this.ledger = new Ledger(options.store, (error) => this.log.error({ err: error }, 'could not record webhook attempts; will retry'));
    this.batcher = new PrepareBatcher(options.preparer);
    this.agent = createSenderAgent(options.policy);
    this.retry = new RetryPolicy(options.retrySchedule);
    this.port = {
      holds: (id) => this.holds(id),
      settingsVersion: () => this.feed.version,
      stamp: (id) => this.stamp(id),
      settings: (id) => this.settings(id),
      pending: (target, limit, after) => this.store.pending(target, limit, after),
      prepare: (jobs) => this.batcher.prepare(jobs),
      send: (route, prepared) => this.send(route, prepared),
      record: (delivery, target, result, at) => this.record(delivery, target, result, at),
      flush: () => this.ledger.flush(),
      failed: (id, error) => this.log.error({ err: error, destination: id }, 'webhook lane failed; retrying shortly'),
    };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.cutOff = false;
    this.unsubscribe = this.options.feed.onChange(() => this.tick());
    // Lease upkeep, lanes of dispatchers that died, and retries written by other processes.
    this.timer = setInterval(() => this.tick(), Math.min(1_000, this.leaseMs / 3));
    this.timer.unref();
    // Signals written by other processes (the CLI, other instances): a cheap look at the outbox,
    // more often than the change feed's poll.
    this.watch = setInterval(() => {
      if (this.ticking || this.watching) return;
      this.watching = this.store.outboxWaiting().then(
        (waiting) => {
          this.watching = undefined;
          if (waiting) this.tick();
        },
        () => {
          this.watching = undefined;
        },
      );
    }, OUTBOX_WATCH_MS);
    this.watch.unref();
    this.tick();
  }

  /** Stops taking work, lets attempts in flight finish (bounded), records them, releases the leases. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.timer);
    clearInterval(this.watch);
    const lanes = [...this.lanes.values()];
    const finished = await Promise.race([
      Promise.all([this.ticking, this.watching, ...lanes.map((lane) => lane.close())]).then(() => true),
      new Promise<boolean>((r) => setTimeout(r, graceMs, false).unref()),
    ]);
    this.cutOff = !finished;
    await this.ledger.flush().catch(() => undefined);
    if (this.held.size > 0)
      await this.store.release(this.owner).catch((error: unknown) => this.log.warn({ err: error }, 'could not release webhook leases'));
    this.held.clear();
    this.lanes.clear();
    // Past the grace, attempts still waiting for their receiver are cut rather than awaited.
    await (finished ? this.agent.close() : this.agent.destroy()).catch(() => undefined);
  }

  /** Fans out, claims and starts lanes; coalesces calls that arrive while one runs. */
  tick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = this.runTick()
      .catch((error: unknown) => this.log.warn({ err: error }, 'webhook dispatch tick failed; retrying'))
      .finally(() => {
        this.ticking = undefined;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.tick();
        }
      });
  }

  private holds(destinationId: string): boolean {
    return !this.stopped && this.held.has(destinationId);
  }

  /**
   * The stamp of a destination held here (see DeliveryStore.stamps): after a change the feed
   * reports, the stamps of every lane are read in one go, not one lane at a time.
   */
  private async stamp(destinationId: string): Promise<string | null> {
    const version = this.feed.version;
    if (!this.stamps || this.stamps.version !== version || !this.stamps.ids.has(destinationId)) {
      const ids = new Set([...this.lanes.keys(), destinationId]);
      const values = this.store.stamps([...ids]);
      this.stamps = { version, ids, values };
      // A failed read is not kept: the lanes' next look tries again.
      values.catch(() => {
        if (this.stamps?.values === values) this.stamps = undefined;
      });
    }
    return (await this.stamps.values).get(destinationId) ?? null;
  }

  /** A lane's settings; the lanes that ask within one turn of the event loop are read together. */
  private async settings(destinationId: string): Promise<LaneSettings | null> {
    let batch = this.targetBatch;
    if (!batch) {
      const ids = new Set<string>();
      const values = new Promise<Map<string, LaneTarget | null>>((resolve, reject) =>
        setImmediate(() => {
          this.targetBatch = undefined;
          this.store.targets([...ids]).then(resolve, reject);
        }),
      );
      batch = this.targetBatch = { ids, values };
    }
    batch.ids.add(destinationId);
    const value = (await batch.values).get(destinationId) ?? null;
    return value && { value, route: this.route(value.url) };
  }

  /** Where deliveries to `url` go; an address written in the URL is checked here, once. */
  private route(url: string): Route {
    const target = sendTarget(url);
    // Name lookups are checked at connect time; an address written in the URL never is.
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const refused = !this.options.policy.allowPrivateNetworks && isIP(host) !== 0 && isForbiddenAddress(host);
    return { target, refused };
  }

  private send(route: Route, prepared: PreparedDelivery): Promise<SendResult> {
    if (route.refused) return Promise.resolve(REFUSED);
    return send(this.agent, route.target, prepared);
  }

  /**
   * Judges an attempt (RetryPolicy, docs/design.md#webhook-retries), queues its record and tells `onAttempt`. Nothing is
   * recorded once `stop()` stopped waiting for attempts in flight: their lanes are given back, so
   * another dispatcher owns those deliveries and a late result must not be recorded.
   */
  private record(delivery: PendingDelivery, target: LaneTarget, result: SendResult, at: Date): AttemptOutcome | undefined {
    if (this.cutOff) return undefined;
    const outcome = this.retry.judge(delivery, target.id, result, at);
    this.ledger.add(outcome, target.plan);
    if (tracingOn) traceAttempt(outcome, delivery, result, at);
    this.options.onAttempt?.(outcome, delivery);
    return outcome;
  }

  private async runTick(): Promise<void> {
    const now = Date.now();
    // Nothing held, nothing to renew: an idle dispatcher writes nothing (and on SQLite starts no thread).
    if (this.held.size > 0 && now - this.lastRenew > this.leaseMs / 3) {
      this.lastRenew = now;
      this.held = new Set(await this.store.renew(this.owner, this.leaseMs));
    }
    // Outbox rows are fanned out a chunk at a time, and each chunk's lanes are woken at once: the
    // first deliveries of a large backlog leave while the later rows are still being fanned out.
    // The first chunk is small, so that the first sends wait on little.
    for (let chunk = FIRST_FAN_OUT_DELIVERIES; ; chunk = FAN_OUT_DELIVERIES) {
      const { rows, destinations } = await this.store.fanOut(chunk);
      if (destinations.length > 0) await this.wake(destinations);
      if (rows === 0 || this.stopped) break;
    }
    // The full look-around (retries due, lanes of dead dispatchers, work fanned out elsewhere) runs
    // about once a second; in between, only the destinations that just got deliveries are woken.
    if (now - this.lastScan < SCAN_INTERVAL_MS) return;
    this.lastScan = now;
    // Trimming is housekeeping: it waits until no lane is sending, so a burst goes out first,
    // but never longer than TRIM_DEFER_MS under continuous load.
    const sending = [...this.lanes.values()].some((lane) => lane.busy);
    if (!sending || now - this.lastTrim >= TRIM_DEFER_MS) {
      this.lastTrim = now;
      await this.store.trimRetained().catch((error: unknown) => this.log.warn({ err: error }, 'could not trim old deliveries'));
    }
    const wanted = await this.store.destinationsWithWork();
    await this.wake(wanted);
    // Lanes with nothing left: drop them and give their leases back.
    const busy = new Set(wanted);
    const idle = [...this.lanes.values()].filter((lane) => !lane.busy && !busy.has(lane.destinationId));
    if (idle.length > 0) {
      for (const lane of idle) {
        this.lanes.delete(lane.destinationId);
        this.held.delete(lane.destinationId);
      }
      await this.store.release(
        this.owner,
        idle.map((lane) => lane.destinationId),
      );
    }
  }

  /** Claims the lanes of `ids` that nobody holds, and tells every lane held here to look at its queue. */
  private async wake(ids: string[]): Promise<void> {
    const unheld = ids.filter((id) => !this.held.has(id));
    if (unheld.length > 0) for (const id of await this.store.claim(this.owner, unheld, this.leaseMs)) this.held.add(id);
    for (const id of ids) {
      if (!this.held.has(id)) continue;
      let lane = this.lanes.get(id);
      if (!lane) {
        lane = new Lane(id, this.port);
        this.lanes.set(id, lane);
      }
      lane.kick();
    }
  }
}

/** A span per attempt: destination, delivery, attempt number, receiver status and what follows. */
function traceAttempt(outcome: AttemptOutcome, delivery: PendingDelivery, result: SendResult, at: Date): void {
  recordSpan(
    'webhook attempt',
    {
      'packline.destination_id': outcome.destinationId,
      'packline.delivery_id': outcome.deliveryId,
      'packline.attempt': outcome.number,
      'packline.test': delivery.test || undefined,
      'http.response.status_code': result.statusCode ?? undefined,
      'packline.attempt.outcome': outcome.next.status,
    },
    at,
    result.durationMs,
    outcome.next.status !== 'succeeded',
  );
}
