import { Worker } from 'node:worker_threads';
import type { ChangeFeed } from '../core/components/change-feed.ts';
import type { Logger } from '../core/logger.ts';
import { tracingOn } from '../core/telemetry.ts';
import type { AttemptOutcome, DeliveryStore } from '../core/webhooks/delivery-store.ts';
import type { UrlPolicy } from '../core/webhooks/url-policy.ts';
import type { poolStats } from './pool.ts';

// The webhook dispatcher of a process that also serves the API (`packline start`, role `all`), on
// a thread of its own while there is webhook work (dispatcher-worker.ts runs it there): its lanes,
// sends and preparer pool no longer share the event loop that answers the API, so deliveries made
// while the API is busy keep up with it (docs/benchmarks.md). The thread costs an isolate, so it
// runs only while there is work: meanwhile the main thread looks at the outbox and the lanes'
// queues, as an idle dispatcher does, and starts it. Signals with no active destination to go to
// are not work: the main thread marks their outbox rows itself, so public changes on an instance
// without destinations start no thread.

export type AttemptNext = AttemptOutcome['next'];
export type PoolStats = NonNullable<ReturnType<typeof poolStats>>;
export type RelayedLogLevel = 'error' | 'warn';

/** What the thread starts from (structured-cloned). */
export interface DispatcherThreadData {
  /** PostgreSQL; else SQLite at `sqlitePath`. */
  databaseUrl: string | undefined;
  sqlitePath: string;
  dataDir: string;
  /** Base64 key sealing the destinations' URLs and secrets. */
  dataEncryptionKey: string;
  policy: UrlPolicy;
  retrySchedule: number[];
  leaseSeconds: number;
  /** The change feed's version when the thread starts. */
  feedVersion: number;
  /** The thread stops after this long without an attempt, with no outbox row and no delivery waiting. */
  idleMs: number;
  /** What attempts in flight get when it stops by itself. */
  graceMs: number;
  /**
   * Traces are on in the process: the thread starts its own tracer from the same OTLP environment
   * (a worker's copy of the process's), and sends its spans, and its SQLite thread's, the same way.
   */
  tracing: boolean;
}

export type ToDispatcherThread = { version: number } | { stop: number };
export type FromDispatcherThread =
  | { started: true }
  | { attempts: AttemptNext[] }
  | { pool: PoolStats | null }
  | { log: { level: RelayedLogLevel; fields: Record<string, unknown>; message: string } };

export interface DispatcherThreadOptions {
  /** The main thread's store: its looks for work while the thread is stopped (probes, on the main thread's connection). */
  store: DeliveryStore;
  feed: ChangeFeed;
  log: Logger;
  thread: Omit<DispatcherThreadData, 'feedVersion' | 'idleMs' | 'graceMs' | 'tracing'> & { idleMs?: number; graceMs?: number };
  /** Told of every attempt the thread made (metrics). */
  onAttempt?: (outcome: { next: AttemptNext }) => void;
  /** Told when the thread starts and after it has ended (tests). */
  onThread?: (event: 'started' | 'stopped') => void;
  /** Told after each look while the thread is stopped: whether outbox rows waited, and whether there was work for the thread (tests). */
  onLook?: (look: { outbox: boolean; work: boolean }) => void;
}

/** How often the outbox is looked at while the thread is stopped (the dispatcher's own outbox watch). */
const OUTBOX_WATCH_MS = 25;
/** How often the lanes' queues are looked at while the thread is stopped (retries written earlier, other processes' work). */
const SCAN_MS = 1_000;
/** How long the thread stays with nothing to do. */
const THREAD_IDLE_MS = 30_000;
/** After a thread that failed, the next one waits this long. */
const RESTART_DELAY_MS = 1_000;
/** Beyond the grace, what closing the thread's pool and database may take before it is terminated. */
const CLOSE_MARGIN_MS = 5_000;

export class DispatcherThread {
  private worker: Worker | undefined;
  /** The running thread's exit. */
  private exited: Promise<void> | undefined;
  private watch: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private lastScan = 0;
  private notBefore = 0;
  private unsubscribe: (() => void) | undefined;
  private stopped = true;
  private pool: PoolStats | undefined;
  /** A version to hand to the thread at the end of this turn (changes come in bursts). */
  private relaying = false;

  private readonly options: DispatcherThreadOptions;

  constructor(options: DispatcherThreadOptions) {
    this.options = options;
  }

  /** Whether the thread runs now. */
  get threadRunning(): boolean {
    return this.worker !== undefined;
  }

  /** The thread's preparer pool as it last reported it; undefined while no thread runs. */
  poolStats(): PoolStats | undefined {
    return this.worker ? this.pool : undefined;
  }

