// Load and CPU accounting: autocannon runs and the share of the machine other processes took.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface CpuSnapshot {
  at: number;
  /** Busy ms summed over all cores. */
  machineBusyMs: number;
  /** CPU ms of the watched processes (Linux /proc; 0 where unreadable). */
  watchedMs: number;
  /** The same per process; a process that has ended is absent. */
  perProcess: Map<number, number>;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** A process's CPU ms so far, or undefined once it has ended. */
function processCpuMs(pid: number): number | undefined {
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
  } catch {
    return undefined;
  }
}

/** CPU ms and a readable name of every process now running (Linux /proc; empty elsewhere). */
function processTable(): Map<number, { name: string; ms: number }> {
  const table = new Map<number, { name: string; ms: number }>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      const name = (command || stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))).slice(0, 60);
      table.set(Number(entry), { name, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/**
 * The processes outside `watched` that used the most CPU between two tables, % of all cores:
 * "postgres: autovacuum worker packline 31.2 %, …"; what processes that ended meanwhile used shows
 * as "ended or unseen".
 */
function otherProcesses(
  before: Map<number, { name: string; ms: number }>,
  after: Map<number, { name: string; ms: number }>,
  watched: number[],
  otherMs: number,
  capacityMs: number,
): string {
  if (capacityMs <= 0) return '';
  const percent = (ms: number) => Math.round((ms / capacityMs) * 1000) / 10;
  const used: { name: string; ms: number }[] = [];
  for (const [pid, now] of after) {
    if (watched.includes(pid)) continue;
    const ms = now.ms - (before.get(pid)?.ms ?? 0);
    if (ms > 0) used.push({ name: `${now.name} (${pid})`, ms });
  }
  used.sort((a, b) => b.ms - a.ms);
  const seen = used.reduce((sum, p) => sum + p.ms, 0);
  const parts = used.slice(0, 3).map((p) => `${p.name} ${percent(p.ms)} %`);
  if (otherMs - seen > capacityMs * 0.01) parts.push(`ended or unseen ${percent(otherMs - seen)} %`);
  return parts.join(', ');
}

export function cpuSnapshot(pids: number[] = []): CpuSnapshot {
  const machineBusyMs = cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
  const perProcess = new Map<number, number>();
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms !== undefined) perProcess.set(pid, ms);
  }
  let watchedMs = 0;
  for (const ms of perProcess.values()) watchedMs += ms;
  return { at: performance.now(), machineBusyMs, watchedMs, perProcess };
}

/**
 * CPU ms the watched processes used between two snapshots. A process that ended meanwhile counts
 * for nothing (its last reading is gone with it) rather than for minus all it had used: a database
 * backend closing during a run once read as other processes taking more than the whole machine.
 */
export function watchedDeltaMs(before: CpuSnapshot, after: CpuSnapshot): number {
  let ms = 0;
  for (const [pid, now] of after.perProcess) ms += now - (before.perProcess.get(pid) ?? now);
  return ms;
}

/** Busy share of the whole machine between two snapshots, all processes and the others only. */
export function cpuShare(before: CpuSnapshot, after: CpuSnapshot): { machinePercent: number; otherPercent: number } {
  const capacity = (after.at - before.at) * cpus().length;
  if (capacity <= 0) return { machinePercent: 0, otherPercent: 0 };
  const busy = after.machineBusyMs - before.machineBusyMs;
  const other = Math.max(0, busy - watchedDeltaMs(before, after));
  return { machinePercent: Math.round((busy / capacity) * 1000) / 10, otherPercent: Math.round((other / capacity) * 1000) / 10 };
}

/** Share of the machine busy for `ms` while the benchmark itself idles. */
export async function idleCheck(ms = 2_000): Promise<{ machinePercent: number; loadAverage: number[] }> {
  const before = cpuSnapshot();
  await sleep(ms);
  return { machinePercent: cpuShare(before, cpuSnapshot()).machinePercent, loadAverage: loadavg().map((n) => Math.round(n * 100) / 100) };
}

/** Repeats `idleCheck` until the machine is at most `thresholdPercent` busy, for up to `maxMs`. */
export async function waitForIdle(maxMs: number, thresholdPercent: number, onBusy?: (percent: number) => void) {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const check = await idleCheck();
    if (check.machinePercent <= thresholdPercent || Date.now() >= deadline) return check;
    onBusy?.(check.machinePercent);
  }
}

