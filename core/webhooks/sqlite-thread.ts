// The SQLite thread of the dispatcher (see SqliteThreadRunner): carries out named scripts on a
// connection of its own, through an ORM of its own over the same file (the SQL layer needs the
// entity metadata), and answers each. Reads go first: a lane waiting for its queue is not held up
// behind a fan-out transaction of thousands of rows that arrived before it (callers that need a
// write before a read await the write, so the order between the two kinds of messages is free).
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { connectDatabase } from '../db/orm.ts';
import { ScriptExecutor } from '../db/scripts.ts';
import { startTelemetry, stopTelemetry } from '../telemetry.ts';
import type { SqliteThreadData } from './script-runners.ts';
import { type ScriptName, scriptNamed, writes } from './delivery-scripts.ts';

interface Call {
  id: number;
  name: ScriptName;
  args: never;
}

const { path, tracing } = workerData as SqliteThreadData;
// Before the database opens: with traces on, every script is a span, sent by this thread's own tracer.
if (tracing) await startTelemetry();
const db = await connectDatabase({ dataDir: dirname(path), sqlitePath: path, migrator: false });
const executor = new ScriptExecutor(db, 'sqlite');
const port = parentPort!;
const reads: Call[] = [];
const writesWaiting: Call[] = [];
let draining = false;
let closing = false;

port.on('message', (message: Call | { close: true }) => {
  if ('close' in message) closing = true;
  else (writes(message.name) ? writesWaiting : reads).push(message);
  void drain();
});

/** Every waiting read, then one write, until nothing waits; then closes when asked to. */
async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  try {
    for (;;) {
      const call = reads.shift() ?? writesWaiting.shift();
      if (!call) break;
      await answer(call);
    }
    if (closing) {
      await db.close(true);
      // A collector that cannot be reached does not keep the thread: its spans are lost, as a crash would lose them.
      await stopTelemetry().catch(() => undefined);
      port.close();
    }
  } finally {
    draining = false;
  }
}

async function answer(call: Call): Promise<void> {
  try {
    port.postMessage({ id: call.id, result: await executor.run(call.name, scriptNamed(call.name), call.args) });
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    port.postMessage({ id: call.id, error: { message: String(message ?? error), ...(code ? { code } : {}) } });
  }
}