  /** Watches for webhook work, and starts the thread when there is some (at once when deliveries wait). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.options.feed.onChange(() => {
      if (!this.worker) return this.look(true);
      if (this.relaying) return;
      this.relaying = true;
      queueMicrotask(() => {
        this.relaying = false;
        this.worker?.postMessage({ version: this.options.feed.version } satisfies ToDispatcherThread);
      });
    });
    this.watch = setInterval(() => this.look(false), OUTBOX_WATCH_MS);
    this.watch.unref();
    this.look(true);
  }

  /** Stops watching and stops the thread: attempts in flight get `graceMs`, then its leases go back. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.watch);
    await this.looking;
    const worker = this.worker;
    if (!worker) return;
    // The thread is unref'd while it serves; waiting for its exit must keep the process alive.
    worker.ref();
    worker.postMessage({ stop: graceMs } satisfies ToDispatcherThread);
    const late = setTimeout(() => void worker.terminate(), graceMs + CLOSE_MARGIN_MS);
    await this.exited;
    clearTimeout(late);
  }

  /**
   * The outbox (and every second, or when `scan`, the lanes' queues): any work starts the thread.
   * Outbox rows with no active destination to go to are only marked, here, without a thread.
   */
  private look(scan: boolean): void {
    if (this.stopped || this.worker || this.looking || Date.now() < this.notBefore) return;
    const now = Date.now();
    const lanes = scan || now - this.lastScan >= SCAN_MS;
    if (lanes) this.lastScan = now;
    const { store } = this.options;
    this.looking = (async () => {
      const outbox = await store.outboxWaiting();
      // With an active destination the rows are the thread's to fan out; only without one are they
      // marked here, in a write of their own (which on SQLite waits for another process's write).
      const work =
        (outbox && ((await store.hasActiveDestination()) || (await store.settleOutbox()))) ||
        (lanes && (await store.destinationsWithWork()).length > 0);
      this.options.onLook?.({ outbox, work });
      if (work && !this.stopped && !this.worker) this.startThread();
    })()
      // The outbox look runs 40 times a second: only the scans (every second) say that the database does not answer.
      .catch((error: unknown) => {
        if (lanes) this.options.log.warn({ err: error }, 'could not look for webhook work; retrying');
      })
      .finally(() => {
        this.looking = undefined;
      });
  }

  private startThread(): void {
    const { thread, feed, log } = this.options;
    const data: DispatcherThreadData = {
      ...thread,
      feedVersion: feed.version,
      idleMs: thread.idleMs ?? THREAD_IDLE_MS,
      graceMs: thread.graceMs ?? 10_000,
      tracing: tracingOn,
    };
    const worker = new Worker(new URL('./dispatcher-worker.ts', import.meta.url), { workerData: data });
    worker.unref();
    const { threadId } = worker;
    this.worker = worker;
    let failed = false;
    worker.on('message', (message: FromDispatcherThread) => this.receive(message));
    worker.on('error', (error) => {
      failed = true;
      log.error({ err: error }, 'the webhook dispatcher thread failed; it restarts with the next work');
    });
    this.exited = new Promise<void>((resolve) => {
      worker.once('exit', (code) => {
        if (code !== 0 && !failed)
          log.error({ thread: threadId, code }, 'the webhook dispatcher thread ended; it restarts with the next work');
        if (code !== 0) failed = true;
        if (failed) this.notBefore = Date.now() + RESTART_DELAY_MS;
        else log.debug({ thread: threadId }, 'webhook dispatcher thread stopped');
        this.worker = undefined;
        this.pool = undefined;
        this.options.onThread?.('stopped');
        resolve();
        // Work that arrived while it was stopping.
        if (!this.stopped) this.look(true);
      });
    });
    this.options.onThread?.('started');
  }

  private receive(message: FromDispatcherThread): void {
    const { log } = this.options;
    if ('attempts' in message) for (const next of message.attempts) this.options.onAttempt?.({ next });
    else if ('pool' in message) this.pool = message.pool ?? undefined;
    else if ('log' in message) log[message.log.level](relayedFields(message.log.fields), message.log.message);
    else log.debug({ thread: this.worker?.threadId }, 'webhook dispatcher thread started');
  }
}

/**
 * A relayed line's fields for the main logger. Its `err` was serialized on the thread (pino's
 * serializer: type, message, stack…) and arrives as a plain object, which the main logger's
 * serializer would call an `Object`: given without a prototype and named by its type, it keeps it.
 */
function relayedFields(fields: Record<string, unknown>): Record<string, unknown> {
  const err = fields.err as { type?: unknown } | undefined;
  if (typeof err !== 'object' || err === null || typeof err.type !== 'string') return fields;
  return { ...fields, err: Object.assign(Object.create(null) as object, err, { name: err.type }) };
}
