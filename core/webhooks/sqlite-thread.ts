// The SQLite thread of the dispatcher (see SqliteThreadRunner): carries out named scripts and
// answers each. Reads go first: a lane waiting for its queue is not held up behind a fan-out
// transaction of thousands of rows that arrived before it (callers that need a write before a
// read await the write, so the order between the two kinds of messages is free).
import { parentPort, workerData } from 'node:worker_threads';
import { RowCodec } from '../db/row-codec.ts';
import { SqliteConnection } from '../db/sqlite-connection.ts';
import { DELIVERY_SCRIPTS, scriptOf, type ScriptArgs, type ScriptName, type ScriptResult } from './delivery-scripts.ts';

/** Carries out the named scripts synchronously on one connection. */
export class SqliteScriptRunner {
  private readonly codec = new RowCodec('sqlite');

  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  call<N extends ScriptName>(name: N, args: ScriptArgs<N>): ScriptResult<N> {
    const { mode, script } = scriptOf(name, this.codec, args);
    return mode === 'read' ? this.connection.drive(script) : this.connection.transaction(() => this.connection.drive(script));
  }
}

interface Call {
  id: number;
  name: ScriptName;
  args: never;
}

const connection = new SqliteConnection((workerData as { path: string }).path);
const runner = new SqliteScriptRunner(connection);
const port = parentPort!;
const reads: Call[] = [];
const writes: Call[] = [];
let scheduled = false;
let closing = false;

port.on('message', (message: Call | { close: true }) => {
  if ('close' in message) closing = true;
  else (DELIVERY_SCRIPTS[message.name].mode === 'read' ? reads : writes).push(message);
  schedule();
});

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(drain);
}

/** Every waiting read, then one write; then back to the event loop for the messages that came meanwhile. */
function drain(): void {
  scheduled = false;
  for (let call = reads.shift(); call; call = reads.shift()) answer(call);
  const write = writes.shift();
  if (write) answer(write);
  if (reads.length > 0 || writes.length > 0) {
    schedule();
    return;
  }
  if (closing) {
    connection.close();
    port.close();
  }
}

function answer(call: Call): void {
  try {
    port.postMessage({ id: call.id, result: runner.call(call.name, call.args) });
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    port.postMessage({ id: call.id, error: { message: String(message ?? error), ...(code ? { code } : {}) } });
  }
}
