// The computed-path benchmark's pieces: the paths that never hit a cache, the byte-for-byte check
// of two servers' answers and CPU per answer.
import { readFileSync, readdirSync } from 'node:fs';
import type { Core } from '../../core/index.ts';
import { CursorCodec } from '../../core/cursor.ts';
import { capture } from './ceiling.ts';
import { cpuSnapshot } from './load.ts';

const PUBLIC_NEEDS = "from needs where state = 'public' and demo = false";

async function execute<T>(core: Core, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await core.db.em.getConnection().execute(sql, params)) as T[];
}
const millis = (value: unknown) => (typeof value === 'number' ? value : new Date(value as string | Date).getTime());

/** Fisher-Yates, with a fixed seed: both servers and every run see the same order. */
function shuffled<T>(items: T[], seed = 1): T[] {
  const out = [...items];
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** By-id paths of every public need, in a shuffled order. */
export async function byIdPaths(core: Core): Promise<string[]> {
  const rows = await execute<{ id: string }>(core, `select id ${PUBLIC_NEEDS}`);
  return shuffled(rows.map((r) => `/api/v1/opportunities/${encodeURIComponent(r.id)}`));
}

/**
 * List paths after `count` positions spread evenly over the whole list, each signed as the API
 * signs its cursors (the shared cursor secret), in a shuffled order: every one a different page,
 * shallow and deep alike.
 */
export async function listPaths(core: Core, count: number, limit: number): Promise<string[]> {
  const rows = await execute<{ at: unknown; id: string }>(
    core,
    `select published_at as at, id ${PUBLIC_NEEDS} order by published_at desc, id desc`,
  );
  const [secret] = await execute<{ value: string }>(core, "select value from settings where key = 'cursor_secret'");
  const codec = new CursorCodec(secret!.value);
  const step = Math.max(1, Math.floor(rows.length / count));
  const paths: string[] = [];
  for (let i = 0; i < rows.length && paths.length < count; i += step) {
    const cursor = codec.encode('opportunities', { at: millis(rows[i]!.at), id: rows[i]!.id });
    paths.push(`/api/v1/opportunities?limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
  }
  return shuffled(paths);
}

/** Headers whose values must match; the others (request id, limits' counters) must only be present on both. */
const SAME_VALUES = ['content-type', 'content-length', 'cache-control', 'etag', 'x-content-type-options'];

/** Differences between the answers of `a` and `b` to each path: status, body bytes, headers. */
export async function compareAnswers(a: string, b: string, paths: string[], authorization: string): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    const [x, y] = await Promise.all([capture(a, path, { authorization }), capture(b, path, { authorization })]);
    const where = path.length > 80 ? `${path.slice(0, 77)}...` : path;
    if (x.status !== y.status) problems.push(`${where}: status ${x.status} against ${y.status}`);
    if (!x.body.equals(y.body)) problems.push(`${where}: bodies differ (${x.body.length} against ${y.body.length} bytes)`);
    const names = (h: Record<string, string>) => Object.keys(h).sort().join(',');
    if (names(x.headers) !== names(y.headers)) problems.push(`${where}: headers [${names(x.headers)}] against [${names(y.headers)}]`);
    for (const name of SAME_VALUES)
      if (x.headers[name] !== y.headers[name]) problems.push(`${where}: ${name} ${x.headers[name]} against ${y.headers[name]}`);
    if (x.keepAliveTimeoutMs !== y.keepAliveTimeoutMs)
      problems.push(`${where}: keep-alive ${x.keepAliveTimeoutMs} against ${y.keepAliveTimeoutMs} ms`);
  }
  return problems;
}

/** CPU ms a process has used so far (user and system, all its threads). */
export const cpuMs = (pid: number) => cpuSnapshot([pid]).watchedMs;

/** PostgreSQL's server processes serving the database `name`, found by their titles in /proc. */
export function backendPids(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (title.startsWith('postgres:') && title.includes(` ${name} `)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
