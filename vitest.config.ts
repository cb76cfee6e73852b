import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The multi-instance suite (test/cluster) runs processes over one shared PostgreSQL database and
 * one Redis, so it belongs to the run that has both: `.ci/run`'s second pass.
 */
const sharedDependencies = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

export default defineConfig({
  // One graphql module for everyone: libraries loaded by Node and sources loaded by Vite would
  // otherwise get the CommonJS and ESM builds, which refuse each other's types.
  resolve: { alias: { graphql: createRequire(import.meta.url).resolve('graphql') } },
  test: {
    // Two projects: `unit`, the fast tests beside the code (`npm run test:unit`, seconds), and
    // `integration`, test/ (whole stacks in-process, CLI processes, the browser, the cluster).
    // `npm test` runs both.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Unit test files share their worker process's modules: the code (about 900 modules)
          // loads once per worker, not once per file, which was half of this project's time
          // (24 s → 12 s). Each file still opens a database of its own and closes what it opens;
          // nothing here uses vi.mock, and a test that changes a module's setting
          // (core/passwords.test.ts) sets it back.
          isolate: false,
          include: [
            'core/**/*.test.ts',
            'schema/**/*.test.ts',
            'facades/**/*.test.ts',
            'workers/**/*.test.ts',
            'consumer-kit/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // The same for the whole-stack files: each starts its own stack over a fresh database
          // and closes it, so a worker's modules can serve one file after another. Loading them
          // for every file was a quarter of the suite's time (npm test 476 s → 284 s, SQLite, the
          // same hour). What a stack shares through its modules is written to be shared: the
          // preparer's thread pool is leased (workers/pool.ts), and closing waits for every read
          // in flight (Dispatcher.stop, ChangeFeed.stop, the flushes), so no file's close leaves
          // work running against the next one's database.
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(sharedDependencies ? [] : ['test/cluster/**'])],
        },
      },
    ],
    setupFiles: ['test/support/setup.ts'],
    pool: 'forks',
    // A guard against hangs, not a timing goal: tests that spawn CLI processes (each one a Node
    // start-up, a few seconds on a loaded two-core machine) need room on a busy CI run.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // expect.poll waits on other processes and the webhook dispatcher; a generous ceiling keeps
    // loaded CI machines from failing a condition that is only slow to become true.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    // Each file gets its own database (and Redis prefix); files run two at a time on two cores.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
