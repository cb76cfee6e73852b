// Preparing deliveries (render + sign) inline or on the process's one Piscina pool.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { DeliveryJob, PreparedDelivery } from '../core/webhooks/envelope.ts';
import { prepareDeliveries, type PooledDelivery } from './tasks.ts';

/** What the dispatcher depends on: turns jobs into request bodies and headers, in order. */
export interface DeliveryPreparer {
  /** Rejects with `signal.reason` when `signal` aborts before the batch is done. */
  prepare(jobs: DeliveryJob[], signal?: AbortSignal): Promise<PreparedDelivery[]>;
  /** Releases the pool once batches in flight finish (idempotent); `prepare` rejects afterwards. */
  close(): Promise<void>;
}

export interface PoolPreparerOptions {
  /**
   * Worker threads of the process's pool. The pool is shared: the first open preparer sizes it.
   * @default Math.max(1, availableParallelism() - 1)
   */
  threads?: number;
  /**
   * Batches smaller than this run on the calling thread: posting a tiny task to a worker costs
   * more than doing it. Larger batches are split into chunks of at least this size across threads.
   * @default DEFAULT_MIN_BATCH
   */
  minBatch?: number;
}

/**
 * Measured with `benchPreparers` (bench/support/preparers.ts) on 2 cores, one worker thread: the
 * pool always costs wall time there (about 1.6-1.8× inline: jobs and results are cloned), so it
 * pays only by freeing the main thread. Main-thread time saved: ~40 % (noisy) at 16 jobs, 63 % at 32,
 * 71 % at 64, 77 % at 128, ~78 % plateau beyond; 64 jobs is ~1 ms of inline work. Below that,
 * inline is faster and blocks the loop for under a millisecond.
 */
export const DEFAULT_MIN_BATCH = 64;

/** Runs every batch on the calling thread (tests, and machines with a single core). */
export function createInlinePreparer(): DeliveryPreparer {
  let closed = false;
  return {
    async prepare(jobs, signal) {
      if (closed) throw new Error('The delivery preparer is closed');
      signal?.throwIfAborted();
      return prepareDeliveries(jobs);
    },
    async close() {
      closed = true;
    },
  };
}

interface SharedPool {
  pool: Piscina;
  threads: number;
  leases: number;
  /** Chunks posted and not settled: closing waits for them (a thread may still be starting). */
  running: Set<Promise<unknown>>;
}

// One pool per process: every preparer leases it and the last close destroys it.
let shared: SharedPool | undefined;

/**
 * How long a thread with no batch stays. Threads start with the first batch large enough for the
 * pool, not with the process: each is a V8 isolate of its own (about 25 MiB resident), which an
 * API process that delivers few webhooks never needs.
 */
const IDLE_THREAD_MS = 60_000;

function leasePool(threads: number): SharedPool {
  if (!shared) {
    shared = {
      pool: new Piscina({
        filename: new URL('./tasks.ts', import.meta.url).href,
        name: 'preparePooledDeliveries',
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: IDLE_THREAD_MS,
      }),
      threads,
      leases: 0,
      running: new Set(),
    };
  }
  shared.leases += 1;
  return shared;
}

/** The process's pool, for diagnostics: its thread count and open preparers; undefined when none. */
export function poolInfo(): { threads: number; leases: number } | undefined {
  return shared && { threads: shared.threads, leases: shared.leases };
}

/** The process's pool at this instant, for metrics: tasks waiting for a thread, and how busy the threads have been (0 to 1). */
export function poolStats(): { threads: number; queueSize: number; utilization: number } | undefined {
  return shared && { threads: shared.threads, queueSize: shared.pool.queueSize, utilization: shared.pool.utilization };
}

async function releasePool(lease: SharedPool): Promise<void> {
  lease.leases -= 1;
  if (lease.leases > 0) return;
  if (shared === lease) shared = undefined;
  await Promise.allSettled(lease.running);
  await lease.pool.close();
}

/** Prepares large batches on the process's Piscina pool, split across its threads. */
export function createPoolPreparer(options: PoolPreparerOptions = {}): DeliveryPreparer {
  const minBatch = Math.max(1, options.minBatch ?? DEFAULT_MIN_BATCH);
  const lease = leasePool(Math.max(1, options.threads ?? availableParallelism() - 1));
  let closed = false;
  return {
    async prepare(jobs, signal) {
      if (closed) throw new Error('The delivery preparer is closed');
      signal?.throwIfAborted();
      if (jobs.length < minBatch) return prepareDeliveries(jobs);
      const chunks = split(jobs, Math.min(lease.threads, Math.floor(jobs.length / minBatch)));
      // One controller for the whole batch: the caller's abort or any chunk's failure cancels the rest.
      const batch = new AbortController();
      const onAbort = () => batch.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const parts = await Promise.all(
          chunks.map((chunk) => {
            const run = (lease.pool.run(chunk, { signal: batch.signal }) as Promise<PooledDelivery[]>).catch((error: unknown) => {
              batch.abort(error);
              throw error;
            });
            lease.running.add(run);
            void run.then(
              () => lease.running.delete(run),
              () => lease.running.delete(run),
            );
            return run;
          }),
        );
        // Standard JSON comes back without its body: it is the job's own envelope text.
        return parts
          .flat()
          .map((prepared, i): PreparedDelivery => ('body' in prepared ? prepared : { body: jobs[i]!.envelope, ...prepared }));
      } catch (error) {
        signal?.throwIfAborted();
        throw error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await releasePool(lease);
    },
  };
}

/** `inline` for tests and single-core hosts, `pool` otherwise. */
export function createPreparer(kind: 'pool' | 'inline', options: PoolPreparerOptions = {}): DeliveryPreparer {
  return kind === 'pool' ? createPoolPreparer(options) : createInlinePreparer();
}

/** `count` contiguous chunks of nearly equal size, in order. */
function split<T>(items: T[], count: number): T[][] {
  const size = Math.ceil(items.length / Math.max(1, count));
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
