import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { coreOptions, openCore, outboxLagSeconds, pingDatabase, type Config, type Core, type Logger } from '../../core/index.ts';
import { Contexts } from '../../schema/index.ts';
import { tracingOn, tracingRequested } from '../../core/telemetry.ts';
import { Dispatcher } from '../../workers/dispatcher.ts';
import { DispatcherThread } from '../../workers/dispatcher-thread.ts';
import { createPreparer, poolStats } from '../../workers/pool.ts';
import type { App, Delivery } from './app-parts.ts';
import { createReadiness } from './health.ts';
import { Metrics } from './metrics.ts';
import { createOpsRoutes } from './ops-routes.ts';
import { stopApp } from './shutdown.ts';

export type { Delivery };

/**
 * The webhook dispatcher of a process: on this thread, or with `thread` on a thread of its own
 * while there is webhook work (DispatcherThread; what `packline start` runs in role `all`). With
 * traces on through the OTLP environment, the thread sends its spans there itself; traces on
 * without it (span processors given in process, as the tests do) keep the dispatcher here, where
 * those processors are.
 */
export function createDelivery(core: Core, config: Config, log: Logger, metrics: Metrics, { thread: onThread = false } = {}): Delivery {
  const dispatcherLog = log.child({ worker: 'dispatcher' });
  if (onThread && (!tracingOn || tracingRequested())) {
    const thread = new DispatcherThread({
      store: core.deliveryStore,
      feed: core.feed,
      log: dispatcherLog,
      thread: {
        databaseUrl: config.databaseUrl,
        sqlitePath: core.db.config.get('dbName')!,
        dataDir: config.dataDir,
        dataEncryptionKey: config.dataEncryptionKey,
        policy: core.urlPolicy,
        retrySchedule: config.webhooks.retrySchedule,
        leaseSeconds: config.webhooks.leaseSeconds,
        graceMs: config.shutdownGraceSeconds * 1000,
      },
      onAttempt: (outcome) => metrics.attempt(outcome),
    });
    return { start: () => thread.start(), stop: (graceMs) => thread.stop(graceMs), poolStats: () => thread.poolStats() };
  }
  const preparer = createPreparer('pool');
  const dispatcher = new Dispatcher({
    store: core.deliveryStore,
    preparer,
    feed: core.feed,
    policy: core.urlPolicy,
    log: dispatcherLog,
    retrySchedule: config.webhooks.retrySchedule,
    leaseSeconds: config.webhooks.leaseSeconds,
    onAttempt: (outcome) => metrics.attempt(outcome),
  });
  return {
    start: () => dispatcher.start(),
    stop: async (graceMs) => {
      await dispatcher.stop(graceMs);
      await preparer.close();
    },
    poolStats,
  };
}

/**
 * The `dispatcher` role: webhook delivery, and an HTTP listener that answers /healthz, /readyz
 * and /metrics only. No API, no Redis: limits belong to the API processes.
 */
export async function createDispatcherApp(config: Config, log: Logger): Promise<App> {
  const core = await openCore(coreOptions(config));
  const contexts = new Contexts(core, config.internalApiToken);
  const metrics = new Metrics({ outboxLag: () => outboxLagSeconds(core.db), pool: () => delivery.poolStats(), log });
  const readiness = createReadiness({ probes: { database: () => pingDatabase(core.db) }, log });
  const ops = createOpsRoutes({ readiness, metrics, isInternalToken: (token) => contexts.isInternalToken(token) });
  const delivery = createDelivery(core, config, log, metrics);

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    const url = req.url ?? '/';
    if (!ops.handles(url)) return notFound(res, requestId, url);
    ops.handle(req, res, requestId).catch((error: unknown) => {
      log.error({ req_id: requestId, err: error }, 'request failed');
      if (res.headersSent) return res.destroy();
      res.writeHead(500, {
        'content-type': 'application/json; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'x-request-id': requestId,
      });
      res.end(JSON.stringify({ error: 'internal_error' }));
    });
  });

  return {
    core,
    delivery,
    contexts,
    server,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          delivery.start();
          resolve(server.address() as AddressInfo);
        });
      }),
    close: () => stopApp({ server, readiness, delivery, core }, config.shutdownGraceSeconds * 1000),
  };
}

function notFound(res: ServerResponse, requestId: string, url: string) {
  const body = JSON.stringify({
    error: 'not_found',
    detail: `Nothing at ${url.split('?', 1)[0]}: this process runs the webhook dispatcher and answers /healthz, /readyz and /metrics only`,
  });
  res.writeHead(404, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
  });
  res.end(body);
}
