// Where the server's time goes: per-thread CPU from /proc, and self time from `--cpu-prof` profiles.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from './processes.ts';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU ms (user + system) per thread of `pid`, keyed `<tid> <name>`; empty where /proc is unreadable. */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${tid} ${name}`, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // the thread ended
    }
  }
  return out;
}

export interface ThreadUsage {
  /** `main` (the thread whose id is the pid), else `#<tid> <kernel name>` (Node names every thread `node`). */
  thread: string;
  cpuMs: number;
  /** Share of one core over the interval. */
  percentOfCore: number;
}

/** CPU per thread between two `threadCpu` readings over `wallMs`, busiest first. */
export function threadUsage(pid: number, before: Map<string, number>, after: Map<string, number>, wallMs: number): ThreadUsage[] {
  const out: ThreadUsage[] = [];
  for (const [key, ms] of after) {
    const [tid, ...rest] = key.split(' ');
    const cpuMs = ms - (before.get(key) ?? 0);
    if (cpuMs <= 0) continue;
    out.push({
      thread: tid === String(pid) ? 'main' : `#${tid} ${rest.join(' ')}`,
      cpuMs,
      percentOfCore: Math.round((cpuMs / wallMs) * 1000) / 10,
    });
  }
  return out.sort((a, b) => b.cpuMs - a.cpuMs);
}

// ---------------------------------------------------------------------------------------------
// --cpu-prof profiles
// ---------------------------------------------------------------------------------------------

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  /** Where: a package, a node: module or a repository file with its line. */
  where: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  file: string;
  /** Thread id from the file name (0: the main thread). */
  threadId: number;
  /** Sampled time inside the window, ms. */
  sampledMs: number;
  /** Time the thread was idle (V8's `(idle)` node), ms. */
  idleMs: number;
  /** Whether the window was found in the profile's clock; false: the whole profile. */
  windowed: boolean;
  top: SelfTime[];
  /** Self time per package / area, busiest first. */
  byArea: SelfTime[];
  /** Repository functions (not node_modules) by total time: self plus everything they called synchronously. */
  inclusive: SelfTime[];
}

/** Frames that are a thread waiting, not working: V8's idle marker and Piscina's blocking wait. */
const WAITING = new Set(['(idle)', 'atomicsWaitLoop']);

/** The area a script belongs to: a package under node_modules, a node: builtin, or a repository folder. */
function area(url: string): string {
  if (url === '') return '(native / V8)';
  if (url.startsWith('node:')) return url.split('/')[0]!;
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(ROOT)
    ? path
        .slice(ROOT.length + 1)
        .split('/')
        .slice(0, 2)
        .join('/')
    : path;
}

function where(frame: ProfileNode['callFrame']): string {
  const url = frame.url;
  if (url === '') return '(native / V8)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  const short = modules !== -1 ? path.slice(modules + 'node_modules/'.length) : path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path;
  return `${short}:${frame.lineNumber + 1}`;
}

/**
 * Self time per function in `file`, counting only samples between `window.startUs` and
 * `window.endUs` (process.hrtime microseconds: the same monotonic clock V8 stamps samples with on
 * Linux). When the window does not overlap the profile, the whole profile is counted.
 */
