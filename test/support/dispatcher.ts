// A webhook dispatcher for tests that watch what it asks of the database: its store reaches the
// database through `runner` (a test wraps the real runner to count or slow its calls), it uses the
// core's change feed and URL policy, and it prepares nothing.
import { randomBytes } from 'node:crypto';
import type { Core } from '../../core/index.ts';
import { createLogger } from '../../core/logger.ts';
import { SecretBox } from '../../core/secret-box.ts';
import { DeliveryStore } from '../../core/webhooks/delivery-store.ts';
import type { ScriptRunner } from '../../core/webhooks/script-runners.ts';
import { Dispatcher } from '../../workers/dispatcher.ts';

export function dispatcherOver(runner: ScriptRunner, core: Core): { store: DeliveryStore; dispatcher: Dispatcher } {
  const store = new DeliveryStore(runner, SecretBox.fromBase64Key(randomBytes(32).toString('base64')));
  const dispatcher = new Dispatcher({
    store,
    preparer: { prepare: async () => [], close: async () => undefined },
    feed: core.feed,
    policy: core.urlPolicy,
    log: createLogger('silent'),
    retrySchedule: [1],
  });
  return { store, dispatcher };
}
