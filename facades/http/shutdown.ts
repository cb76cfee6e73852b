// Graceful stop: no new connections, requests and delivery attempts in flight finish, bounded.
import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import type { Core } from '../../core/index.ts';
import type { Delivery } from './app-parts.ts';
import type { Readiness } from './health.ts';

/** How often connections that went idle during a drain are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * Stops accepting connections and lets requests in flight finish; after `graceMs`, cuts the
 * connections still open. Keep-alive connections close as soon as they have nothing in flight
 * (Node would otherwise keep them until their keep-alive timeout).
 */
export async function closeServer(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return;
  // Answers given from now on tell the client to close: no further request rides the connection.
  const closeAfter = (_req: unknown, res: { shouldKeepAlive: boolean }) => {
    res.shouldKeepAlive = false;
  };
  server.prependListener('request', closeAfter);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
    server.off('request', closeAfter);
  }
}

export interface RunningParts {
  server: Server;
  readiness: Readiness;
  /** Absent in the `api` role. */
  delivery: Delivery | undefined;
  core: Core;
  redis?: Redis | undefined;
}

/**
 * The stop sequence of every role: report not ready, drain HTTP and let delivery attempts in
 * flight finish (both within `graceMs`), give the dispatcher's leases back (`Dispatcher.stop`),
 * then close the preparer pool, the database and Redis.
 */
export async function stopApp({ server, readiness, delivery, core, redis }: RunningParts, graceMs: number): Promise<void> {
  readiness.stop();
  await Promise.all([closeServer(server, graceMs), delivery?.stop(graceMs)]);
  await core.close();
  redis?.disconnect();
}
