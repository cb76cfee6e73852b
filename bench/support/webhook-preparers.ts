// Phase 3: render + sign on the worker pool vs inline, on the same batches (benchPreparers).
import { DELIVERY_FORMATS } from '../../core/webhooks/contract.ts';
import { sampleJobs } from '../../core/demo/sample-jobs.ts';
import { benchPreparers, type PreparerBench } from './preparers.ts';
import { cpuWatch } from './webhook-cpu.ts';

export interface PreparerRow {
  batch: string;
  bench: PreparerBench;
  /** Inline main-thread ms minus pool main-thread ms, per batch, and as a share of inline. */
  mainThreadFreedMs: number;
  mainThreadFreedShare: number;
  /** CPU other processes took meanwhile, % of all cores (noise above a few %). */
  otherCpuPercent: number;
}

/**
 * `jobs` standard-JSON jobs, `jobs` jobs of every format (sample-jobs cycles through them), and
 * one batch the size the dispatcher can actually hand the pool in this benchmark (every lane's 64
 * deliveries gathered in one turn: `lanes × 64`).
 */
export async function runPreparerPhase({
  jobs,
  rounds,
  lanes,
  say,
}: {
  jobs: number;
  rounds: number;
  lanes: number;
  say: (line?: string) => void;
}): Promise<PreparerRow[]> {
  const batches = [
    { batch: `${jobs} standard-json`, jobs: sampleJobs(jobs, ['standard-json']) },
    { batch: `${jobs} mixed (${DELIVERY_FORMATS.join(', ')})`, jobs: sampleJobs(jobs) },
    { batch: `${lanes * 64} standard-json (${lanes} lanes × 64)`, jobs: sampleJobs(lanes * 64, ['standard-json']) },
  ];
  const rows: PreparerRow[] = [];
  for (const { batch, jobs: list } of batches) {
    say(`Preparers: ${batch}, ${rounds} rounds each...`);
    const cpu = cpuWatch({ bench: process.pid });
    const bench = await benchPreparers(list, rounds);
    const otherCpuPercent = cpu.stop().otherPercent;
    const freed = bench.inline.mainThreadMs - bench.pool.mainThreadMs;
    rows.push({
      batch,
      bench,
      mainThreadFreedMs: Math.round(freed * 100) / 100,
      mainThreadFreedShare: Math.round((freed / bench.inline.mainThreadMs) * 1000) / 1000,
      otherCpuPercent,
    });
    say(
      `  inline ${bench.inline.jobsPerSecond} jobs/s, pool ${bench.pool.jobsPerSecond} jobs/s (×${bench.poolOverInline}), main thread ${bench.inline.mainThreadMs} → ${bench.pool.mainThreadMs} ms`,
    );
  }
  return rows;
}
