import { Worker } from 'node:worker_threads';
import { type Database, type DatabaseKind, sqliteHandle } from '../db/orm.ts';
import { ScriptExecutor } from '../db/scripts.ts';
import { scriptNamed, type ScriptArgs, type ScriptName, type ScriptResult } from './delivery-scripts.ts';

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

/**
 * Runs scripts on a thread of their own, over a SQLite connection of its own (sqlite-thread.ts).
 * SQLite calls are synchronous: on the main thread, a fan-out of thousands of rows or a commit
 * held up by a checkpoint would stall every API request, and the dispatcher's sends with it.
 * Here they run beside the event loop, on the machine's other core.
 */
export class SqliteThreadRunner implements ScriptRunner {
  readonly kind = 'sqlite' as const;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private closed = false;

  private readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  call<N extends ScriptName>(name: N, args: ScriptArgs<N>): Promise<ScriptResult<N>> {
    if (this.closed) return Promise.reject(new Error(CLOSED));
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, name, args });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // Calls already sent finish first: the thread handles its messages in order. The thread is
    // unref'd while it serves; waiting for its exit must keep the process alive.
    worker.ref();
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ close: true });
    });
  }

  /** The thread, started on first use and again after a crash (calls in flight then fail). */
  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sqlite-thread.ts', import.meta.url), { workerData: { path: this.path } });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiter.resolve(reply.result);
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The delivery database thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/**
 * The runner for the database behind `db`: on SQLite a thread and a connection of its own (to the
 * same file); on PostgreSQL the ORM's own pool.
 */
export function createScriptRunner(db: Database): ScriptRunner {
  return sqliteHandle(db) ? new SqliteThreadRunner(db.config.get('dbName')!) : new PostgresScriptRunner(db);
}
