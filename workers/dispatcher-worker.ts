// The webhook dispatcher on a thread of its own (see DispatcherThread, dispatcher-thread.ts): the
// same Dispatcher, store and preparer pool as on the main thread, away from the event loop that
// serves the API. On SQLite it opens no ORM (its scripts run on the SQLite thread it starts, as
// the main thread's would); on PostgreSQL, a pool of its own. The main thread tells it the change
// feed's version; it tells the main thread its attempts, its pool's figures and its log lines, and
// stops by itself once it has had nothing to do for `idleMs`.
import { parentPort, workerData } from 'node:worker_threads';
import { stdSerializers } from 'pino';
import { connectDatabase } from '../core/db/orm.ts';
import { SecretBox } from '../core/secret-box.ts';
import { startTelemetry, stopTelemetry } from '../core/telemetry.ts';
import { DeliveryStore } from '../core/webhooks/delivery-store.ts';
import { PostgresScriptRunner, SqliteThreadRunner } from '../core/webhooks/script-runners.ts';
import { Dispatcher } from './dispatcher.ts';
import type { AttemptNext, DispatcherThreadData, FromDispatcherThread, RelayedLogLevel, ToDispatcherThread } from './dispatcher-thread.ts';
import { createPreparer, poolStats } from './pool.ts';

/** How often attempts and the pool's figures are handed to the main thread. */
const REPORT_MS = 250;

const data = workerData as DispatcherThreadData;
const port = parentPort!;
const post = (message: FromDispatcherThread) => port.postMessage(message);

const relay = (level: RelayedLogLevel) => (fields: Record<string, unknown>, message: string) => {
  const { err, ...rest } = fields;
  const serialized = err === undefined ? rest : { ...rest, err: stdSerializers.err(err as Error) };
  try {
    post({ log: { level, fields: serialized, message } });
  } catch {
    // A field that cannot be cloned (a library's error carrying a function): the line goes with the error's type and message only.
    const error = err as Error | undefined;
    post({ log: { level, fields: { err: { type: error?.name ?? 'Error', message: String(error?.message ?? err) } }, message } });
  }
};
const log = { error: relay('error'), warn: relay('warn') };

// Before the database opens: its statements are instrumented only when traces are on.
if (data.tracing) await startTelemetry();
const db = data.databaseUrl ? await connectDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir, migrator: false }) : undefined;
const store = new DeliveryStore(
  db ? new PostgresScriptRunner(db) : new SqliteThreadRunner(data.sqlitePath),
  SecretBox.fromBase64Key(data.dataEncryptionKey),
);
const preparer = createPreparer('pool');

/** The main thread's change feed, as far as the dispatcher reads it. */
const listeners = new Set<() => void>();
const feed = {
  version: data.feedVersion,
  onChange(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

let lastActive = Date.now();
let attempts: AttemptNext[] = [];
const dispatcher = new Dispatcher({
  store,
  preparer,
  feed,
  policy: data.policy,
  log,
  retrySchedule: data.retrySchedule,
  leaseSeconds: data.leaseSeconds,
  onAttempt: (outcome) => {
    lastActive = Date.now();
    attempts.push(outcome.next);
  },
});

function flushAttempts(): void {
  if (attempts.length === 0) return;
  post({ attempts });
  attempts = [];
}

const report = setInterval(() => {
  flushAttempts();
  post({ pool: poolStats() ?? null });
}, REPORT_MS);

let stopping: Promise<void> | undefined;
/** Stops the dispatcher (attempts in flight get `graceMs`), closes what it opened, and ends the thread. */
function stop(graceMs: number): Promise<void> {
  stopping ??= (async () => {
    clearInterval(idleCheck);
    await dispatcher.stop(graceMs);
    clearInterval(report);
    flushAttempts();
    await preparer.close();
    await store.close();
    await db?.close(true);
    // The spans still buffered go out before the thread ends.
    await stopTelemetry().catch(() => undefined);
    // Whatever a library still holds open (a keep-alive socket, a timer) does not keep the thread.
    process.exit(0);
  })();
  return stopping;
}

/** Nothing sent for `idleMs`, no outbox row waiting and no delivery waiting: the thread stops, the main thread watches again. */
const idleCheck = setInterval(
  () => {
    if (stopping || Date.now() - lastActive < data.idleMs) return;
    void Promise.all([store.outboxWaiting(), store.destinationsWithWork()]).then(
      ([waiting, lanes]) => {
        if (waiting || lanes.length > 0) lastActive = Date.now();
        else void stop(data.graceMs);
      },
      () => undefined,
    );
  },
  Math.max(1, Math.floor(data.idleMs / 4)),
);

port.on('message', (message: ToDispatcherThread) => {
  if ('version' in message) {
    feed.version = message.version;
    for (const listener of listeners) listener();
  } else void stop(message.stop);
});

post({ started: true });
dispatcher.start();
