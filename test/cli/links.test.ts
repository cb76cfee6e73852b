// One address for links: the API server, started on a port of its own without PUBLIC_BASE_URL,
// records the address it serves under; the CLI (a process without PORT, so its own default would
// be :8080) and a process opened before the server started hand out links on that address, in
// the CLI output, the webhook payload and the API alike, and the link answers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPublicBaseUrl, loadConfig } from '../../core/config.ts';
import { coreOptions, openCore, PUBLIC, type Core } from '../../core/index.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { Receiver } from '../support/receiver.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { eventually, runJsonInProcess, spawnCli, type CliProcess } from './run-cli.ts';

/** The fields these commands print that the test reads. */
type CliJson = { id?: string; url?: string; key?: string };

const TOKEN = 'links-test-internal-token-0123456789';

describe('links from every process', () => {
  /** The CLI's environment: the server's but for HOST and PORT; no PUBLIC_BASE_URL for either. */
  let env: Record<string, string>;
  let port: number;
  let server: CliProcess | undefined;
  let early: Core | undefined;
  let receiver: Receiver;
  let dataDir: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'packline-links-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    env = {
      ...WEBHOOK_TEST_ENV,
      DATA_DIR: dataDir,
      INTERNAL_API_TOKEN: TOKEN,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...(process.env.REDIS_URL
        ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `packline-links-${randomBytes(4).toString('hex')}` }
        : {}),
    };
    port = await freePort();
    receiver = await new Receiver().start();
    // Everything the server needs before it starts, written by the CLI.
    await cli('migrate');
    await cli('orgs', 'create', '--id', 'links-co', '--name', 'Links Co', '--plan', 'clan');
    await cli('destinations', 'create', '--org', 'links-co', '--format', 'standard-json', '--url', receiver.url('/hook'));
    // A long-lived process opened before any server recorded an address (as a dispatcher would be).
    early = await openCore(coreOptions(loadConfig(env), { changePollMs: 50 }));
    expect(early.links.publicBaseUrl).toBe('http://127.0.0.1:8080');
    server = spawnCli(['start', '--no-demo'], { ...env, HOST: '127.0.0.1', PORT: String(port) });
    await server.waitForOutput(/Packline is listening/, 60_000);
  }, 120_000);

  afterAll(async () => {
    await early?.close();
    await server?.stop('SIGTERM');
    await receiver?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<CliJson> {
    return runJsonInProcess<CliJson>(args, env);
  }

  it("gives the server's address in the CLI output, the webhook payload and the API, and the link answers", async () => {
    const base = defaultPublicBaseUrl('127.0.0.1', port);
    expect(server!.stdout()).toContain(`REST API        ${base}/api/v1`);
    // Left to itself, the CLI would say :8080.
    expect(loadConfig(env, { persistSecrets: false }).publicBaseUrl).toBe('http://127.0.0.1:8080');

    const need = await cli(
      'needs',
      'publish',
      '--org',
      'links-co',
      '--title',
      'Surveyor for a canal lock',
      '--description',
      'Survey the lock walls.',
      '--expertise',
      'surveying',
    );
    const id = need.id ?? '';
    const link = `${base}/opportunities/${id}`;
    expect(need.url).toBe(link);

    await receiver.waitFor(() => receiver.on('/hook').some((r) => r.body.includes(id)), 'the need.created delivery');
    const delivered = receiver.on('/hook').find((r) => r.body.includes(id))!;
    expect(JSON.parse(delivered.body).data.url).toBe(link);

    const key = (await cli('keys', 'create', '--org', 'links-co', '--scopes', 'opportunities:read', '--expires-at', inDays(30))).key;
    const api = await fetch(`${base}/api/v1/opportunities/${id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    expect(((await api.json()) as { url: string }).url).toBe(link);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Surveyor for a canal lock</h1>');
  }, 120_000);

  it('reaches a process opened before the server started, within a poll of the change feed', async () => {
    const base = defaultPublicBaseUrl('127.0.0.1', port);
    await eventually(
      async () => early!.links.publicBaseUrl,
      (value) => value === base,
      { what: 'the recorded address' },
    );
    const { items } = await early!.services().needs.listPublic(PUBLIC, { first: 1 });
    expect(items[0]?.url).toBe(`${base}/opportunities/${items[0]?.id}`);
  });

  it('yields to PUBLIC_BASE_URL where it is set', async () => {
    const own = await openCore(coreOptions(loadConfig({ ...env, PUBLIC_BASE_URL: 'https://links.example.org/' })));
    try {
      expect(own.links.publicBaseUrl).toBe('https://links.example.org');
    } finally {
      await own.close();
    }
  });
});

describe('the default rule', () => {
  const config = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: tmpdir(), INTERNAL_API_TOKEN: TOKEN, ...env }, { persistSecrets: false });

  it('is http://HOST:PORT, a wildcard host shown as loopback, and PUBLIC_BASE_URL wins', () => {
    expect(config({}).publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(config({ HOST: '0.0.0.0', PORT: '3000' }).publicBaseUrl).toBe('http://127.0.0.1:3000');
    expect(config({ HOST: '::1', PORT: '3000' }).publicBaseUrl).toBe('http://[::1]:3000');
    expect(config({ PORT: '3000', PUBLIC_BASE_URL: 'https://api.example.org/' }).publicBaseUrl).toBe('https://api.example.org');
  });

  it('takes PUBLIC_SITE_URL as an absolute http(s) address, or refuses it', () => {
    expect(config({}).publicSiteUrl).toBeUndefined();
    expect(config({ PUBLIC_SITE_URL: 'https://www.example.org/' }).publicSiteUrl).toBe('https://www.example.org');
    expect(() => config({ PUBLIC_SITE_URL: 'www.example.org' })).toThrow(/PUBLIC_SITE_URL must be an absolute http\(s\) URL/);
  });
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
