// The shapes the HTTP composition's modules share (app.ts, dispatcher-app.ts, shutdown.ts), in a
// module of their own so that none of them imports another for a type.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Core } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import type { Dispatcher } from '../../workers/dispatcher.ts';
import type { DeliveryPreparer } from '../../workers/pool.ts';

export interface App {
  core: Core;
  /** The webhook dispatcher; undefined in the `api` role. */
  dispatcher: Dispatcher | undefined;
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

/** What a role that delivers webhooks runs: the dispatcher, over the process's preparer pool. */
export interface Delivery {
  dispatcher: Dispatcher;
  preparer: DeliveryPreparer;
}
