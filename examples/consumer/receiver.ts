// Example Packline webhook consumer: verify, deduplicate durably, apply, answer fast, re-read.
//
//   WEBHOOK_SECRET=whsec_… PACKLINE_API_URL=http://127.0.0.1:8080/api/v1 PACKLINE_API_KEY=live_… \
//     node examples/consumer/receiver.ts
//
// Env: PORT (default 8787), WEBHOOK_SECRET (comma-separated during your own rotation),
// PACKLINE_API_URL, PACKLINE_API_KEY, CONSUMER_DB (default ./consumer.db).
// Node's http, the consumer kit and SQLite (libsql) only: no framework.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import { verifyWebhook, WebhookVerificationError, type WebhookEnvelope } from '../../consumer-kit/index.ts';
import { MIRROR, SCHEMA, effectOf, storeStatement, upsertStatement, type Db, type Effect, type Kind } from './mirror.ts';

/** Largest accepted request body; larger ones get 413 without being read further. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Where deliveries are posted. */
export const WEBHOOK_PATH = '/webhooks/packline';

export interface ReceiverLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface ReceiverOptions {
  /** The signing secret(s) shown when the destination was created (`whsec_…`). */
  secret: string | string[];
  /** Base URL of the REST API, e.g. `http://127.0.0.1:8080/api/v1`. */
  apiUrl: string;
  /** API key with `opportunities:read` and `events:read` (never the signing secret). */
  apiKey: string;
  /** SQLite file. @default './consumer.db' */
  dbPath?: string;
  /** Port to listen on; 0 picks a free one. @default 8787 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Signature timestamp tolerance in seconds. @default 300 */
  toleranceSeconds?: number;
  /**
   * Every so often, re-read the rows whose refresh failed (`pending_refresh = 1`); 0 disables it.
   * Pending rows are also retried once at start.
   * @default 60000
   */
  retryIntervalMs?: number;
  /** Timeout of one API read. @default 10000 */
  apiTimeoutMs?: number;
  /** @default JSON lines on stdout/stderr */
  logger?: ReceiverLogger;
}

export interface Receiver {
  server: Server;
  db: Db;
  /** `http://host:port` the server listens on. */
  url: string;
  /** Resolves once no background re-read is running (tests await it instead of sleeping). */
  idle(): Promise<void>;
  /** Re-reads every row still marked `pending_refresh = 1`; resolves when done. */
  refreshPending(): Promise<void>;
  /** Stops accepting requests, waits for background re-reads, closes the database. */
  close(): Promise<void>;
}

const consoleLogger: ReceiverLogger = {
  info: (message, fields) => console.log(JSON.stringify({ level: 'info', time: new Date().toISOString(), message, ...fields })),
  warn: (message, fields) => console.error(JSON.stringify({ level: 'warn', time: new Date().toISOString(), message, ...fields })),
};

