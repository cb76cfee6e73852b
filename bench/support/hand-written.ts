// The hand-written server's side in the benchmark: its spec, read off Packline's own compiled
// statements and settings, and its process.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Core } from '../../core/index.ts';
import { SQLITE_CONNECTION_PRAGMAS } from '../../core/db/sqlite-pragmas.ts';
import { STATEMENTS } from '../../core/components/public-statements.ts';
import type { HandServerSpec, HandStatement, Slot } from './hand-server.ts';
import { ROOT, stopChild, tempDir, track } from './processes.ts';

// Values no real parameter takes: where they land in the bound parameters is where each goes.
const IDS = '~ids~';
const ID = '~id~';
const AT = 86_400_123;
const LIMIT = 987_654_321;

function slotOf(value: unknown): Slot {
  if (value === ID) return { bound: 'id' };
  if (value === LIMIT) return { bound: 'limit' };
  if (value === AT || (value instanceof Date && value.getTime() === AT)) return { bound: 'at' };
  if ((typeof value === 'string' && value.includes(IDS)) || (Array.isArray(value) && value.includes(IDS))) return { bound: 'ids' };
  return { fixed: value };
}

/** A statement of Packline's read path as this database runs it, each parameter a fixed value or a slot. */
function statementOf(core: Core, statement: (typeof STATEMENTS)['needsById' | 'needsFirst' | 'needsAfter']): HandStatement {
  const params = { ids: [IDS], id: ID, publishedAt: new Date(AT), limit: LIMIT };
  const { sql, parameters } = core.statements.bound(statement as typeof STATEMENTS.needsAfter, params);
  return { sql, slots: parameters.map(slotOf) };
}

export interface HandServerOptions {
  core: Core;
  /** The SQLite file, or the PostgreSQL URL. */
  location: string;
  publicBaseUrl: string;
  keys: HandServerSpec['keys'];
  ratePerMinute: number;
  keepAliveTimeoutMs: number;
}

/** The spec of the hand-written server over the database `core` is open on. */
export async function handSpec({ core, location, ...rest }: HandServerOptions): Promise<HandServerSpec> {
  const connection = core.db.em.getConnection();
  const [secret] = (await connection.execute("select value from settings where key = 'cursor_secret'")) as { value: string }[];
  const pool = core.db.config.get('pool') as { max?: number } | undefined;
  return {
    database: core.statements.kind,
    location,
    sqlitePragmas: SQLITE_CONNECTION_PRAGMAS,
    poolSize: pool?.max ?? 10,
    cursorSecret: secret!.value,
    statements: {
      byId: statementOf(core, STATEMENTS.needsById),
      first: statementOf(core, STATEMENTS.needsFirst),
      after: statementOf(core, STATEMENTS.needsAfter),
    },
    ...rest,
  };
}

export interface HandServer {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

/** Starts bench/support/hand-server.ts in its own process with `spec`. */
export async function startHandServer(spec: HandServerSpec, workDir = tempDir('packline-hand-')): Promise<HandServer> {
  const specFile = join(workDir, 'hand-server.json');
  writeFileSync(specFile, JSON.stringify(spec), { mode: 0o600 });
  const child = track(
    spawn(process.execPath, [join(ROOT, 'bench/support/hand-server.ts')], {
      cwd: ROOT,
      env: { ...process.env, PACKLINE_BENCH_HAND_SPEC: specFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise<number>((done, fail) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const match = /HAND_LISTENING (\d+)/.exec(text);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`the hand-written server exited (${code}) before listening`)));
  });
  return { child, origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
