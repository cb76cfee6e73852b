import { Worker } from 'node:worker_threads';
import { type Database, type DatabaseKind, sqliteHandle } from '../db/orm.ts';
import { ScriptExecutor } from '../db/scripts.ts';
import { tracingOn } from '../telemetry.ts';
import { runsOnCaller, scriptNamed, type ScriptArgs, type ScriptName, type ScriptResult } from './delivery-scripts.ts';

/** What the SQLite thread starts from. */
export interface SqliteThreadData {
  path: string;
  /** Traces are on in the thread that starts it: it sends its script spans through the same OTLP environment. */
  tracing: boolean;
}

/** Carries out the dispatcher's named scripts (delivery-scripts.ts) on one database. */
export interface ScriptRunner {
  readonly kind: DatabaseKind;
  call<N extends ScriptName>(name: N, args: ScriptArgs<N>): Promise<ScriptResult<N>>;
  close(): Promise<void>;
}

const CLOSED = 'The delivery store is closed';

/** Runs scripts on the ORM's PostgreSQL pool: a connection per script, a write script in a transaction of its own. */
export class PostgresScriptRunner implements ScriptRunner {
  readonly kind = 'postgresql' as const;
  private closed = false;

  private readonly executor: ScriptExecutor;

  constructor(db: Database) {
    this.executor = new ScriptExecutor(db, 'postgresql');
  }

  call<N extends ScriptName>(name: N, args: ScriptArgs<N>): Promise<ScriptResult<N>> {
    if (this.closed) return Promise.reject(new Error(CLOSED));
    return this.executor.run(name, scriptNamed(name), args);
  }

  /** Later calls are refused; the pool itself belongs to the ORM. */
  async close(): Promise<void> {
    this.closed = true;
  }
}

interface Reply {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

export interface SqliteRunnerOptions {
  /** How long the thread stays without a call that needs it before it stops. @default 30 s */
  idleMs?: number;
  /** Told when the thread starts, and when it has stopped for idleness. */
  onThread?: (event: 'started' | 'stopped') => void;
}

/** How long the SQLite thread stays without a call before it stops (see SqliteThreadRunner). */
const THREAD_IDLE_MS = 30_000;

/**
 * Runs scripts on a thread of their own, over a SQLite connection of its own (sqlite-thread.ts).
 * SQLite calls are synchronous: on the main thread, a fan-out of thousands of rows or a commit
 * held up by a checkpoint would stall every API request, and the dispatcher's sends with it.
 * Here they run beside the event loop, on the machine's other core.
 *
 * The thread runs only while there is webhook work. It starts on the first call that is neither a
 * probe nor a brief write, and stops after `idleMs` without one; while it is stopped, probes (a
 * few index entries read, asked many times a second by an idle dispatcher) and brief writes (the
 * outbox's rows marked while no destination is active) are carried out on the caller's own
 * connection. An instance that sends no webhooks so never holds the thread, its isolate and its
 * ORM (about 50 MiB).
 */
export class SqliteThreadRunner implements ScriptRunner {
  readonly kind = 'sqlite' as const;
  private thread: ScriptThread | undefined;
  /** Looks, a few times per `idleMs`, whether the thread has been idle that long. */
  private idleCheck: NodeJS.Timeout | undefined;
  /** A thread stopped for idleness, until it has exited. */
  private stopping: Promise<void> | undefined;
  private local: ScriptExecutor | undefined;
  private closed = false;

  /** The caller's own connection, for probes while the thread is stopped; none: probes start the thread too. */
  private readonly db: Database | undefined;
  private readonly path: string;
  private readonly idleMs: number;
  private readonly onThread: ((event: 'started' | 'stopped') => void) | undefined;

  /** Over the database behind `db`, or the file at `path` (then every call goes to the thread). */
  constructor(source: Database | string, options: SqliteRunnerOptions = {}) {
    this.db = typeof source === 'string' ? undefined : source;
    this.path = typeof source === 'string' ? source : source.config.get('dbName')!;
    this.idleMs = options.idleMs ?? THREAD_IDLE_MS;
    this.onThread = options.onThread;
  }

  /** Whether the thread runs now. */
  get threadRunning(): boolean {
    return this.thread !== undefined;
  }

  call<N extends ScriptName>(name: N, args: ScriptArgs<N>): Promise<ScriptResult<N>> {
    if (this.closed) return Promise.reject(new Error(CLOSED));
    if (!this.thread && runsOnCaller(name) && this.db) {
      this.local ??= new ScriptExecutor(this.db, 'sqlite');
      return this.local.run(name, scriptNamed(name), args);
    }
    // Started on first use, and again after a crash (the calls in flight then failed).
    if (this.thread?.ended) this.thread = undefined;
    if (!this.thread) {
      this.thread = new ScriptThread(this.path);
      this.watchIdleness();
      this.onThread?.('started');
    }
    return this.thread.call(name, args) as Promise<ScriptResult<N>>;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleCheck);
    const thread = this.thread;
    this.thread = undefined;
    await Promise.all([thread?.close(), this.stopping]);
  }

  /**
   * Stops the thread once it has had no call in flight for `idleMs`. A periodic look rather than a
   * timer reset on every call: a busy dispatcher makes thousands of calls a second.
   */
  private watchIdleness(): void {
    clearInterval(this.idleCheck);
    this.idleCheck = setInterval(
      () => {
        const thread = this.thread;
        if (!thread) return clearInterval(this.idleCheck);
        if (thread.busy || Date.now() - thread.lastActive < this.idleMs) return;
        clearInterval(this.idleCheck);
        this.thread = undefined;
        const stopping = thread.close().then(() => this.onThread?.('stopped'));
        this.stopping = stopping;
        void stopping.finally(() => {
          if (this.stopping === stopping) this.stopping = undefined;
        });
      },
      Math.max(1, Math.floor(this.idleMs / 4)),
    );
    this.idleCheck.unref();
  }
}

/** One run of the SQLite thread: its calls in flight fail if it stops before answering them. */
class ScriptThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private stopped: Error | undefined;
  /** When a call was last sent or answered (Date.now()). */
  lastActive = Date.now();

  constructor(path: string) {
    const worker = new Worker(new URL('./sqlite-thread.ts', import.meta.url), {
      workerData: { path, tracing: tracingOn } satisfies SqliteThreadData,
    });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiter.resolve(reply.result);
      this.lastActive = Date.now();
    });
    const lost = (error: Error) => {
      this.stopped ??= error;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The delivery database thread stopped (exit code ${code})`)));
    this.worker = worker;
  }

  get busy(): boolean {
    return this.waiting.size > 0;
  }

  /** Whether the thread has stopped (closed, or crashed). */
  get ended(): boolean {
    return this.stopped !== undefined;
  }

  call(name: ScriptName, args: unknown): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    this.lastActive = Date.now();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, name, args });
    });
  }

  /** Calls already sent finish first: the thread handles its messages in order. */
  async close(): Promise<void> {
    if (this.stopped) return;
    // The thread is unref'd while it serves; waiting for its exit must keep the process alive.
    this.worker.ref();
    await new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ close: true });
    });
  }
}

/**
 * The runner for the database behind `db`: on SQLite a thread and a connection of its own (to the
 * same file); on PostgreSQL the ORM's own pool.
 */
export function createScriptRunner(db: Database): ScriptRunner {
  return sqliteHandle(db) ? new SqliteThreadRunner(db) : new PostgresScriptRunner(db);
}
