// The computed-path ceiling: a hand-written server of the two opportunity reads, run as a child of
// bench:computed. node:http and the database driver alone (libsql with a raw-row prepared
// statement on SQLite, node-postgres with a named prepared statement on PostgreSQL), one query
// per request, no batching, no cache. It imports nothing of Packline: the statements' SQL comes in
// its spec (the parent reads it off Packline's own compiled statements), and it answers the same
// rows as the same JSON bytes with the same headers.
//
// The key check is a Map lookup of the bearer key (the keys come in the spec). The rate-limit and
// quota headers come from two counters per key in memory: they put the same header bytes on the
// wire and refuse past the limit, but share nothing with other processes.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import Database from 'libsql';
import pg from 'pg';

/** A statement parameter: a fixed value, or one bound per request. */
export type Slot = { fixed: unknown } | { bound: 'ids' | 'id' | 'at' | 'limit' };

export interface HandStatement {
  sql: string;
  slots: Slot[];
}

export interface HandServerSpec {
  database: 'sqlite' | 'postgresql';
  /** The SQLite file, or the PostgreSQL URL. */
  location: string;
  /** Pragmas of a SQLite connection (Packline's own). */
  sqlitePragmas: string;
  /** Connections of the PostgreSQL pool (Packline's pool size). */
  poolSize: number;
  publicBaseUrl: string;
  cursorSecret: string;
  keys: { key: string; organizationId: string; monthlyQuota: number }[];
  ratePerMinute: number;
  keepAliveTimeoutMs: number;
  statements: { byId: HandStatement; first: HandStatement; after: HandStatement };
}

type Row = unknown[];
type Params = { ids?: string[]; id?: string; at?: number; limit?: number };

const spec = JSON.parse(readFileSync(process.env.PACKLINE_BENCH_HAND_SPEC!, 'utf8')) as HandServerSpec;
const sqlite = spec.database === 'sqlite';

/** The statement's values for these parameters, as the driver takes them. */
function values({ slots }: HandStatement, p: Params): unknown[] {
  return slots.map((slot) => {
    if ('fixed' in slot) return sqlite && typeof slot.fixed === 'boolean' ? Number(slot.fixed) : slot.fixed;
    if (slot.bound === 'ids') return sqlite ? JSON.stringify(p.ids) : p.ids;
    if (slot.bound === 'at') return sqlite ? p.at : new Date(p.at!);
    return p[slot.bound];
  });
}

/** Runs a statement: its rows as arrays, and the index of each column by name. */
type Run = (statement: HandStatement, p: Params) => Promise<{ rows: Row[]; columns: Map<string, number> }>;

function sqliteRun(): Run {
  const db = new Database(spec.location);
  db.exec(`pragma busy_timeout = 10000; ${spec.sqlitePragmas}`);
  const prepared = new Map<string, { statement: ReturnType<typeof db.prepare>; columns: Map<string, number> }>();
  return async (statement, p) => {
    let found = prepared.get(statement.sql);
    if (!found) {
      const s = db.prepare(statement.sql).raw(true);
      found = { statement: s, columns: new Map(s.columns().map((c, i) => [c.name, i])) };
      prepared.set(statement.sql, found);
    }
    return { rows: found.statement.all(values(statement, p)) as Row[], columns: found.columns };
  };
}

function postgresRun(): Run {
  const pool = new pg.Pool({ connectionString: spec.location, max: spec.poolSize });
  const names = new Map<string, string>();
  return async (statement, p) => {
    let name = names.get(statement.sql);
    if (!name) {
      name = `hand_${names.size + 1}`;
      names.set(statement.sql, name);
    }
    const result = await pool.query({ name, text: statement.sql, values: values(statement, p), rowMode: 'array' });
    return { rows: result.rows as Row[], columns: new Map(result.fields.map((f, i) => [f.name, i])) };
  };
}

const run = sqlite ? sqliteRun() : postgresRun();
const ms = (v: unknown) => (typeof v === 'number' ? v : (v as Date).getTime());
const iso = (v: unknown) => (v == null ? null : new Date(ms(v)).toISOString());

/** An opportunity's JSON, as the public API writes it. */
function opportunity(row: Row, c: Map<string, number>) {
  const at = (name: string) => row[c.get(name)!];
  const id = at('id') as string;
  const city = at('city') ?? null;
  const region = at('region') ?? null;
  const country = at('country') ?? null;
  const expertise = at('required_expertise');
  return {
    id,
    title: at('title'),
    description: at('description'),
    required_expertise: typeof expertise === 'string' ? JSON.parse(expertise) : expertise,
    remote_allowed: Boolean(at('remote_allowed')),
    place: city === null && region === null && country === null ? null : { city, region, country },
    organization: { id: at('organization_id'), name: at('organizationName') },
    url: `${spec.publicBaseUrl}/opportunities/${encodeURIComponent(id)}`,
    published_at: iso(at('published_at')),
    updated_at: iso(at('updated_at')),
    deadline: iso(at('deadline')),
  };
}

