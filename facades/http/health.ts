// Liveness and readiness for orchestrators and load balancers.
import type { ServerResponse } from 'node:http';
import type { Logger } from '../../core/index.ts';

/** Answers while the process runs. */
export const HEALTH_PATH = '/healthz';
/** Answers 200 only while the process can do its work: its dependencies answer, and it is not stopping. */
export const READY_PATH = '/readyz';

/** A check of one dependency: resolves when it answers, rejects otherwise. */
export type Probe = () => Promise<unknown>;

export interface ReadinessOptions {
  /** By name, e.g. `database`, `redis`: each runs on every readiness request, all at once. */
  probes: Record<string, Probe>;
  /** How long a probe may take before it counts as failed. @default 2000 */
  timeoutMs?: number;
  log: Logger;
}

/** `ok`, or why not: `failed` or `timeout` (details go to the log, never to the answer). */
export type CheckResult = 'ok' | 'failed' | 'timeout';

export interface ReadinessReport {
  status: 'ready' | 'unavailable' | 'stopping';
  checks: Record<string, CheckResult>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** From now on the process reports itself as stopping, so balancers send it nothing new. */
  stop(): void;
}

export function createReadiness({ probes, timeoutMs = 2_000, log }: ReadinessOptions): Readiness {
  let stopping = false;
  const entries = Object.entries(probes);
  return {
    async check() {
      if (stopping) return { status: 'stopping', checks: {} };
      const results = await Promise.all(
        entries.map(async ([name, probe]): Promise<[string, CheckResult]> => {
          try {
            await withTimeout(probe(), timeoutMs);
            return [name, 'ok'];
          } catch (error) {
            log.warn({ err: error, check: name }, 'readiness check failed');
            return [name, error instanceof TimeoutError ? 'timeout' : 'failed'];
          }
        }),
      );
      const checks = Object.fromEntries(results);
      return { status: results.every(([, result]) => result === 'ok') ? 'ready' : 'unavailable', checks };
    },
    stop() {
      stopping = true;
    },
  };
}

/** `GET /readyz`: 200 with every check `ok`, else 503 naming the check that failed. */
export function createReadinessRoute(readiness: Readiness) {
  return async function handle(res: ServerResponse, requestId: string): Promise<void> {
    const report = await readiness.check();
    const body = JSON.stringify(report);
    res.writeHead(report.status === 'ready' ? 200 : 503, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    });
    res.end(body);
  };
}

/** Settles like `promise`, or rejects with a TimeoutError once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export class TimeoutError extends Error {
  readonly ms: number;

  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.ms = ms;
    this.name = 'TimeoutError';
  }
}
