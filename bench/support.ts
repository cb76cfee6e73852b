/**
 * Helpers shared by the benchmarks: the Packline server and a bare "ceiling" server as child
 * processes, the CLI run in a child process, autocannon runs, markdown tables and results files.
 *
 * Every child process and temporary directory made here is registered and removed on exit,
 * on SIGINT/SIGTERM and on an uncaught error (see `cleanup`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { cpus, freemem, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// Cleanup of children and temporary directories
// ---------------------------------------------------------------------------------------------

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let cleanupInstalled = false;

function installCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once('exit', () => cleanupSync());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping child processes and removing temporary directories\n`);
      cleanupSync();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Kills (SIGKILL) every child still running and removes every temporary directory. */
export function cleanupSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  children.clear();
  if (process.env.BENCH_KEEP_DATA) {
    if (tempDirs.size > 0) process.stderr.write(`BENCH_KEEP_DATA: kept ${[...tempDirs].join(', ')}\n`);
  } else {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  }
  tempDirs.clear();
}

/** A fresh temporary directory, removed on exit (kept when BENCH_KEEP_DATA is set, for the server log). */
export function tempDir(prefix: string): string {
  installCleanup();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Removes a directory made by `tempDir` now. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

function track(child: ChildProcess): ChildProcess {
  installCleanup();
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Stops one child: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Environment for a Packline child: the caller's environment without anything that would
 * change the target (PostgreSQL, Redis, log level, addresses), plus `overrides`.
 */
export function packlineEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'LOG_LEVEL', 'PUBLIC_BASE_URL', 'PORT', 'HOST', 'DATA_DIR', 'RATE_LIMIT_PER_MINUTE', 'INTERNAL_API_TOKEN', 'NODE_OPTIONS']) {
    delete env[name];
  }
  return { ...env, ...overrides };
}

// ---------------------------------------------------------------------------------------------
// The Packline server as a child process
// ---------------------------------------------------------------------------------------------

export interface PacklineServer {
  child: ChildProcess;
  origin: string;
  port: number;
  dataDir: string;
  /** Everything the server wrote on stdout and stderr (the banner, then JSON log lines). */
  logFile: string;
  /** The demo key from the banner ('' when the banner shows none). */
  demoKey: string;
  /** The environment the server runs with, for CLI commands on the same data. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export interface StartPacklineOptions {
  /** Fresh temporary directory when absent. */
  dataDir?: string;
  /** Extra environment (on top of PORT, HOST, DATA_DIR). */
  env?: Record<string, string>;
  args?: string[];
  /** @default 90_000 */
  timeoutMs?: number;
}

/**
 * Starts `node bin/packline.js start` and waits for its banner. Output goes straight to a file
 * (not a pipe), so the server never waits on the benchmark process to read its logs.
 */
export async function startPackline({ dataDir = tempDir('packline-bench-'), env = {}, args = [], timeoutMs = 90_000 }: StartPacklineOptions = {}): Promise<PacklineServer> {
  const port = await freePort();
  const childEnv = packlineEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env });
  const logFile = join(dataDir, 'server.log');
  const fd = openSync(logFile, 'a');
  const child = track(spawn(process.execPath, [join(ROOT, 'bin/packline.js'), 'start', ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', fd, fd] }));
  closeSync(fd);

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    const listening = /Packline is listening on (\S+):(\d+)/.exec(text);
    const key = /Demo API key\s+(\S+)/.exec(text);
    if (listening && key && /^Try: /m.test(text)) {
      const demoKey = key[1]!.startsWith('live_') ? key[1]! : '';
      return {
        child,
        origin: `http://127.0.0.1:${listening[2]}`,
        port: Number(listening[2]),
        dataDir,
        logFile,
        demoKey,
        env: childEnv,
        stop: () => stopChild(child),
      };
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`packline start exited (${child.exitCode ?? child.signalCode}) before listening:\n${tail(text)}`);
    }
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`packline start did not print its banner within ${timeoutMs} ms:\n${tail(text)}`);
    }
    await sleep(50);
  }
}

const tail = (text: string, lines = 30) => text.split('\n').slice(-lines).join('\n');

/** Counts the server's JSON log lines by level, and keeps a few warn/error lines. */
export function logSummary(logFile: string): { lines: number; byLevel: Record<string, number>; problems: string[] } {
  const names: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
  const byLevel: Record<string, number> = {};
  const problems: string[] = [];
  let lines = 0;
  if (!existsSync(logFile)) return { lines, byLevel, problems };
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    lines++;
    let level = 'unknown';
    try {
      const parsed = JSON.parse(line) as { level?: number };
      level = names[parsed.level ?? 0] ?? String(parsed.level);
    } catch {
      // a line cut by a kill
    }
    byLevel[level] = (byLevel[level] ?? 0) + 1;
    if (['warn', 'error', 'fatal', 'unknown'].includes(level) && problems.length < 5) problems.push(line.slice(0, 500));
  }
  return { lines, byLevel, problems };
}

