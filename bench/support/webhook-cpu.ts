// CPU accounting of the webhook benchmark's processes over one timed part.
import { cpuShare, cpuSnapshot } from './load.ts';
import { threadCpu, threadUsage, type ThreadUsage } from './webhook-profile.ts';

/** Waits (bounded) for other processes to leave the CPU before a timed part. */
export type WaitIdle = (what: string) => Promise<void>;

export interface PhaseCpu {
  wallMs: number;
  /** Whole machine busy, % of all cores; other: processes outside the benchmark. */
  machinePercent: number;
  otherPercent: number;
  /** Per process, per thread, % of one core. */
  threads: Record<string, ThreadUsage[]>;
}

/** CPU accounting of the benchmark's processes over one phase. */
export function cpuWatch(processes: Record<string, number>): { stop(): PhaseCpu } {
  const pids = Object.values(processes);
  const machine = cpuSnapshot([process.pid, ...pids.filter((pid) => pid !== process.pid)]);
  const before = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, threadCpu(pid)]));
  return {
    stop() {
      const after = cpuSnapshot([process.pid, ...pids.filter((pid) => pid !== process.pid)]);
      const wallMs = after.at - machine.at;
      const share = cpuShare(machine, after);
      const threads = Object.fromEntries(
        Object.entries(processes).map(([name, pid]) => [name, threadUsage(pid, before[name]!, threadCpu(pid), wallMs)]),
      );
      return { wallMs: Math.round(wallMs), machinePercent: share.machinePercent, otherPercent: share.otherPercent, threads };
    },
  };
}
