// The resident memory of a benchmarked process, read from /proc: its peak (VmHWM) and the largest
// samples of its anonymous and file-mapped parts.
import { readFileSync } from 'node:fs';

type MemoryField = 'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile';

function statusKiB(pid: number): Record<MemoryField, number> {
  let text = '';
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // gone
  }
  const kib = (field: MemoryField) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { VmRSS: kib('VmRSS'), VmHWM: kib('VmHWM'), RssAnon: kib('RssAnon'), RssFile: kib('RssFile') };
}

const mib = (kib: number) => Math.round(kib / 102.4) / 10;

/** The peak memory of a process, in MiB. */
export interface MemoryPeak {
  /** VmHWM: the peak resident memory over the process's life. */
  highWaterMiB: number;
  /** The largest samples of the resident memory, its anonymous part (heaps, buffers) and its file part. */
  sampledPeakMiB: number;
  anonymousPeakMiB: number;
  filePeakMiB: number;
}

/** Resident memory allowed to the API process under the benchmarks. */
export const RSS_TARGET_MIB = 256;

/**
 * Samples a process's resident memory every `everyMs` until stopped. Resident memory counts the
 * pages of files the process maps (SQLite maps its database), so the largest samples of its
 * anonymous part (heaps, buffers) and of its file part are kept beside it.
 */
export function watchMemory(pid: number, everyMs = 250) {
  const peak = statusKiB(pid);
  let last: MemoryPeak | undefined;
  const sample = () => {
    const now = statusKiB(pid);
    if (now.VmHWM === 0) return; // gone: keep what was read while it ran
    for (const field of ['VmRSS', 'RssAnon', 'RssFile'] as const) peak[field] = Math.max(peak[field], now[field]);
    last = {
      highWaterMiB: mib(now.VmHWM),
      sampledPeakMiB: mib(peak.VmRSS),
      anonymousPeakMiB: mib(peak.RssAnon),
      filePeakMiB: mib(peak.RssFile),
    };
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    /** The peak so far (read now while the process runs; after it exits, the last reading). */
    read: (): MemoryPeak => {
      sample();
      return last ?? { highWaterMiB: 0, sampledPeakMiB: 0, anonymousPeakMiB: 0, filePeakMiB: 0 };
    },
    stop: () => clearInterval(timer),
  };
}

/** One line: the peak against the target, with the largest samples of its parts. */
export function describePeak(label: string, m: MemoryPeak, target = RSS_TARGET_MIB): string {
  return (
    `${label}: peak RSS ${m.highWaterMiB} MiB (VmHWM): ${m.highWaterMiB <= target ? 'OK' : 'MISSED'} (≤ ${target} MiB); ` +
    `largest samples: ${m.sampledPeakMiB} MiB resident, ${m.anonymousPeakMiB} MiB anonymous, ${m.filePeakMiB} MiB of mapped files`
  );
}
