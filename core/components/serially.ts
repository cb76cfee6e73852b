/**
 * `work` made to run one call after another: a call starts once the previous one has settled, and
 * gets its own result or error. A part whose timer and `close()` both write uses it, so closing
 * waits for the timer's write in flight before the database is closed.
 */
export function serially(work: () => Promise<void>): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => {
    const run = last.then(work);
    last = run.catch(() => undefined);
    return run;
  };
}
