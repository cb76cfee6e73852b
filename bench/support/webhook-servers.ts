// The Packline server of the webhook benchmark: a child process on a fresh SQLite data directory.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT, freePort, logSummary, packlineEnv, stopChild, tempDir, track, type PacklineServer } from './processes.ts';
import { wallNow } from './webhook-graphql.ts';
import { profileFiles, type SqlReading } from './webhook-profile.ts';

const SQL_TRACE_MODULE = join(ROOT, 'bench/support/webhook-sql-trace.cjs');

/** Which delivery code a server ran: the commit, and a hash of the delivery sources as they were on disk. */
export interface SourceState {
  commit: string;
  /** sha256 (12 hex) over workers/*.ts, core/webhooks/*.ts and core/db/*.ts, read when the server started. */
  deliveryCodeHash: string;
  /** Files of those folders that differ from the commit (uncommitted edits). */
  uncommitted: string[];
}

const DELIVERY_CODE = ['workers', 'core/webhooks', 'core/db'];

/** The state of the delivery code now (others may be editing it while the benchmark runs). */
export function sourceState(): SourceState {
  const hash = createHash('sha256');
  for (const dir of DELIVERY_CODE) {
    for (const name of readdirSync(join(ROOT, dir))
      .filter((n) => n.endsWith('.ts'))
      .sort()) {
      hash.update(`${dir}/${name}\0`).update(readFileSync(join(ROOT, dir, name)));
    }
  }
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trimEnd();
    } catch {
      return '';
    }
  };
  return {
    commit: git('rev-parse', '--short', 'HEAD'),
    deliveryCodeHash: hash.digest('hex').slice(0, 12),
    uncommitted: git('status', '--porcelain', '--', ...DELIVERY_CODE)
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3)),
  };
}

export interface WebhookServer {
  server: PacklineServer;
  /** The delivery code on disk when the server started (and loaded it). */
  sources: SourceState;
  token: string;
  /**
   * Wall clock (ms since the epoch) when the banner reached this process through the server's
   * stdout pipe: the server prints it right after its HTTP listener and its dispatcher started.
   */
  listeningAt: number;
  /** Where `--cpu-prof` writes, when profiling. */
  profileDir?: string;
  /** With `sqlTrace`: the server's cumulative SQLite statement figures now (see webhook-sql-trace.cjs). */
  sqlReading(): Promise<SqlReading | undefined>;
  /** Stops the server (SIGTERM: graceful, so profiles get written) and summarizes its log. */
  stop(): Promise<{ exitCode: number | null; log: ReturnType<typeof logSummary>; profiles: string[] }>;
}

/**
 * `node [--cpu-prof …] bin/packline.js start --no-demo [--role R]` with a fresh DATA_DIR (SQLite)
 * or the given one, http and private receivers allowed, LOG_LEVEL=warn and the given internal
 * token. Like `startPackline` (processes.ts), which has no way to pass node flags: Node refuses
 * --cpu-prof in NODE_OPTIONS, so the profiler flags go on the command line (one profile per
 * thread, written at exit). Standard output comes through a pipe (and is copied to the log file),
 * so the moment the banner is printed is known to within the pipe's latency.
 */
export async function startWebhookServer({
  token,
  profile = false,
  sqlTrace = false,
  label,
  dataDir = tempDir(`packline-bench-${label}-`),
  role = 'all',
  timeoutMs = 90_000,
}: {
  token: string;
  profile?: boolean;
  sqlTrace?: boolean;
  label: string;
  /** Reuse a data directory (its database) of an earlier server. */
  dataDir?: string;
  role?: 'all' | 'api' | 'dispatcher';
  timeoutMs?: number;
}): Promise<WebhookServer> {
  const profileDir = profile ? join(dataDir, `cpu-profiles-${label}`) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const port = await freePort();
  const env = packlineEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
    LOG_LEVEL: 'warn',
    INTERNAL_API_TOKEN: token,
    // --require is allowed in NODE_OPTIONS (unlike --cpu-prof).
    ...(sqlTrace ? { NODE_OPTIONS: `--require=${SQL_TRACE_MODULE}`, PACKLINE_BENCH_SQL_TRACE: join(dataDir, `sql-trace-${label}`) } : {}),
  });
  const nodeArgs = [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []),
  ];
  const logFile = join(dataDir, `server-${label}.log`);
  const sources = sourceState();
  const fd = openSync(logFile, 'a');
  const child = track(
    spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin/packline.js'), 'start', '--no-demo', '--role', role], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', fd],
    }),
  );
  closeSync(fd);
  const banner = role === 'dispatcher' ? /dispatcher is listening on (\S+):(\d+)/ : /Packline is listening on (\S+):(\d+)[\s\S]*^Try: /m;
  let output = '';
  const listening = new Promise<{ port: number; at: number }>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const at = wallNow();
      appendFileSync(logFile, chunk);
      output += chunk.toString('utf8');
      const found = banner.exec(output);
      if (found) resolve({ port: Number(found[2]), at });
    });
  });

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const up = await Promise.race([listening, sleep(50).then(() => undefined)]);
    if (up) {
      const server: PacklineServer = {
        child,
        origin: `http://127.0.0.1:${up.port}`,
        port: up.port,
        dataDir,
        logFile,
        demoKey: '',
        env,
        stop: () => stopChild(child),
      };
      let readings = 0;
      return {
        server,
        sources,
        token,
        listeningAt: up.at,
        profileDir,
        async sqlReading() {
          if (!sqlTrace) return undefined;
          // Worker threads hand their figures over every 50 ms (webhook-sql-trace.cjs).
          await sleep(120);
          const file = join(dataDir, `sql-trace-${label}.${++readings}.json`);
          child.kill('SIGUSR2');
          for (let waited = 0; !existsSync(file); waited += 20) {
            if (waited > 10_000) throw new Error(`the server wrote no SQL reading in ${file}`);
            await sleep(20);
          }
          await sleep(20); // the write is synchronous, but let it finish
          return JSON.parse(readFileSync(file, 'utf8')) as SqlReading;
        },
        async stop() {
          // Generous grace: the profiler writes its files on the way out.
          await stopChild(child, 30_000);
          return { exitCode: child.exitCode, log: logSummary(logFile), profiles: profileDir ? profileFiles(profileDir) : [] };
        },
      };
    }
    const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`packline start exited (${child.exitCode ?? child.signalCode}) before listening:\n${text.slice(-3000)}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`packline start did not print its banner within ${timeoutMs} ms:\n${text.slice(-3000)}`);
    }
  }
}
