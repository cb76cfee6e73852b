import { expect, it } from 'vitest';
import { openTestCore } from '../../test/support/test-core.ts';

// The process closes the database right after the feed stops: stopping waits for the poll in
// flight, so no read is left running on a closing database.
it('stop() resolves once the poll in flight is over', async () => {
  const opened = await openTestCore('change-feed-stop');
  try {
    let polled = false;
    const poll = opened.core.feed.poll().then(() => {
      polled = true;
    });
    await opened.core.feed.stop();
    expect(polled).toBe(true);
    await poll;
  } finally {
    await opened.close();
  }
});
