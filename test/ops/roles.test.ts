// `packline start --role api|dispatcher` as real processes over one database: the API process
// delivers nothing, the dispatcher serves nothing but its operator endpoints, and SIGTERM stops
// either gracefully (requests and attempts in flight, leases given back, exit code 0).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../core/db/orm.ts';
import { loadConfig } from '../../core/index.ts';
import { eventually, runCli, spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { internalGraphql, type MutationData } from '../support/graphql-data.ts';
import { Receiver } from '../support/receiver.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { scrape } from './prometheus.ts';

const TOKEN = 'roles-test-internal-token-0123456789';
const ORG = 'atelier-nord'; // demo organization on the Clan plan
/** The dispatcher's shutdown grace: far below the 8 s a receiver is given to answer. */
const DISPATCHER_GRACE_S = 1;

interface Running {
  proc: CliProcess;
  origin: string;
}

describe('roles: an API process and a dispatcher process over one database', () => {
  const running: CliProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'packline-roles-'));
  const receiver = new Receiver();
  let env: Record<string, string>;
  let db: Database | undefined;
  let dropDatabase = async () => {};
  let api: Running;
  let dispatcher: Running;
  let demoKey: string;
  let destinationId: string;

  beforeAll(async () => {
    await receiver.start();
    const database = await freshDatabaseUrl();
    dropDatabase = database.drop;
    env = {
      ...WEBHOOK_TEST_ENV,
      PORT: '0',
      DATA_DIR: dataDir,
      INTERNAL_API_TOKEN: TOKEN,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
  });
  afterAll(async () => {
    for (const proc of running) proc.kill();
    await db?.close(true);
    await receiver.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(role: 'api' | 'dispatcher', extra: Record<string, string> = {}): Promise<Running> {
    const proc = spawnCli(['start', '--role', role], { ...env, ...extra });
    running.push(proc);
    const [, port] = await proc.waitForOutput(
      role === 'api' ? /listening on 127\.0\.0\.1:(\d+)[\s\S]*^Try: /m : /dispatcher is listening on 127\.0\.0\.1:(\d+)/,
      45_000,
    );
    return { proc, origin: `http://127.0.0.1:${port}` };
  }

  /**
   * How `packline start` sized the process's heap: the V8 flags it re-executed itself with, and the
   * malloc arenas it set (run-cli.ts passes no MALLOC_ARENA_MAX of its own).
   */
  function heapSizing(proc: CliProcess) {
    const read = (file: string) => readFileSync(`/proc/${proc.child.pid}/${file}`, 'utf8').split('\0');
    return {
      flags: read('cmdline').filter((arg) => /^--max-(semi|old)-space-size=/.test(arg)),
      arenas: read('environ').find((variable) => variable.startsWith('MALLOC_ARENA_MAX=')),
    };
  }

  const graphql = <T = unknown>(query: string, variables: Record<string, unknown> = {}): Promise<T> =>
    internalGraphql(api.origin, TOKEN)<T>(query, variables);

  const publishNeed = async (title: string): Promise<string> =>
    (
      await graphql<MutationData<'publishNeed'>>(
        `mutation($title: String!) { publishNeed(input: { organizationId: "${ORG}", title: $title, requiredExpertise: ["sql"] }) { id } }`,
        { title },
      )
    ).publishNeed.id;

  /** The destination's lease and its deliveries, read from the database both processes share. */
  async function lane() {
    db ??= await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    const connection = db.em.fork().getConnection();
    const [destination] = await connection.execute<{ lease_owner: string | null; lease_expires_at: unknown }[]>(
      'select lease_owner, lease_expires_at from webhook_destinations where id = ?',
      [destinationId],
    );
    const deliveries: { event_id: string; status: string; attempts: number }[] = await connection.execute(
      'select event_id, status, attempts from webhook_deliveries where destination_id = ? order by seq',
      [destinationId],
    );
    return { leaseOwner: destination!.lease_owner, leaseExpiresAt: destination!.lease_expires_at, deliveries };
  }

  it('refuses an unknown role: --role exits 2 (usage) naming the roles it accepts, and so does ROLE', async () => {
    const flag = await runCli(['start', '--role', 'worker'], env);
    expect(flag.code).toBe(2);
    expect(flag.stdout).toBe('');
    expect(flag.stderr).toMatch(/^error: --role must be one of all, api, dispatcher \(got 'worker'\)/);
    // The variable is read with the rest of the configuration, whose errors `packline` prints the same way (test/cli/config.test.ts).
    expect(() => loadConfig({ ...env, ROLE: 'worker' }, { persistSecrets: false })).toThrow(
      /ROLE must be one of all, api, dispatcher \(got 'worker'\)/,
    );
    expect(loadConfig({ ...env, ROLE: 'Dispatcher' }, { persistSecrets: false }).role).toBe('dispatcher');
    expect(loadConfig(env, { persistSecrets: false })).toMatchObject({ role: 'all', shutdownGraceSeconds: 10 });
  });

  it('--role api serves the API and delivers nothing: changes wait in the outbox', async () => {
    api = await start('api');
    // Sized for the API's memory (facades/cli/server-sizing.js).
    expect(heapSizing(api.proc)).toEqual({
      flags: ['--max-semi-space-size=16', '--max-old-space-size=1024'],
      arenas: 'MALLOC_ARENA_MAX=2',
    });
    expect(api.proc.stdout()).toMatch(/Webhooks\s+not delivered by this process \(--role api\)/);
    demoKey = api.proc.stdout().match(/Demo API key\s+(live_\S+)/)![1]!;
    const list = await fetch(`${api.origin}/api/v1/opportunities?limit=1`, { headers: { authorization: `Bearer ${demoKey}` } });
    expect(list.status).toBe(200);
    const ready = await fetch(`${api.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    // No pool in this process: its metrics have no pool gauges.
    expect((await scrape(api.origin, TOKEN)).value('packline_preparer_pool_queue_size')).toBeUndefined();

    const created = await graphql<MutationData<'createWebhookDestination'>>(
      `mutation($url: String!) { createWebhookDestination(input: { organizationId: "${ORG}", format: "standard-json", url: $url, kinds: ["need.created"] }) { destination { id } } }`,
      { url: receiver.url('/roles') },
    );
    destinationId = created.createWebhookDestination.destination.id;
    await publishNeed('Hydrologist for a river survey');
    // A dispatcher fans a change out within a tick; here it stays in the outbox, unseen, for a full second and more.
    await eventually(
      async () => (await scrape(api.origin, TOKEN)).value('packline_outbox_lag_seconds'),
      (lag) => lag !== undefined && lag >= 1,
      { timeoutMs: 20_000, intervalMs: 100, what: 'an outbox lag of at least 1 s on the API process' },
    );
    expect(receiver.received).toEqual([]);
    expect((await lane()).deliveries).toEqual([]);
  });

  it('--role dispatcher delivers what waits, and answers /healthz, /readyz and /metrics only', async () => {
    dispatcher = await start('dispatcher', { SHUTDOWN_GRACE_SECONDS: String(DISPATCHER_GRACE_S) });
    // No API here: V8's own heap sizing and glibc's own arenas.
    expect(heapSizing(dispatcher.proc)).toEqual({ flags: [], arenas: undefined });
    const [delivered] = await receiver.waitFor((received) => received.length >= 1, 'the delivery made by the dispatcher process');
    expect(JSON.parse(delivered!.body)).toMatchObject({ type: 'need.created', data: { title: 'Hydrologist for a river survey' } });
    await eventually(
      async () => (await scrape(api.origin, TOKEN)).value('packline_outbox_lag_seconds'),
      (lag) => lag === 0,
      { timeoutMs: 20_000, intervalMs: 100, what: 'no outbox lag once the dispatcher runs' },
    );

    expect((await fetch(`${dispatcher.origin}/healthz`)).status).toBe(200);
    const ready = await fetch(`${dispatcher.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    for (const path of ['/api/v1/opportunities', '/graphql', '/mcp']) {
      const res = await fetch(`${dispatcher.origin}${path}`, { headers: { authorization: `Bearer ${demoKey}` } });
      expect(res.status, path).toBe(404);
    }
    expect((await fetch(`${dispatcher.origin}/metrics`)).status).toBe(401);
    await expect
      .poll(async () => (await scrape(dispatcher.origin, TOKEN)).value('packline_webhook_attempts_total', { outcome: 'delivered' }))
      .toBe(1);
    const scraped = await scrape(dispatcher.origin, TOKEN);
    expect(scraped.value('packline_preparer_pool_threads')).toBeGreaterThanOrEqual(1);
    expect(scraped.value('packline_outbox_lag_seconds')).toBe(0);
  });

  it('SIGTERM stops the dispatcher within its grace, cutting an attempt still in flight, and gives its lease back', async () => {
    receiver.plan('/roles', { hang: true });
    const needId = await publishNeed('Geologist for a quarry survey');
    const eventId = `evt-need.created-${needId}-v1`;
    await receiver.waitFor(
      (received) => received.some((r) => r.headers['x-service-event-id'] === eventId),
      'the attempt the receiver holds',
    );
    expect((await lane()).leaseOwner).toMatch(/:\d+:/);

    const signalled = Date.now();
    // The deadline (7 s) is below the 8 s the receiver would be given: only the grace can end the attempt.
    expect(await dispatcher.proc.stop('SIGTERM', 7_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(7_000);
    const after = await lane();
    expect(after.leaseOwner).toBeNull();
    expect(after.leaseExpiresAt).toBeNull();
    // The cut attempt is not recorded: the delivery waits, untouched, for the next dispatcher.
    expect(after.deliveries.find((d) => d.event_id === eventId)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(dispatcher.proc.stdout()).toMatch(/"msg":"stopped"/);
  });

  it('SIGTERM stops the API process: no new connection, the request in flight is answered, exit code 0', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    const url = new URL(`${api.origin}/graphql`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      // The interim 100 Continue proves the server has parsed the request and handed it over.
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
    });
    const handedOver = new Promise<void>((resolve) => req.once('continue', () => resolve()));
    req.flushHeaders();
    await handedOver;
    // Half of the body: the request stays in flight until the rest comes.
    req.write(body.slice(0, 10));

    api.proc.child.kill('SIGTERM');
    await eventually(
      () =>
        fetch(`${api.origin}/healthz`).then(
          () => 'accepted',
          () => 'refused',
        ),
      (outcome) => outcome === 'refused',
      { timeoutMs: 10_000, what: 'new connections refused' },
    );
    req.end(body.slice(10));
    const answered = await answer;
    expect(answered).toEqual({ status: 200, text: JSON.stringify({ data: { __typename: 'Query' } }) });
    expect(await api.proc.exited(15_000)).toEqual({ code: 0, signal: null });
  });
});
