import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { parsePrometheus } from '../ops/prometheus.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { internalGraphql, type MutationData } from '../support/graphql-data.ts';
import { Receiver } from '../support/receiver.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

const TOKEN = 'thread-test-internal-token-0123456789';

// `packline start` in role `all` runs the dispatcher on a thread of its own while there is webhook
// work (workers/dispatcher-thread.ts): the main thread starts it, hears of its attempts, and stops it.
describe('the dispatcher of `packline start` (role all)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packline-thread-'));
  const receiver = new Receiver();
  let server: CliProcess | undefined;
  let dropDatabase = async () => {};
  afterAll(async () => {
    server?.kill();
    await receiver.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers from its own thread, started by the work; counts the attempts; stops cleanly', async () => {
    await receiver.start();
    const database = await freshDatabaseUrl();
    dropDatabase = database.drop;
    server = spawnCli(['start', '--no-demo'], {
      ...WEBHOOK_TEST_ENV,
      PORT: '0',
      DATA_DIR: dataDir,
      INTERNAL_API_TOKEN: TOKEN,
      LOG_LEVEL: 'debug',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    await server.waitForOutput(/^Try: .*$/m, 45_000);
    const origin = `http://127.0.0.1:${server.stdout().match(/listening on 127\.0\.0\.1:(\d+)/)?.[1]}`;
    const graphql = internalGraphql(origin, TOKEN);
    // No webhook work yet: no thread.
    expect(server.stdout()).not.toContain('webhook dispatcher thread started');

    await graphql<MutationData<'createOrganization'>>(
      `mutation { createOrganization(input: { id: "thread-org", profile: { name: "Thread", plan: clan } }) { id } }`,
    );
    await graphql<MutationData<'createWebhookDestination'>>(
      `mutation($url: String!) { createWebhookDestination(input: { organizationId: "thread-org", format: "standard-json", url: $url }) { destination { id } } }`,
      { url: receiver.url('/thread') },
    );
    await graphql<MutationData<'publishNeed'>>(
      `mutation { publishNeed(input: { organizationId: "thread-org", title: "Surveyor", requiredExpertise: ["gis"] }) { id } }`,
    );
    await receiver.waitFor(() => receiver.on('/thread').length === 1, 'the delivery');

    const [line] = await server.waitForOutput(/^.*webhook dispatcher thread started.*$/m, 10_000);
    const started = JSON.parse(line) as { thread: number; worker: string };
    expect(started.worker).toBe('dispatcher');
    expect(started.thread).toBeGreaterThan(0);

    // The thread's attempts reach this process's metrics.
    let delivered = 0;
    for (let i = 0; i < 100 && delivered === 0; i++) {
      const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      delivered = parsePrometheus(await res.text()).count('packline_webhook_attempts_total', { outcome: 'delivered' });
      if (delivered === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(delivered).toBe(1);

    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(receiver.on('/thread')).toHaveLength(1);
  }, 60_000);
});