export function summarizeProfile(file: string, window?: { startUs: number; endUs: number }, topN = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const windowed = window !== undefined && window.startUs < profile.endTime && window.endUs > profile.startTime;
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (windowed && (t < window!.startUs || t > window!.endUs)) continue;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + next);
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byFunction = new Map<string, SelfTime>();
  const byArea = new Map<string, number>();
  const inclusive = new Map<string, SelfTime>();
  let sampledUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)!.callFrame;
    sampledUs += us;
    if (WAITING.has(frame.functionName)) {
      idleUs += us;
      continue;
    }
    const name = frame.functionName || '(anonymous)';
    const key = `${name} ${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
    const entry = byFunction.get(key) ?? { name, where: where(frame), selfMs: 0, percent: 0 };
    entry.selfMs += us / 1000;
    byFunction.set(key, entry);
    const a = frame.url === '' && frame.functionName.startsWith('(') ? frame.functionName : area(frame.url);
    byArea.set(a, (byArea.get(a) ?? 0) + us / 1000);
    // Every repository function on this stack, once each.
    const counted = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = nodes.get(at)!.callFrame;
      if (!isRepositoryCode(f.url)) continue;
      const k = `${f.functionName || '(anonymous)'} ${f.url}:${f.lineNumber}:${f.columnNumber}`;
      if (counted.has(k)) continue;
      counted.add(k);
      const e = inclusive.get(k) ?? { name: f.functionName || '(anonymous)', where: where(f), selfMs: 0, percent: 0 };
      e.selfMs += us / 1000;
      inclusive.set(k, e);
    }
  }
  const busyMs = (sampledUs - idleUs) / 1000;
  const finish = (entries: SelfTime[]) =>
    entries
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, topN)
      .map((e) => ({ ...e, selfMs: Math.round(e.selfMs), percent: Math.round((e.selfMs / Math.max(busyMs, 1e-9)) * 1000) / 10 }));
  const threadId = Number(/\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(basename(file))?.[1] ?? 0);
  return {
    file: basename(file),
    threadId,
    sampledMs: Math.round(sampledUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    windowed,
    top: finish([...byFunction.values()]),
    byArea: finish([...byArea].map(([name, selfMs]) => ({ name, where: '', selfMs, percent: 0 }))),
    inclusive: finish([...inclusive.values()]),
  };
}

function isRepositoryCode(url: string): boolean {
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(ROOT) && !path.includes('/node_modules/');
}

/** The `.cpuprofile` files Node wrote into `dir` (one per thread). */
export function profileFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.cpuprofile'))
      .sort()
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** process.hrtime in microseconds: V8's sample clock on Linux (CLOCK_MONOTONIC). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

// ---------------------------------------------------------------------------------------------
// SQLite statements (webhook-sql-trace.cjs)
// ---------------------------------------------------------------------------------------------

/** Cumulative figures per statement text, as the trace module writes them. */
export interface SqlReading {
  at: number;
  statements: Record<string, { count: number; ms: number }>;
}

export interface SqlStatementFigures {
  sql: string;
  count: number;
  totalMs: number;
  meanUs: number;
  /** Executions per unit of work (per delivery in phase 1). */
  perUnit: number;
}

export interface SqlSummary {
  /** Statements executed (prepares not counted) and time in libsql (prepare + execute + row reads). */
  statements: number;
  totalMs: number;
  wallMs: number;
  /** Heaviest statement texts by time, `(prepare) …` entries are the compile step. */
  top: SqlStatementFigures[];
}

/** What ran between two readings, `units` being the deliveries made meanwhile. */
export function sqlSummary(before: SqlReading, after: SqlReading, units: number, topN = 15): SqlSummary {
  const rows: SqlStatementFigures[] = [];
  for (const [sql, now] of Object.entries(after.statements)) {
    const then = before.statements[sql] ?? { count: 0, ms: 0 };
    const count = now.count - then.count;
    const ms = now.ms - then.ms;
    if (count <= 0 && ms <= 0) continue;
    rows.push({
      sql,
      count,
      totalMs: Math.round(ms),
      meanUs: count > 0 ? Math.round((ms / count) * 1000) : 0,
      perUnit: Math.round((count / units) * 100) / 100,
    });
  }
  const executed = rows.filter((r) => !r.sql.startsWith('(prepare)'));
  return {
    statements: executed.reduce((sum, r) => sum + r.count, 0),
    totalMs: Math.round(rows.reduce((sum, r) => sum + r.totalMs, 0)),
    wallMs: after.at - before.at,
    top: rows.sort((a, b) => b.totalMs - a.totalMs).slice(0, topN),
  };
}
