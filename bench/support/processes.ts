// Child processes of the benchmarks: temporary directories and cleanup, the Packline server, the CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/support/../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

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

export function track(child: ChildProcess): ChildProcess {
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
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'REDIS_PREFIX',
    'LOG_LEVEL',
    'PUBLIC_BASE_URL',
    'PORT',
    'HOST',
    'DATA_DIR',
    'RATE_LIMIT_PER_MINUTE',
    'INTERNAL_API_TOKEN',
    'NODE_OPTIONS',
  ]) {
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
  /** The checkout whose bin/packline.js runs (another version of the code). @default ROOT */
  root?: string;
  /** The Node that runs it. @default this process's */
  node?: string;
}

/**
 * Starts `node bin/packline.js start` and waits for its banner. Output goes straight to a file
 * (not a pipe), so the server never waits on the benchmark process to read its logs.
 */
export async function startPackline({
  dataDir = tempDir('packline-bench-'),
  env = {},
  args = [],
  timeoutMs = 90_000,
  root = ROOT,
  node = process.execPath,
}: StartPacklineOptions = {}): Promise<PacklineServer> {
  const port = await freePort();
  const childEnv = packlineEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env });
  const logFile = join(dataDir, 'server.log');
  const fd = openSync(logFile, 'a');
  const child = track(
    spawn(node, [join(root, 'bin/packline.js'), 'start', ...args], { cwd: root, env: childEnv, stdio: ['ignore', fd, fd] }),
  );
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

/** Runs the CLI's `main` for each argv, in order, in ONE child process (Node starts once). */
const CLI_BATCH = `
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
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
      throw new Error(
        `packline ${key.argv.join(' ')} failed: ${key.err.trim()}${org.code !== 0 ? ` (and orgs create: ${org.err.trim()})` : ''}`,
      );
    }
    if (org.code !== 0)
      warnings.push(`packline orgs create --id ${ids[i]} exited ${org.code} but the organization exists: ${org.err.trim()}`);
    keys.push({ organizationId: ids[i]!, key: (JSON.parse(key.out) as { key: string }).key });
  }
  return { keys, warnings: [...new Set(warnings.map((w) => w.replace(/--id \S+/, '--id …')))] };
}
