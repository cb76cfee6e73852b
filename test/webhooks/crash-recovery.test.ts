import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { Receiver } from '../support/receiver.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { internalGraphql, type MutationData } from '../support/graphql-data.ts';

const TOKEN = 'crash-test-internal-token-0123456789';

describe('a dispatcher killed in the middle of a delivery', () => {
  const running: CliProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'packline-crash-'));
  const receiver = new Receiver();
  let dropDatabase = async () => {};
  afterAll(async () => {
    for (const proc of running) proc.kill();
    await receiver.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>) {
    const proc = spawnCli(['start', '--no-demo'], env);
    running.push(proc);
    await proc.waitForOutput(/^Try: .*$/m, 45_000);
    const port = Number(proc.stdout().match(/listening on 127\.0\.0\.1:(\d+)/)?.[1]);
    const graphql = internalGraphql(`http://127.0.0.1:${port}`, TOKEN);
    return { proc, graphql };
  }

  it('delivers every event at least once, in order, after a restart', async () => {
    await receiver.start();
    const database = await freshDatabaseUrl();
    dropDatabase = database.drop;
    const env = {
      ...WEBHOOK_TEST_ENV,
      PORT: '0',
      DATA_DIR: dataDir,
      INTERNAL_API_TOKEN: TOKEN,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
    const first = await start(env);
    await first.graphql<MutationData<'createOrganization'>>(
      `mutation { createOrganization(input: { id: "crash-org", profile: { name: "Crash", plan: clan } }) { id } }`,
    );
    await first.graphql<MutationData<'createWebhookDestination'>>(
      `mutation($url: String!) { createWebhookDestination(input: { organizationId: "crash-org", format: "standard-json", url: $url }) { destination { id } } }`,
      { url: receiver.url('/crash') },
    );
    receiver.plan('/crash', { hang: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const data = await first.graphql<MutationData<'publishNeed'>>(
        `mutation($title: String!) { publishNeed(input: { organizationId: "crash-org", title: $title, requiredExpertise: ["sql"] }) { id } }`,
        { title: `Need ${i}` },
      );
      ids.push(data.publishNeed.id);
    }
    // The first delivery is in flight (the receiver holds it): kill the process now.
    await receiver.waitFor(() => receiver.on('/crash').length >= 1, 'the first delivery');
    await first.proc.stop('SIGKILL');
    receiver.plan('/crash', { status: 200 });

    await start(env);
    const expected = ids.map((id) => `evt-need.created-${id}-v1`);
    await receiver.waitFor(
      () => expected.every((id) => receiver.on('/crash').some((r) => r.headers['x-service-event-id'] === id)),
      'every event after the restart',
    );
    const seen = receiver.on('/crash').map((r) => String(r.headers['x-service-event-id']));
    const firstSeen = seen.filter((id, i) => seen.indexOf(id) === i);
    expect(firstSeen).toEqual(expected);
    // The one cut off by the crash went out again.
    expect(seen.filter((id) => id === expected[0]).length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
