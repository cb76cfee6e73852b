// The settings of the REST benchmark (rest.bench.ts): its environment, targets and endpoints' shape.
import { join } from 'node:path';
import { PLAN_ALLOWANCES } from '../../core/plans.ts';
import { ROOT } from './processes.ts';
import { positive } from './settings.ts';

export const DURATION = positive('BENCH_DURATION', 10);
export const WARMUP = positive('BENCH_WARMUP', 3);
/** Seconds to wait for other processes to leave the CPU before starting (0: do not wait). */
export const WAIT_IDLE = positive('BENCH_WAIT_IDLE', 60, { zero: true });
export const CONNECTIONS = positive('BENCH_CONNECTIONS', 100);
export const P99_TARGET_MS = 25;
/** CPU share (% of all cores) taken by other processes above which a phase is flagged noisy. */
export const NOISE_PERCENT = 5;
export const LIST_URL = '/api/v1/opportunities?limit=20';
export const RESULTS_FILE = join(ROOT, 'bench/results-rest.json');
/** Results of a run on PostgreSQL (`--postgresql`), apart from the SQLite run's. */
export const POSTGRESQL_RESULTS_FILE = join(ROOT, 'bench/results-rest-postgresql.json');
/** The server a run on PostgreSQL creates its temporary database on (DATABASE_URL replaces it). */
export const POSTGRES_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
/** Calls one organization may take in one phase: well under the Clan monthly quota. */
export const CALLS_PER_ORG = Math.floor(PLAN_ALLOWANCES.clan.monthlyQuota * 0.8);

export interface Endpoint {
  name: string;
  url: string;
  /** Minimum share of the ceiling's req/s. */
  ratioTarget: number;
}
