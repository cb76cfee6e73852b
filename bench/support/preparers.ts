// Inline vs pool preparation of webhook deliveries (render + sign) on one batch.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { DeliveryJob } from '../../core/webhooks/envelope.ts';
import { createInlinePreparer, createPoolPreparer, type DeliveryPreparer } from '../../workers/pool.ts';
import { median } from './report.ts';

export interface PreparerFigures {
  /** Median wall time of one round (the whole batch), in milliseconds. */
  medianMs: number;
  /** Fastest round, in milliseconds. */
  bestMs: number;
  /** Jobs per second at the median round. */
  jobsPerSecond: number;
  /**
   * Median time the main thread's event loop was busy during a round, in milliseconds: all of the
   * round inline; with the pool, posting the jobs and reading the results back.
   */
  mainThreadMs: number;
}

export interface PreparerBench {
  jobs: number;
  rounds: number;
  threads: number;
  cores: number;
  inline: PreparerFigures;
  pool: PreparerFigures;
  /** Pool throughput over inline throughput: above 1 the pool wins. */
  poolOverInline: number;
}

export interface PreparerBenchOptions {
  /** Worker threads of the pool. @default Math.max(1, availableParallelism() - 1) */
  threads?: number;
}

/**
 * Prepares `jobs` `rounds` times inline and `rounds` times on the pool (forced: no inline shortcut),
 * after one untimed warm-up each so the pool's start-up and JIT warm-up are not counted. Rounds
 * alternate between the two so drift on the machine hits both alike. Prints nothing.
 */
export async function benchPreparers(jobs: DeliveryJob[], rounds: number, options: PreparerBenchOptions = {}): Promise<PreparerBench> {
  const threads = Math.max(1, options.threads ?? availableParallelism() - 1);
  const inline = createInlinePreparer();
  const pool = createPoolPreparer({ threads, minBatch: 1 });
  try {
    await inline.prepare(jobs);
    await pool.prepare(jobs);
    const inlineRounds: Round[] = [];
    const poolRounds: Round[] = [];
    for (let round = 0; round < rounds; round++) {
      inlineRounds.push(await timed(inline, jobs));
      poolRounds.push(await timed(pool, jobs));
    }
    const inlineFigures = figures(inlineRounds, jobs.length);
    const poolFigures = figures(poolRounds, jobs.length);
    return {
      jobs: jobs.length,
      rounds,
      threads,
      cores: availableParallelism(),
      inline: inlineFigures,
      pool: poolFigures,
      poolOverInline: round2(poolFigures.jobsPerSecond / inlineFigures.jobsPerSecond),
    };
  } finally {
    await Promise.all([inline.close(), pool.close()]);
  }
}

interface Round {
  wallMs: number;
  busyMs: number;
}

async function timed(preparer: DeliveryPreparer, jobs: DeliveryJob[]): Promise<Round> {
  const loop = performance.eventLoopUtilization();
  const start = performance.now();
  await preparer.prepare(jobs);
  const wallMs = performance.now() - start;
  return { wallMs, busyMs: performance.eventLoopUtilization(loop).active };
}

function figures(rounds: Round[], jobs: number): PreparerFigures {
  const wall = rounds.map((round) => round.wallMs).sort((a, b) => a - b);
  const medianMs = median(wall);
  return {
    medianMs: round2(medianMs),
    bestMs: round2(wall[0] ?? Number.NaN),
    jobsPerSecond: Math.round((jobs / medianMs) * 1000),
    mainThreadMs: round2(median(rounds.map((round) => round.busyMs).sort((a, b) => a - b))),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