// ---------------------------------------------------------------------------------------------
// The CLI
// ---------------------------------------------------------------------------------------------

export interface CliResult {
  argv: string[];
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI's `main` for each argv, in order, in ONE child process (tsx starts once). */
const CLI_BATCH = `
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
register();
const { main } = await import(pathToFileURL(join(process.cwd(), 'facades/cli/main.ts')).href);
const results = [];
for (const argv of JSON.parse(process.env.PACKLINE_BENCH_CLI_BATCH)) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => { out += t + '\\n'; }, err: (t) => { err += t + '\\n'; } });
  results.push({ argv, code, out, err });
}
process.stdout.write('\\n@@CLI_RESULTS@@' + JSON.stringify(results) + '\\n', () => process.exit(0));
`;

/**
 * Runs packline CLI commands (argv without the leading `packline`) against the data of `env`,
 * as `node bin/packline.js ...` would, in one child process. Returns one result per command;
 * a non-zero code does not throw.
 */
export async function runCli(env: NodeJS.ProcessEnv, commands: string[][]): Promise<CliResult[]> {
  const child = track(
    spawn(process.execPath, ['--input-type=module', '-e', CLI_BATCH], {
      cwd: ROOT,
      env: { ...env, PACKLINE_BENCH_CLI_BATCH: JSON.stringify(commands) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  const marker = stdout.lastIndexOf('@@CLI_RESULTS@@');
  if (code !== 0 || marker === -1) throw new Error(`CLI batch failed (exit ${code}):\n${tail(stdout)}\n${tail(stderr)}`);
  return JSON.parse(stdout.slice(marker + '@@CLI_RESULTS@@'.length)) as CliResult[];
}

export interface BenchKey {
  organizationId: string;
  key: string;
}

/**
 * Creates organizations (plan clan unless told) and one API key each through the CLI, so each
 * measured phase spends its own monthly quota. `warnings` lists CLI failures that did not
 * prevent a usable key (the key's creation proves the organization exists).
 */
export async function createOrgKeys(
  env: NodeJS.ProcessEnv,
  ids: string[],
  { plan = 'clan', scopes = 'organization:read,opportunities:read,events:read' }: { plan?: string; scopes?: string } = {},
): Promise<{ keys: BenchKey[]; warnings: string[] }> {
  const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
  const commands = ids.flatMap((id) => [
    ['orgs', 'create', '--id', id, '--name', `Bench ${id}`, '--plan', plan, '--json'],
    ['keys', 'create', '--org', id, '--scopes', scopes, '--expires-at', expiresAt, '--name', `bench ${id}`, '--json'],
  ]);
  const results = await runCli(env, commands);
  const keys: BenchKey[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    const org = results[2 * i]!;
    const key = results[2 * i + 1]!;
    if (key.code !== 0) {
      throw new Error(`packline ${key.argv.join(' ')} failed: ${key.err.trim()}${org.code !== 0 ? ` (and orgs create: ${org.err.trim()})` : ''}`);
    }
    if (org.code !== 0) warnings.push(`packline orgs create --id ${ids[i]} exited ${org.code} but the organization exists: ${org.err.trim()}`);
    keys.push({ organizationId: ids[i]!, key: (JSON.parse(key.out) as { key: string }).key });
  }
  return { keys, warnings: [...new Set(warnings.map((w) => w.replace(/--id \S+/, '--id …')))] };
}

// ---------------------------------------------------------------------------------------------
// Captured responses and the ceiling server
// ---------------------------------------------------------------------------------------------

export interface CapturedResponse {
  /** Path and query, as requested. */
  url: string;
  status: number;
  /** Response headers except those Node's http server adds itself (date, connection, keep-alive). */
  headers: Record<string, string>;
  body: Buffer;
  /** Keep-alive timeout the server announced, in ms (Node's default 5 s when absent). */
  keepAliveTimeoutMs: number;
}

const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** GETs `origin + url` once and keeps status, headers and exact body bytes. */
export async function capture(origin: string, url: string, headers: Record<string, string> = {}): Promise<CapturedResponse> {
  const res = await fetch(`${origin}${url}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const kept: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) kept[name] = value;
  });
  const timeout = /timeout=(\d+)/.exec(res.headers.get('keep-alive') ?? '');
  return { url, status: res.status, headers: kept, body, keepAliveTimeoutMs: timeout ? Number(timeout[1]) * 1000 : 5_000 };
}

/** A bare node:http server answering fixed bytes per URL; no work besides one Map lookup. */
const CEILING_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const spec = JSON.parse(fs.readFileSync(process.env.PACKLINE_BENCH_CEILING, 'utf8'));
const routes = new Map(spec.routes.map((r) => [r.url, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]));
const server = http.createServer({ keepAliveTimeout: spec.keepAliveTimeoutMs }, (req, res) => {
  const r = routes.get(req.url);
  if (r === undefined) {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
    return;
  }
  res.writeHead(r.status, r.headers);
  res.end(r.body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write('CEILING_LISTENING ' + server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

export interface CeilingServer {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts the ceiling: a bare node:http server in its own process (so it never shares an event
 * loop with the load generator) that returns exactly the captured bytes for each captured URL.
 */
export async function startCeiling(responses: CapturedResponse[], workDir = tempDir('packline-ceiling-')): Promise<CeilingServer> {
  const specFile = join(workDir, 'ceiling.json');
  const keepAliveTimeoutMs = Math.max(...responses.map((r) => r.keepAliveTimeoutMs));
  writeFileSync(
    specFile,
    JSON.stringify({ keepAliveTimeoutMs, routes: responses.map((r) => ({ url: r.url, status: r.status, headers: r.headers, body: r.body.toString('base64') })) }),
  );
  const child = track(spawn(process.execPath, ['-e', CEILING_SERVER], { env: { ...process.env, PACKLINE_BENCH_CEILING: specFile }, stdio: ['ignore', 'pipe', 'inherit'] }));
  const port = await new Promise<number>((done, fail) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const match = /CEILING_LISTENING (\d+)/.exec(text);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`ceiling server exited (${code}) before listening`)));
  });
  return { child, origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

// ---------------------------------------------------------------------------------------------
// CPU accounting: how much of the machine went to processes other than the benchmark's
// ---------------------------------------------------------------------------------------------

export interface CpuSnapshot {
  at: number;
  /** Busy ms summed over all cores. */
  machineBusyMs: number;
  /** CPU ms of the watched processes (Linux /proc; 0 where unreadable). */
  watchedMs: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

function processCpuMs(pid: number): number {
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
  } catch {
    return 0;
  }
}

export function cpuSnapshot(pids: number[] = []): CpuSnapshot {
  const machineBusyMs = cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
  return { at: performance.now(), machineBusyMs, watchedMs: pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) };
}

/** Busy share of the whole machine between two snapshots, all processes and the others only. */
export function cpuShare(before: CpuSnapshot, after: CpuSnapshot): { machinePercent: number; otherPercent: number } {
  const capacity = (after.at - before.at) * cpus().length;
  if (capacity <= 0) return { machinePercent: 0, otherPercent: 0 };
  const busy = after.machineBusyMs - before.machineBusyMs;
  const other = Math.max(0, busy - (after.watchedMs - before.watchedMs));
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
  /** Processes of the benchmark (servers); this process is always counted. */
  pids?: number[];
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
}

/** One autocannon run from this process (pipelining 1). Latencies count 2xx answers only. */
export async function load({ url, connections = 100, duration, headers = {}, authorizations = [], pids = [] }: LoadOptions): Promise<LoadResult> {
  const parsed = new URL(url);
  const path = `${parsed.pathname}${parsed.search}`;
  const requests = authorizations.length > 0 ? authorizations.map((authorization) => ({ method: 'GET', path, headers: { ...headers, authorization } })) : undefined;
  const watched = [process.pid, ...pids];
  const before = cpuSnapshot(watched);
  const result = await autocannon({ url, connections, pipelining: 1, duration, timeout: 10, ...(requests ? { requests } : { headers }) });
  const cpu = cpuShare(before, cpuSnapshot(watched));
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
  };
}

/** True when every answer was 2xx and nothing failed. */
export const clean = (r: LoadResult) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.total > 0;

// ---------------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------------

export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    freeMemoryGb: Math.round(freemem() / 2 ** 30),
  };
}

/** A GitHub-flavoured markdown table; numbers are right-aligned. */
export function markdownTable(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, 3, ...cells.map((row) => row[i]?.length ?? 0)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((row) => /^[\d.,\s%×x-]+$/.test(row[i] ?? '')));
  const line = (values: string[]) => `| ${values.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

export const formatInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const formatMs = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
export const formatPercent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** Writes `data` as indented JSON (creating nothing else). */
export function writeResults(path: string, data: unknown): void {
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}
