import { describe, expect, it } from 'vitest';
import { createScriptRunner, type ScriptRunner } from '../core/webhooks/script-runners.ts';
import { dispatcherOver } from '../test/support/dispatcher.ts';
import { openTestCore } from '../test/support/test-core.ts';

// The process closes the database right after the dispatcher stops, so stopping waits for every
// look at the database the dispatcher has in flight. (A pooled PostgreSQL connection handed out
// while the pool closes is never given back, and closing then waits forever.)
describe('Dispatcher.stop', () => {
  it('waits for the outbox watch’s look in flight', async () => {
    const opened = await openTestCore('dispatcher-stop');
    const runner = createScriptRunner(opened.core.db);
    let scanned = false;
    let inFlight = 0;
    let held = false;
    let looking: () => void = () => undefined;
    const watchLooks = new Promise<void>((resolve) => {
      looking = resolve;
    });
    // After the first tick's full look-around, the next look at the outbox is the watch's (every
    // 25 ms; the next tick is a second away): it is held for a while, as on a slow database.
    const slow: ScriptRunner = {
      kind: runner.kind,
      call: (name, args) => {
        if (name === 'outboxWaiting' && scanned && !held) {
          held = true;
          inFlight += 1;
          looking();
          return new Promise((resolve) => setTimeout(resolve, 100))
            .then(() => runner.call(name, args))
            .finally(() => {
              inFlight -= 1;
            });
        }
        const result = runner.call(name, args);
        if (name === 'destinationsWithWork')
          result.then(
            () => {
              scanned = true;
            },
            () => undefined,
          );
        return result;
      },
      close: () => runner.close(),
    };
    const { store, dispatcher } = dispatcherOver(slow, opened.core);
    dispatcher.start();
    await watchLooks;
    await dispatcher.stop();
    expect(inFlight).toBe(0);
    await store.close();
    await opened.close();
  });
});
