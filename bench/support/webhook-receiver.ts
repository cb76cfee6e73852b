// The webhook receiver of the benchmarks: a bare keep-alive node:http server in its own process.
//
// It answers every POST with 200 at once and only keeps what it got (path, headers, raw body,
// arrival time) in memory; all parsing and signature checks happen in the benchmark process after
// the timed part, from `dump()`. The same process serves the dispatcher phase and the ceiling
// phase, so both measure one sender process against the very same receiver process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild, tempDir, track } from './processes.ts';

/** One request as the receiver got it. */
export interface Receipt {
  /** Path and query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, decoded as UTF-8. */
  body: string;
  /** Arrival (end of body), ms since the epoch with sub-millisecond precision. */
  at: number;
}

export interface ReceiverCount {
  count: number;
  /** Arrival of the first and latest request since the last reset (NaN when none). */
  firstAt: number;
  lastAt: number;
}

export interface WebhookReceiver {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Forgets every request received so far. */
  reset(): Promise<void>;
  count(): Promise<ReceiverCount>;
  /** Every request received since the last reset, in arrival order. */
  dump(): Promise<Receipt[]>;
  stop(): Promise<void>;
}

/** Plain JS run with `node -e`: no imports besides node:http and node:fs. */
const RECEIVER = `
const http = require('node:http');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const OK = { 'content-type': 'text/plain', 'content-length': '2' };
let paths = [], heads = [], bodies = [], ats = [];
const server = http.createServer({ keepAliveTimeout: 65000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    paths.push(req.url);
    heads.push(req.headers);
    bodies.push(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    ats.push(at);
    res.writeHead(200, OK);
    res.end('ok');
  });
});
server.headersTimeout = 66000;
process.on('message', (m) => {
  const reply = (data) => process.send({ id: m.id, ...data });
  if (m.cmd === 'reset') {
    paths = []; heads = []; bodies = []; ats = [];
    return reply({});
  }
  if (m.cmd === 'count') return reply({ count: paths.length, firstAt: ats.length ? ats[0] : NaN, lastAt: ats.length ? ats[ats.length - 1] : NaN });
  if (m.cmd === 'dump') {
    const out = paths.map((path, i) => ({ path, headers: heads[i], body: bodies[i].toString('utf8'), at: ats[i] }));
    fs.writeFileSync(m.file, JSON.stringify(out));
    return reply({ file: m.file, count: out.length });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ listening: server.address().port }));
`;

/** Starts the receiver in a child process (IPC channel for control, nothing on the HTTP path). */
export async function startReceiver(workDir = tempDir('packline-receiver-')): Promise<WebhookReceiver> {
  const child = track(spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const pending = new Map<number, (data: Record<string, unknown>) => void>();
  let nextId = 1;
  const port = await new Promise<number>((done, fail) => {
    child.on('message', (message: { id?: number; listening?: number }) => {
      if (message.listening) return done(message.listening);
      const resolve = message.id === undefined ? undefined : pending.get(message.id);
      if (resolve) {
        pending.delete(message.id!);
        resolve(message as Record<string, unknown>);
      }
    });
    child.once('exit', (code) => fail(new Error(`the receiver exited (${code}) before listening`)));
  });
  const ask = <T>(cmd: string, extra: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error('the receiver process is gone'));
      const id = nextId++;
      pending.set(id, resolve as (data: Record<string, unknown>) => void);
      child.send({ id, cmd, ...extra });
    });
  let dumps = 0;
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    reset: () => ask<void>('reset'),
    count: () => ask<ReceiverCount>('count'),
    async dump() {
      const file = join(workDir, `receipts-${++dumps}.json`);
      await ask('dump', { file });
      return JSON.parse(readFileSync(file, 'utf8')) as Receipt[];
    },
    stop: () => stopChild(child),
  };
}

export interface WaitResult extends ReceiverCount {
  /** False when the count stopped growing for `stallMs` before reaching the target. */
  reached: boolean;
}

/**
 * Polls the receiver (every `pollMs`, over IPC: nothing on the HTTP path) until it holds `target`
 * requests, or until nothing new arrived for `stallMs`. Arrival times come from the receiver, so
 * the poll interval does not blur the figures.
 */
export async function waitForReceipts(
  receiver: WebhookReceiver,
  target: number,
  { stallMs = 60_000, pollMs = 100, onProgress }: { stallMs?: number; pollMs?: number; onProgress?: (count: number) => void } = {},
): Promise<WaitResult> {
  let last = -1;
  let lastChange = Date.now();
  let lastReport = Date.now();
  for (;;) {
    const now = await receiver.count();
    if (now.count >= target) return { ...now, reached: true };
    if (now.count !== last) {
      last = now.count;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > stallMs) {
      return { ...now, reached: false };
    }
    if (onProgress && Date.now() - lastReport >= 5_000) {
      lastReport = Date.now();
      onProgress(now.count);
    }
    await new Promise((done) => setTimeout(done, pollMs));
  }
}
