// The deep-page benchmark's pieces: a database per run, the seed, cursors minted from the
// database, the plans and in-process timings of the list queries, and load that never hits the cache.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { INTERNAL, openCore, type Core } from '../../core/index.ts';
import { CursorCodec } from '../../core/cursor.ts';
import { load, type LoadResult } from './load.ts';
import { ROOT, track } from './processes.ts';

export type List = 'opportunities' | 'events';
export const PAGE = 20;

/** A fresh PostgreSQL database on the server of `adminUrl`, or undefined when it cannot be reached. */
export async function temporaryPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `packline_bench_deep_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** `packline seed --needs N --events N --json` in a child; its progress lines pass through to stderr. */
export async function seed(
  env: NodeJS.ProcessEnv,
  needs: number,
  events: number,
): Promise<{ wallSeconds: number; summary: Record<string, unknown> }> {
  const started = performance.now();
  const child = track(
    spawn(process.execPath, [join(ROOT, 'bin/packline.js'), 'seed', '--needs', String(needs), '--events', String(events), '--json'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`packline seed exited ${code}: ${out}`);
  return { wallSeconds: (performance.now() - started) / 1000, summary: JSON.parse(out) as Record<string, unknown> };
}

/** The bench's own core on the server's database: cursors, plans and in-process timings. */
export function openBenchCore(env: NodeJS.ProcessEnv): Promise<Core> {
  return openCore({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR!,
    publicBaseUrl: 'http://127.0.0.1',
    dataEncryptionKey: randomBytes(32).toString('base64'),
    changePollMs: 60_000,
  });
}

async function execute<T>(core: Core, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await core.db.em.getConnection().execute(sql, params)) as T[];
}
const millis = (value: unknown) => (typeof value === 'number' ? value : new Date(value as string | Date).getTime());

export interface Positions {
  /** Items the list holds. */
  total: number;
  /** How many items precede the deep page. */
  deep: number;
  /** Cursors after items deep, deep + 1, …: the same cost, each a different page-cache key. */
  deepCursors: string[];
  /** Id the deep page must start with (checked over HTTP). */
  deepFirstId: string;
  /** Cursors before the first item (instants past its end): the first page's rows, each a different key. */
  firstCursors: string[];
}

const LIST_SQL: Record<List, { where: string; order: string; key: string }> = {
  opportunities: { where: "state = 'public' and demo = false", order: 'published_at desc, id desc', key: 'published_at' },
  events: { where: "status = 'public' and demo = false and ends_at > ?", order: 'starts_at asc, id asc', key: 'starts_at' },
};

/**
 * Cursors as the API mints them: the ordering key of the row at the position, read from the
 * database with the list's own filter and order, signed with the shared cursor secret.
 */
export async function positions(core: Core, list: List, wantedDeep: number, distinct: number): Promise<Positions> {
  const { where, order, key } = LIST_SQL[list];
  const table = list === 'opportunities' ? 'needs' : 'events';
  const params = list === 'events' ? [core.db.em.getPlatform().processDateProperty(new Date())] : [];
  const [count] = await execute<{ n: number | string }>(core, `select count(*) as n from ${table} where ${where}`, params);
  const total = Number(count!.n);
  const deep = Math.max(1, Math.min(wantedDeep, Math.floor(total * 0.9)));
  const rows = await execute<{ at: unknown; id: string }>(
    core,
    `select ${key} as at, id from ${table} where ${where} order by ${order} limit ? offset ?`,
    [...params, distinct + 1, deep - 1],
  );
  const [secret] = await execute<{ value: string }>(core, "select value from settings where key = 'cursor_secret'");
  const codec = new CursorCodec(secret!.value);
  const [edge] = await execute<{ at: unknown }>(core, `select ${key} as at from ${table} where ${where} order by ${order} limit 1`, params);
  const start = millis(edge!.at);
  const outside = (k: number) => (list === 'opportunities' ? start + 1 + k : start - 1 - k);
  return {
    total,
    deep,
    deepCursors: rows.slice(0, -1).map((r) => codec.encode(list, { at: millis(r.at), id: r.id })),
    deepFirstId: rows[1]!.id,
    firstCursors: Array.from({ length: distinct }, (_, k) => codec.encode(list, { at: outside(k), id: '' })),
  };
}

async function page(core: Core, list: List, after: string | undefined) {
  const services = core.services();
  const args = { first: PAGE, after };
  return list === 'opportunities' ? services.needs.listPublic(INTERNAL, args) : services.events.listPublic(INTERNAL, args);
}

/** The SQL the service runs for the first and the deep page, and the database's plan of each. */
export async function plans(
  core: Core,
  list: List,
  deepCursor: string,
  postgres: boolean,
): Promise<Record<'first' | 'deep', { sql: string; plan: string[] }>> {
  // Every statement the ORM runs passes its `onQuery` hook: the list statements are recorded
  // with their values written in, ready to explain.
  const config = core.db.config;
  const onQuery = config.get('onQuery');
  const seen: string[] = [];
  config.set('onQuery', (sql, params) => {
    if (/ order by /.test(sql)) seen.push(core.db.em.getPlatform().formatQuery(sql, params));
    return onQuery(sql, params);
  });
  try {
    await page(core, list, undefined);
    await page(core, list, deepCursor);
  } finally {
    config.set('onQuery', onQuery);
  }
  const explain = async (sql: string) => {
    const rows = await execute<Record<string, string>>(core, postgres ? `explain (analyze, buffers) ${sql}` : `explain query plan ${sql}`);
    return rows.map((r) => (postgres ? r['QUERY PLAN']! : r.detail!));
  };
  const [first, deep] = [seen[0]!, seen.at(-1)!];
  return { first: { sql: first, plan: await explain(first) }, deep: { sql: deep, plan: await explain(deep) } };
}

export interface Timing {
  calls: number;
  callsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    calls: samples.length,
    callsPerSec: Math.round(1000 / mean),
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    meanMs: round(mean),
  };
}

/**
 * The list query through the service, in this process, one call at a time: SQL, hydration and
 * the view, no GraphQL, HTTP or page cache. First and deep calls alternate, so noise hits both.
 */
export async function timeService(
  core: Core,
  list: List,
  deepCursors: string[],
  rounds: number,
): Promise<Record<'first' | 'deep', Timing>> {
  const first: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < rounds + 20; i++) {
    let t = performance.now();
    await page(core, list, undefined);
    const a = performance.now() - t;
    t = performance.now();
    await page(core, list, deepCursors[i % deepCursors.length]);
    const b = performance.now() - t;
    if (i < 20) continue; // the first 20 rounds warm up
    first.push(a);
    deep.push(b);
  }
  return { first: timing(first), deep: timing(deep) };
}

/**
 * Like `load`, but every request takes the next of `paths` (and of `authorizations`): with more
 * distinct paths than the page cache holds (10,000), no request is answered from the cache.
 */
export async function loadRotating({
  origin,
  paths,
  connections,
  duration,
  authorizations,
  pids,
}: {
  origin: string;
  paths: string[];
  connections: number;
  duration: number;
  authorizations: string[];
  pids: number[];
}): Promise<LoadResult> {
  const result = await load({ url: `${origin}${paths[0]}`, connections, duration, rotate: { paths, authorizations }, pids });
  return { ...result, url: `${origin}${paths[0]} (+${paths.length - 1} other cursors, in turn)` };
}
