// autocannon over a list of requests, each with its own path and key: the peer addresses the
// organization by id where Packline takes it from the key, so each key needs its own path there.
// Same settings and accounting as `load` (load.ts): pipelining 1, 10 s timeout, 2xx latencies.
import { createRequire } from 'node:module';
import { cpuShare, cpuSnapshot, type LoadResult } from './load.ts';

export interface KeyedRequest {
  /** Path and query. */
  path: string;
  /** The Authorization header. */
  authorization: string;
}

/** The part of autocannon's (untyped) result used here. */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { average: number; p50: number; p90: number; p99: number; max: number };
  requests: { average: number; total: number };
  throughput: { average: number };
}

type Autocannon = (options: {
  url: string;
  connections: number;
  pipelining: number;
  duration: number;
  timeout: number;
  requests: { method: string; path: string; headers: Record<string, string> }[];
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface KeyedLoadOptions {
  origin: string;
  /** Sent in turn on each connection. */
  requests: KeyedRequest[];
  connections: number;
  /** Seconds. */
  duration: number;
  /** Processes of the benchmark (servers); this process is always counted. */
  pids?: number[];
}

/** One autocannon run from this process over `requests`, in turn. */
export async function loadKeyed({ origin, requests, connections, duration, pids = [] }: KeyedLoadOptions): Promise<LoadResult> {
  if (requests.length === 0) throw new Error('loadKeyed needs at least one request');
  const watched = [process.pid, ...pids];
  const before = cpuSnapshot(watched);
  const result = await autocannon({
    url: origin,
    connections,
    pipelining: 1,
    duration,
    timeout: 10,
    requests: requests.map((r) => ({ method: 'GET', path: r.path, headers: { authorization: r.authorization } })),
  });
  const cpu = cpuShare(before, cpuSnapshot(watched));
  return {
    url: origin + requests[0]!.path,
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
  };
}