// ---------------------------------------------------------------------------------------------
// autocannon
// ---------------------------------------------------------------------------------------------

/** The part of autocannon's (untyped) result used here. */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  mismatches: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { average: number; p50: number; p90: number; p97_5: number; p99: number; max: number; totalCount: number };
  requests: { average: number; total: number; sent: number };
  throughput: { average: number };
}

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: { path: string; headers: Record<string, string> }) => unknown;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  pipelining: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
  timeout?: number;
}) => Promise<AutocannonResult>;

// autocannon ships no types (and @types/autocannon is not installed): load it through require.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadOptions {
  /** Full URL (origin + path and query). */
  url: string;
  /** @default 100 */
  connections?: number;
  /** Seconds. */
  duration: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Values of the Authorization header to rotate through (one per request in turn, on each
   * connection), so that the load is spread over several organizations' quotas.
   */
  authorizations?: string[];
  /** Requests each connection sends in turn, each with its own path and key (instead of `url`'s path). */
  requests?: KeyedRequest[];
  /**
   * Every request, across all connections, takes the next of `paths` and of `authorizations`: with
   * more distinct paths than a cache holds, no two requests in a row hit it.
   */
  rotate?: { paths: string[]; authorizations: string[] };
  /** Processes of the benchmark (servers); this process is always counted. */
  pids?: number[];
}

export interface KeyedRequest {
  /** Path and query. */
  path: string;
  /** The Authorization header. */
  authorization: string;
}

/** The requests autocannon cycles through, or undefined for `url` alone with `headers`. */
function requestsFor({ url, headers = {}, authorizations = [], requests, rotate }: LoadOptions): AutocannonRequest[] | undefined {
  if (rotate) {
    let next = 0;
    const { paths, authorizations: keys } = rotate;
    const setupRequest = (request: { path: string; headers: Record<string, string> }) => {
      const i = next++;
      return { ...request, path: paths[i % paths.length], headers: { ...request.headers, authorization: keys[i % keys.length]! } };
    };
    return [{ method: 'GET', headers, setupRequest }];
  }
  if (requests) return requests.map((r) => ({ method: 'GET', path: r.path, headers: { ...headers, authorization: r.authorization } }));
  if (authorizations.length === 0) return undefined;
  const parsed = new URL(url);
  const path = `${parsed.pathname}${parsed.search}`;
  return authorizations.map((authorization) => ({ method: 'GET', path, headers: { ...headers, authorization } }));
}

export interface LoadResult {
  url: string;
  connections: number;
  durationS: number;
  /** Mean of the per-second samples (autocannon's requests.average). */
  reqPerSec: number;
  /** Completed responses of any status. */
  total: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  bytesPerSec: number;
  /** Whole machine's CPU busy during the run, % of all cores. */
  machineCpuPercent: number;
  /** CPU taken by processes other than this one and `pids`, % of all cores: noise when > a few %. */
  otherCpuPercent: number;
  /** Which processes those were, the largest first (see `otherProcesses`). */
  otherProcesses: string;
}

/** One autocannon run from this process (pipelining 1). Latencies count 2xx answers only. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { url, connections = 100, duration, headers = {}, pids = [] } = options;
  const requests = requestsFor(options);
  const watched = [process.pid, ...pids];
  const tableBefore = processTable();
  const before = cpuSnapshot(watched);
  const result = await autocannon({ url, connections, pipelining: 1, duration, timeout: 10, ...(requests ? { requests } : { headers }) });
  const after = cpuSnapshot(watched);
  const cpu = cpuShare(before, after);
  const capacityMs = (after.at - before.at) * cpus().length;
  return {
    url,
    connections,
    durationS: result.duration,
    reqPerSec: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    meanMs: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    bytesPerSec: result.throughput.average,
    machineCpuPercent: cpu.machinePercent,
    otherCpuPercent: cpu.otherPercent,
    otherProcesses: otherProcesses(tableBefore, processTable(), watched, (cpu.otherPercent / 100) * capacityMs, capacityMs),
  };
}

/** True when every answer was 2xx and nothing failed. */
export const clean = (r: LoadResult) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.total > 0;
