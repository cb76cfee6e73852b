import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, seedDemo, type Config } from '../../core/index.ts';
import { createLogger } from '../../core/logger.ts';
import { createApp, type App } from '../../facades/http/app.ts';
import { freshDatabaseUrl } from './database.ts';

export const INTERNAL_TOKEN = 'test-internal-token-0123456789';
export const PUBLIC_BASE_URL = 'https://packline.test';

export interface Stack {
  app: App;
  config: Config;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** `${origin}/api/v1` */
  api: string;
  /** A key of the demo organization (atelier-nord, Clan) with every scope. */
  demoKey: string;
  /** Every log line written so far (JSON). */
  logs: string[];
  /** Environment for CLI processes that must reach the same database. */
  env: Record<string, string>;
  /** The whole environment the server was configured from (database, data directory, Redis prefix). */
  serverEnv: Record<string, string>;
  /** GET under /api/v1 with the demo key (or `key`). */
  get(path: string, options?: { key?: string | null; headers?: Record<string, string> }): Promise<Response>;
  /** Internal GraphQL over HTTP; throws on GraphQL errors unless `raw`. */
  graphql<T = unknown>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Stops the server (a process ending) and keeps the database: another instance can start `over` it. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** Internal GraphQL over HTTP at `origin` with the test's internal token; throws on GraphQL errors (their codes on `codes`). */
export function graphqlAt(origin: string): Stack['graphql'] {
  return async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length) {
      const error = new Error(body.errors.map((e) => e.message).join('; ')) as Error & { codes?: string[] };
      error.codes = body.errors.map((e) => e.extensions?.code ?? '');
      throw error;
    }
    return body.data as T;
  };
}

export interface StackOptions {
  env?: Record<string, string>;
  /** Load the demo data. @default true */
  demo?: boolean;
  /**
   * Listen on a port chosen beforehand and make its own `http://127.0.0.1:<port>` the public base
   * URL, as a real browser needs: the pages check a form's Origin against PUBLIC_BASE_URL and
   * set Secure cookies unless it is plain http on a loopback address. @default false
   */
  localOrigin?: boolean;
  /**
   * Another instance over the same database, data directory (so the same generated keys) and
   * Redis prefix as this stack: a second process, or the same one after a restart. Closing it
   * leaves them to their owner. Its demo data defaults to none (it is there already).
   */
  over?: Stack;
}

/** The whole service on a random port over a fresh database, as `npm start` runs it. */
export async function startStack({ env = {}, demo, localOrigin = false, over }: StackOptions = {}): Promise<Stack> {
  if (over) return startInstance(over, env, demo ?? false);
  const port = localOrigin ? await freePort() : 0;
  const publicBaseUrl = localOrigin ? `http://127.0.0.1:${port}` : PUBLIC_BASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'packline-test-'));
  const database = await freshDatabaseUrl();
  const stackEnv: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: publicBaseUrl,
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    LOG_LEVEL: 'info',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `packline-test-${randomBytes(4).toString('hex')}` } : {}),
    ...env,
  };
  const cliEnv = {
    ...env,
    DATA_DIR: dataDir,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    PUBLIC_BASE_URL: publicBaseUrl,
  };
  return launch(stackEnv, demo ?? true, cliEnv, async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** Another server over `over`'s database, data directory and Redis prefix. */
function startInstance(over: Stack, env: Record<string, string>, demo: boolean): Promise<Stack> {
  return launch({ ...over.serverEnv, PORT: '0', ...env }, demo, over.env, async () => {});
}

async function launch(
  stackEnv: Record<string, string>,
  demo: boolean,
  cliEnv: Record<string, string>,
  release: () => Promise<void>,
): Promise<Stack> {
  const config = loadConfig(stackEnv);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  const app = await createApp(config, createLogger(config.logLevel, { destination: sink, pretty: false }));
  let stopped: Promise<void> | undefined;
  const seeded = demo ? await seedDemo(app.core) : undefined;
  const address = await app.listen();
  const origin = `http://127.0.0.1:${address.port}`;
  const api = `${origin}/api/v1`;
  const demoKey = seeded?.demoApiKey?.key ?? '';
  return {
    app,
    config,
    origin,
    api,
    demoKey,
    logs,
    env: cliEnv,
    serverEnv: stackEnv,
    get(path, { key = demoKey, headers = {} } = {}) {
      return fetch(`${api}${path}`, { headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers } });
    },
    graphql: graphqlAt(origin),
    async stop() {
      stopped ??= app.close();
      await stopped;
    },
    async close() {
      stopped ??= app.close();
      await stopped;
      await release();
    },
  };
}

/** A port free right now: the kernel picks one, and it is released again for the service. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
