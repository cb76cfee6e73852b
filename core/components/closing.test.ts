import { afterEach, beforeEach, expect, it } from 'vitest';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';

// The process closes the database right after these parts stop: each waits for its own read or
// write in flight, so nothing is left running on a closing database.
let opened: TestCore;
beforeEach(async () => {
  opened = await openTestCore('closing');
});
afterEach(async () => {
  await opened.close();
});

it('ChangeFeed.stop() resolves once the poll in flight is over', async () => {
  let polled = false;
  const poll = opened.core.feed.poll().then(() => {
    polled = true;
  });
  await opened.core.feed.stop();
  expect(polled).toBe(true);
  await poll;
});

it('UsageRecorder.close() resolves once the flush in flight is over', async () => {
  const { usage } = opened.core;
  usage.record('o_closing');
  let flushed = false;
  // The timer's flush, as it would start just before the close.
  const flush = usage.flush().then(() => {
    flushed = true;
  });
  await usage.close();
  expect(flushed).toBe(true);
  await flush;
});
