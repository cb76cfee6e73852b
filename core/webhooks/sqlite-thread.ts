// The SQLite thread of the dispatcher (see SqliteThreadRunner): carries out named scripts, one
// message at a time, in the order they were sent, and answers each.
import { parentPort, workerData } from 'node:worker_threads';
import type { ScriptName } from './delivery-scripts.ts';
import { SqliteConnection, SqliteScriptRunner } from './sqlite-connection.ts';

const connection = new SqliteConnection((workerData as { path: string }).path);
const runner = new SqliteScriptRunner(connection);
const port = parentPort!;

port.on('message', (message: { id: number; name: ScriptName; args: never } | { close: true }) => {
  if ('close' in message) {
    connection.close();
    port.close();
    return;
  }
  try {
    port.postMessage({ id: message.id, result: runner.call(message.name, message.args) });
  } catch (error) {
    const { message: text, code } = error as { message?: string; code?: string };
    port.postMessage({ id: message.id, error: { message: String(text ?? error), ...(code ? { code } : {}) } });
  }
});
