// Hygiene of a production start: the demo key is not printed unless asked for; what Packline
// writes to disk is the owner's only; every JSON answer outside the facades says nosniff.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';

const mode = (path: string) => statSync(path).mode & 0o777;
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('files on disk', () => {
  let stack: Stack;
  let dataDir: string;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'packline-private-'));
    roots.push(root);
    dataDir = join(root, 'nested', 'data');
    stack = await startStack({ env: { DATA_DIR: dataDir } });
  });
  afterAll(() => stack?.close());

  it('creates the data directory 0700 and every file in it 0600: database, -wal, -shm and keys', () => {
    // The demo data was written at start, so the write-ahead log exists.
    expect(mode(dataDir)).toBe(0o700);
    const files = ['data-encryption-key'];
    if (!stack.env.DATABASE_URL) files.push('packline.sqlite', 'packline.sqlite-wal', 'packline.sqlite-shm');
    for (const file of files) {
      const path = join(dataDir, file);
      expect(existsSync(path), file).toBe(true);
      expect(mode(path), file).toBe(0o600);
    }
  });
});

describe('nosniff', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
  });
  afterAll(() => stack?.close());

  it('is sent by /healthz, /readyz, /metrics, the top-level 404, GraphQL and the connectors’ own answers', async () => {
    const answers = [
      await fetch(`${stack.origin}/healthz`),
      await fetch(`${stack.origin}/readyz`),
      await fetch(`${stack.origin}/metrics`),
      await fetch(`${stack.origin}/metrics`, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } }),
      await fetch(`${stack.origin}/no/such/address`),
      await fetch(`${stack.origin}/.well-known/oauth-authorization-server`),
      await fetch(`${stack.origin}/token`, { method: 'POST' }),
      await fetch(`${stack.origin}/graphql`, { method: 'POST' }),
      await fetch(`${stack.origin}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      }),
      await fetch(`${stack.origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 200, 404, 200, 400, 401, 200, 200]);
    for (const res of answers) expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
  });
});

describe('a production start', () => {
  const running: CliProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const p of running) p.kill();
    for (const cleanup of cleanups) await cleanup();
  });

  async function start(env: Record<string, string>, ...args: string[]): Promise<{ banner: string; stop: () => Promise<unknown> }> {
    const proc = spawnCli(['start', ...args], env);
    running.push(proc);
    await proc.waitForOutput(/^Try: .*$/m, 45_000);
    return { banner: proc.stdout(), stop: () => proc.stop('SIGTERM') };
  }

  it('keeps the demo key out of stdout unless --show-demo-key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'packline-prod-'));
    const database = await freshDatabaseUrl();
    cleanups.push(async () => {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const env = {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PUBLIC_BASE_URL: 'https://packline.test',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...(process.env.REDIS_URL
        ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `packline-prod-${randomBytes(4).toString('hex')}` }
        : {}),
    };
    const quiet = await start(env);
    const key = readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim();
    expect(key).toMatch(/^live_/);
    expect(mode(join(dataDir, 'demo-api-key'))).toBe(0o600);
    expect(quiet.banner).not.toContain(key);
    expect(quiet.banner).not.toMatch(/live_/);
    expect(quiet.banner).toContain('print it with --show-demo-key');
    await quiet.stop();

    const asked = await start(env, '--show-demo-key');
    expect(asked.banner).toMatch(new RegExp(`^\\s*Demo API key\\s+${key}$`, 'm'));
    await asked.stop();
  });
});
