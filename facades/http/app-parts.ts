// The shapes the HTTP composition's modules share (app.ts, dispatcher-app.ts, shutdown.ts), in a
// module of their own so that none of them imports another for a type.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Core } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import type { PoolStats } from '../../workers/dispatcher-thread.ts';

export interface App {
  core: Core;
  /** Webhook delivery; undefined in the `api` role. */
  delivery: Delivery | undefined;
  contexts: Contexts;
  server: Server;
  /** Starts listening on the configured host and port (0 picks a free port). */
  listen(): Promise<AddressInfo>;
  /**
   * Stops accepting connections, lets requests and delivery attempts in flight finish (within
   * SHUTDOWN_GRACE_SECONDS), gives the dispatcher's leases back, closes the pool and the database.
   */
  close(): Promise<void>;
}

/** What a role that delivers webhooks runs: the dispatcher and its preparer pool, here or on a thread of their own. */
export interface Delivery {
  start(): void;
  /** Stops taking work; attempts in flight get `graceMs`; gives the leases back and closes the pool. */
  stop(graceMs: number): Promise<void>;
  /** The preparer pool's figures for metrics; undefined while it does not run. */
  poolStats(): PoolStats | undefined;
}
