// One setting for links: the API server, its webhook dispatcher and the CLI, each its own process
// under the same environment without PUBLIC_BASE_URL, hand out the same link for the same need
// (the default rule, http://HOST:PORT), and that link answers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPublicBaseUrl, loadConfig } from '../../core/config.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { Receiver } from '../support/receiver.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { runCli, spawnCli, type CliProcess } from './run-cli.ts';

/** The fields these commands print that the test reads. */
type CliJson = { id?: string; url?: string; key?: string };

const TOKEN = 'links-test-internal-token-0123456789';

describe('links from every process', () => {
  let env: Record<string, string>;
  let server: CliProcess | undefined;
  let receiver: Receiver;
  let dataDir: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'packline-links-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    env = {
      ...WEBHOOK_TEST_ENV,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      INTERNAL_API_TOKEN: TOKEN,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...(process.env.REDIS_URL
        ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `packline-links-${randomBytes(4).toString('hex')}` }
        : {}),
    };
    receiver = await new Receiver().start();
    // Everything the server needs before it starts, written by the CLI.
    await cli('migrate');
    await cli('orgs', 'create', '--id', 'links-co', '--name', 'Links Co', '--plan', 'clan');
    await cli('destinations', 'create', '--org', 'links-co', '--format', 'standard-json', '--url', receiver.url('/hook'));
    server = spawnCli(['start', '--no-demo'], env);
    await server.waitForOutput(/Packline is listening/, 60_000);
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGTERM');
    await receiver?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<CliJson> {
    const result = await runCli([...args, '--json'], env);
    expect(result.code, `packline ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return (result.stdout.trim() ? JSON.parse(result.stdout) : {}) as CliJson;
  }

  it('gives the same link in the CLI output, the webhook payload and the API, and the link answers', async () => {
    const base = defaultPublicBaseUrl('127.0.0.1', Number(env.PORT));
    expect(loadConfig(env, { persistSecrets: false }).publicBaseUrl).toBe(base);

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