// Cursors: base64url(JSON).base64url(HMAC-SHA-256) cut to 24 characters, the list's name signed in.
const sign = (body: string) => createHmac('sha256', spec.cursorSecret).update(body).digest('base64url').slice(0, 24);
const encodeCursor = (at: number, id: string) => {
  const body = Buffer.from(JSON.stringify({ l: 'opportunities', t: at, i: id })).toString('base64url');
  return `${body}.${sign(body)}`;
};
function decodeCursor(cursor: string): { at: number; id: string } | undefined {
  const dot = cursor.indexOf('.');
  if (dot <= 0 || cursor.length > 512 || cursor.slice(dot + 1) !== sign(cursor.slice(0, dot))) return undefined;
  try {
    const p = JSON.parse(Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8')) as { l?: unknown; t?: unknown; i?: unknown };
    return p.l === 'opportunities' && typeof p.t === 'number' && typeof p.i === 'string' ? { at: p.t, id: p.i } : undefined;
  } catch {
    return undefined;
  }
}

async function list(query: URLSearchParams): Promise<[number, unknown]> {
  const limit = Number(query.get('limit') ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) return [400, { code: 'invalid_parameter' }];
  const cursor = query.get('cursor');
  const after = cursor === null ? undefined : decodeCursor(cursor);
  if (cursor !== null && !after) return [400, { code: 'invalid_cursor' }];
  const { rows, columns } = after
    ? await run(spec.statements.after, { at: after.at, id: after.id, limit: limit + 1 })
    : await run(spec.statements.first, { limit: limit + 1 });
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  const next =
    rows.length > limit && last ? encodeCursor(ms(last[columns.get('published_at')!]), last[columns.get('id')!] as string) : null;
  return [200, { data: kept.map((row) => opportunity(row, columns)), meta: { next_cursor: next } }];
}

async function one(id: string): Promise<[number, unknown]> {
  const { rows, columns } = await run(spec.statements.byId, { ids: [id] });
  return rows.length === 0 ? [404, { code: 'not_found' }] : [200, opportunity(rows[0]!, columns)];
}

const keys = new Map(spec.keys.map((k) => [k.key, { ...k, minute: 0, used: 0 }]));
const monthly = new Map<string, number>();
const monthEnd = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;
let quotaReset = monthEnd(new Date());

function reply(res: ServerResponse, status: number, json: unknown, headers: (string | number)[]) {
  const body = Buffer.from(JSON.stringify(json));
  if (status === 200) headers.push('etag', `"${createHash('sha1').update(body).digest('base64url')}"`);
  headers.push('cache-control', 'no-store', 'content-type', 'application/json; charset=utf-8', 'content-length', body.length);
  res.writeHead(status, headers as unknown as string[]);
  res.end(body);
}

const PREFIX = '/api/v1/opportunities';
const server = createServer({ keepAliveTimeout: spec.keepAliveTimeoutMs }, (req, res) => {
  const headers: (string | number)[] = ['x-content-type-options', 'nosniff', 'x-request-id', randomUUID()];
  const auth = req.headers.authorization;
  const key = auth?.startsWith('Bearer ') ? keys.get(auth.slice(7)) : undefined;
  if (!key) return reply(res, 401, { code: 'invalid_key' }, headers);
  const now = Date.now();
  const minute = Math.floor(now / 60_000);
  if (key.minute !== minute) {
    [key.minute, key.used] = [minute, 0];
    quotaReset = monthEnd(new Date(now));
  }
  const used = (monthly.get(key.organizationId) ?? 0) + 1;
  monthly.set(key.organizationId, used);
  key.used++;
  headers.push('x-ratelimit-limit', spec.ratePerMinute, 'x-ratelimit-remaining', Math.max(0, spec.ratePerMinute - key.used));
  headers.push('x-ratelimit-reset', (minute + 1) * 60, 'x-monthly-quota-limit', key.monthlyQuota);
  headers.push('x-monthly-quota-remaining', Math.max(0, key.monthlyQuota - used), 'x-monthly-quota-reset', quotaReset);
  if (key.used > spec.ratePerMinute || used > key.monthlyQuota) return reply(res, 429, { code: 'rate_limited' }, headers);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const answer =
    path === PREFIX
      ? list(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)))
      : path.startsWith(`${PREFIX}/`)
        ? one(decodeURIComponent(path.slice(PREFIX.length + 1)))
        : Promise.resolve<[number, unknown]>([404, { code: 'not_found' }]);
  answer.then(
    ([status, json]) => reply(res, status, json, headers),
    (error: unknown) => {
      process.stderr.write(`hand-written server: ${String(error)}\n`);
      reply(res, 500, { code: 'internal_error' }, headers);
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`HAND_LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