/** Opens the database, starts the HTTP server and resolves once it listens. */
export async function createReceiver(options: ReceiverOptions): Promise<Receiver> {
  const log = options.logger ?? consoleLogger;
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const apiTimeoutMs = options.apiTimeoutMs ?? 10_000;
  const secrets = typeof options.secret === 'string' ? [options.secret] : [...options.secret];
  if (secrets.length === 0 || secrets.some((s) => !s)) throw new TypeError('createReceiver needs a signing secret');

  const db = new Database(options.dbPath ?? './consumer.db');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec(SCHEMA);

  const statements = {
    recordEvent: db.prepare(
      'INSERT INTO processed_events (event_id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING',
    ),
    upsert: {
      opportunity: upsertStatement(db, 'opportunities'),
      event: upsertStatement(db, 'events'),
    },
    remove: {
      opportunity: db.prepare('DELETE FROM opportunities WHERE id = ?'),
      event: db.prepare('DELETE FROM events WHERE id = ?'),
    },
    generation: {
      opportunity: db.prepare('SELECT generation FROM opportunities WHERE id = ?'),
      event: db.prepare('SELECT generation FROM events WHERE id = ?'),
    },
    store: {
      opportunity: storeStatement(db, 'opportunities'),
      event: storeStatement(db, 'events'),
    },
    removeIfCurrent: {
      opportunity: db.prepare('DELETE FROM opportunities WHERE id = ? AND generation = ?'),
      event: db.prepare('DELETE FROM events WHERE id = ? AND generation = ?'),
    },
    pending: db.prepare(
      "SELECT 'opportunity' AS kind, id FROM opportunities WHERE pending_refresh = 1 UNION ALL SELECT 'event', id FROM events WHERE pending_refresh = 1",
    ),
  };

  /**
   * The rule of docs/service-contract.md#consumer-rules: the event id goes in under its uniqueness constraint in the SAME
   * transaction as the business effect. Returns false for a duplicate (nothing else is done).
   */
  const applyOnce = db.transaction((envelope: WebhookEnvelope, effect: Effect | undefined): boolean => {
    const inserted = statements.recordEvent.run(envelope.id, envelope.type, new Date().toISOString());
    if (inserted.changes === 0) return false; // already processed: a redelivery
    if (effect?.action === 'upsert') statements.upsert[effect.kind].run(effect.id, envelope.id);
    if (effect?.action === 'delete') statements.remove[effect.kind].run(effect.id);
    return true;
  });

  // Background re-reads: at most one per resource at a time, tracked so idle() can await them.
  const running = new Map<string, Promise<void>>();
  let closed = false;

  function scheduleRefresh(kind: Kind, id: string): void {
    const key = `${kind}:${id}`;
    if (closed || running.has(key)) return; // a running re-read notices a newer generation and loops
    const task = refreshLoop(kind, id)
      .catch((error: unknown) => log.warn('re-read failed; left pending for retry', { kind, id, error: errorText(error) }))
      .finally(() => running.delete(key));
    running.set(key, task);
  }

  /** Re-reads until the stored state matches the latest signal, or a read fails (left pending). */
  async function refreshLoop(kind: Kind, id: string): Promise<void> {
    for (;;) {
      const row = statements.generation[kind].get(id) as { generation: number } | undefined;
      const generation = row?.generation;
      if (generation === undefined || closed) return; // deleted meanwhile (withdrawn/cancelled)
      const result = await fetchResource(kind, id);
      if (closed) return;
      const applied =
        result.status === 'found'
          ? statements.store[kind].run(
              stringOrNull(result.body.title),
              stringOrNull(result.body.url),
              JSON.stringify(result.body),
              new Date().toISOString(),
              id,
              generation,
            )
          : statements.removeIfCurrent[kind].run(id, generation);
      if (applied.changes > 0) {
        log.info(result.status === 'found' ? 're-read stored' : 'no longer public; local row deleted', { kind, id });
        return;
      }
      // A newer signal arrived while reading (generation moved) or the row is gone: look again.
    }
  }

  async function fetchResource(kind: Kind, id: string): Promise<{ status: 'found'; body: Record<string, unknown> } | { status: 'gone' }> {
    const response = await fetch(`${apiUrl}/${MIRROR[kind].path}/${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(apiTimeoutMs),
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return { status: 'gone' };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      // 401/403: fix the key; 429/5xx: transient. Either way the row stays pending for a retry.
      throw new Error(`GET ${MIRROR[kind].path}/{id} answered ${response.status}`);
    }
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('API answered a non-object');
    return { status: 'found', body: body as Record<string, unknown> };
  }

  async function refreshPending(): Promise<void> {
    for (const row of statements.pending.all() as { kind: Kind; id: string }[]) scheduleRefresh(row.kind, row.id);
    await idle();
  }

  async function idle(): Promise<void> {
    while (running.size > 0) await Promise.allSettled([...running.values()]);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WEBHOOK_PATH) {
      reply(res, 404, { error: 'not_found' });
      return;
    }
    if (req.method !== 'POST') {
      reply(res, 405, { error: 'method_not_allowed' }, { allow: 'POST' });
      return;
    }

    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      tooLarge(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (chunk: Buffer) => {
      if (aborted) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        aborted = true;
        chunks.length = 0;
        return tooLarge(req, res);
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      aborted = true;
    });
    req.on('end', () => {
      if (aborted) return;
      try {
        receive(Buffer.concat(chunks, size), req, res);
      } catch (error) {
        log.warn('request failed', { error: errorText(error) });
        reply(res, 500, { error: 'internal_error' });
      }
    });
  }

  function receive(body: Buffer, req: IncomingMessage, res: ServerResponse): void {
    let envelope: WebhookEnvelope;
    try {
      envelope = verifyWebhook(
        body,
        req.headers,
        secrets,
        options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds },
      );
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log.warn('delivery refused', { reason: error.reason });
      reply(res, 401, { error: error.reason });
      return;
    }

    const effect = effectOf(envelope);
    if (effect === null) {
      reply(res, 400, { error: 'malformed_data' });
      return;
    }

    let fresh: boolean;
    try {
      fresh = applyOnce(envelope, effect);
    } catch (error) {
      // Nothing was committed: a 5xx makes Packline deliver it again later.
      log.warn('could not store the delivery', { event_id: envelope.id, error: errorText(error) });
      reply(res, 500, { error: 'storage_failed' });
      return;
    }
    if (!fresh) {
      log.info('duplicate delivery ignored', { event_id: envelope.id });
      reply(res, 200, { duplicate: true });
      return;
    }
    log.info('delivery applied', { event_id: envelope.id, type: envelope.type });
    reply(res, 200, { received: true });
    // After the answer: the network read never delays the 2xx (Packline waits 8 s at most).
    if (effect?.action === 'upsert') scheduleRefresh(effect.kind, effect.id);
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      log.warn('request failed', { error: errorText(error) });
      if (!res.headersSent) reply(res, 500, { error: 'internal_error' });
    }
  });
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const retryIntervalMs = options.retryIntervalMs ?? 60_000;
  const sweep = (): void => {
    refreshPending().catch((error: unknown) => log.warn('retry sweep failed', { error: errorText(error) }));
  };
  const timer = retryIntervalMs > 0 ? setInterval(sweep, retryIntervalMs) : undefined;
  timer?.unref();
  sweep(); // rows whose re-read failed before a restart

  return {
    server,
    db,
    url: `http://${host}:${address.port}`,
    idle,
    refreshPending,
    async close() {
      if (timer) clearInterval(timer);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await stopped;
      await idle();
      closed = true;
      db.close();
    },
  };
}

function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  reply(res, 413, { error: 'payload_too_large' }, { connection: 'close' });
  req.resume(); // discard the rest; the connection closes after the answer
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  const required = (name: string): string => {
    const value = process.env[name];
    if (!value) {
      console.error(`${name} is required (see examples/consumer/README.md)`);
      process.exit(1);
    }
    return value;
  };
  const receiver = await createReceiver({
    secret: required('WEBHOOK_SECRET')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    apiUrl: required('PACKLINE_API_URL'),
    apiKey: required('PACKLINE_API_KEY'),
    dbPath: process.env.CONSUMER_DB ?? './consumer.db',
    port: Number(process.env.PORT ?? 8787),
  });
  console.log(`Consumer listening on ${receiver.url}${WEBHOOK_PATH}`);
  const stop = (): void => {
    receiver.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
