/**
 * Computed-path ceiling: `npm run bench:computed` (SQLite), `npm run bench:computed -- --postgresql`
 * (SQLite, then PostgreSQL at 127.0.0.1:5432, user postgres), or with DATABASE_URL set (SQLite,
 * then PostgreSQL on that server); `--postgresql-only` skips SQLite. PostgreSQL runs on a fresh
 * temporary database, dropped after.
 *
 * How close does Packline come to a hand-written server when no answer comes from a cache? Per
 * database:
 *
 * 1. starts Packline (`packline start`, a child), bulk-seeds N public needs (`packline seed`);
 * 2. starts the hand-written server (support/hand-server.ts, another child): node:http and the
 *    driver's prepared statement (libsql raw rows; node-postgres named statement, array rows),
 *    running the SQL of Packline's own compiled statements, one query per request; a Map lookup
 *    checks the key. A sample of answers (by id, first page, cursor pages, the last page) is
 *    checked byte for byte, with the headers, against Packline's;
 * 3. loads GET /api/v1/opportunities/{id} and GET /api/v1/opportunities?limit=20&cursor=… with
 *    autocannon: every request takes the next of every public need's id (shuffled), or of
 *    BENCH_COMPUTED_CURSORS cursors spread over the whole list: more distinct answers than the page
 *    cache keeps (10,000 entries, each valid within its 5 s window), so every answer is computed;
 * 4. alternates the servers in rounds, the order flipped each round (Packline, hand-written,
 *    hand-written, Packline, …), each round starting at another place in the paths.
 *
 * Printed per endpoint and server: req/s, p50/p99 (means over rounds), CPU µs per answer of the
 * server process (on PostgreSQL also of the database's backends: the benchmark's work, not noise);
 * the ratio Packline/hand-written of req/s against its target (by id ≥ 0.7, list ≥ 0.8), and the
 * peak resident memory of the Packline process (VmHWM; ≤ 256 MiB), with the largest samples of its
 * anonymous and file-mapped parts (SQLite maps its file). Missed targets print MISSED; the exit code
 * stays 0 (a measurement, not a test).
 *
 * Environment: BENCH_COMPUTED_NEEDS (default 100,000), BENCH_COMPUTED_CURSORS (20,000),
 * BENCH_ROUNDS (rounds per server and endpoint, 2), BENCH_DURATION (s per round, 10), BENCH_WARMUP
 * (s, 3), BENCH_CONNECTIONS (50), BENCH_WAIT_IDLE (s, 30), BENCH_KEEP_DATA=1. Results: printed,
 * and written to bench/results-computed.json.
 */
import { join } from 'node:path';
import { PLAN_ALLOWANCES } from '../core/plans.ts';
import { backendPids, byIdPaths, compareAnswers, listPaths } from './support/computed.ts';
import { measureRounds, summarize, type Endpoint, type Side, type Summary } from './support/computed-rounds.ts';
import { describePeak, RSS_TARGET_MIB, watchMemory } from './support/memory.ts';
import { openBenchCore, seed, temporaryPostgres } from './support/deep-page.ts';
import { handSpec, startHandServer } from './support/hand-written.ts';
import { clean, load, waitForIdle } from './support/load.ts';
import { ROOT, createOrgKeys, startPackline } from './support/processes.ts';
import { formatInt, formatMs, machine, markdownTable, writeResults } from './support/report.ts';
import { positive } from './support/settings.ts';

const NEEDS = positive('BENCH_COMPUTED_NEEDS', 100_000, { integer: true });
const CURSORS = positive('BENCH_COMPUTED_CURSORS', 20_000, { integer: true });
const ROUNDS = Math.max(2, positive('BENCH_ROUNDS', 2, { integer: true }));
const DURATION = positive('BENCH_DURATION', 10, { integer: true });
const WARMUP = positive('BENCH_WARMUP', 3, { integer: true });
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50, { integer: true });
const WAIT_IDLE = positive('BENCH_WAIT_IDLE', 30, { integer: true, zero: true });
const NOISE_PERCENT = 5;
const LIMIT = 20;
const RATE_PER_MINUTE = 1_000_000_000;
const POSTGRES_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = join(ROOT, 'bench/results-computed.json');
const QUOTA = PLAN_ALLOWANCES.clan.monthlyQuota;
const CALLS_PER_ORG = Math.floor(QUOTA * 0.8);

const say = (line = '') => process.stdout.write(`${line}\n`);
const bearer = (key: string) => `Bearer ${key}`;

async function runDatabase(database: 'sqlite' | 'postgresql', notes: string[], databaseUrl?: string) {
  say(`\n## ${database}\n`);
  const server = await startPackline({
    env: { RATE_LIMIT_PER_MINUTE: String(RATE_PER_MINUTE), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const memory = watchMemory(server.child.pid!);
  try {
    say(`Seeding ${formatInt(NEEDS)} needs through \`packline seed\` while the server runs...`);
    const seeded = await seed(server.env, NEEDS, 0);
    say(`  ${seeded.wallSeconds.toFixed(1)} s`);
    const core = await openBenchCore(server.env);
    if (databaseUrl) {
      // The seed wrote 100,000 rows: PostgreSQL's autovacuum would vacuum and analyze them during
      // the measured rounds, taking up to half of a core from whichever server runs then. Done
      // now, and the rounds wait for the machine to settle.
      await core.db.em.getConnection().execute('vacuum (analyze)');
      await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => say(`Waiting for PostgreSQL to settle: ${percent} % busy...`));
    }
    const [ids, cursors] = await Promise.all([byIdPaths(core), listPaths(core, CURSORS, LIMIT)]);
    const endpoints: Endpoint[] = [
      { name: 'GET /api/v1/opportunities/{id}', kind: 'by-id', paths: ids, target: 0.7 },
      { name: `GET /api/v1/opportunities?limit=${LIMIT}&cursor=…`, kind: 'list', paths: cursors, target: 0.8 },
    ];
    say(`${formatInt(ids.length)} distinct ids, ${formatInt(cursors.length)} distinct cursors (the page cache keeps 10,000 answers)`);

    // Quota: every phase of both servers spends its own organizations' (each server counts its own).
    const warmOrgs = Math.ceil((4 * WARMUP * 20_000) / CALLS_PER_ORG);
    const phaseOrgs = Math.ceil((20_000 * DURATION) / CALLS_PER_ORG);
    const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
    const phases = endpoints.length * ROUNDS;
    const orgIds = [...names(`computed-${database}-warm`, warmOrgs), ...names(`computed-${database}-phase`, phases * phaseOrgs)];
    say(`Creating ${orgIds.length} organizations and keys through the CLI...`);
    const created = await createOrgKeys(server.env, orgIds);
    notes.push(...created.warnings);
    const auth = created.keys.map((k) => bearer(k.key));
    const warmAuth = auth.slice(0, warmOrgs);
    const phaseAuth = (phase: number) => auth.slice(warmOrgs + phase * phaseOrgs, warmOrgs + (phase + 1) * phaseOrgs);

    const sqlitePath = join(server.dataDir, 'packline.sqlite');
    const spec = await handSpec({
      core,
      location: databaseUrl ?? sqlitePath,
      publicBaseUrl: server.origin,
      keys: created.keys.map((k) => ({ key: k.key, organizationId: k.organizationId, monthlyQuota: QUOTA })),
      ratePerMinute: RATE_PER_MINUTE,
      keepAliveTimeoutMs: 65_000,
    });
    await core.close();
    const hand = await startHandServer(spec);
    try {
      const lastPage = `/api/v1/opportunities?limit=${LIMIT}&cursor=${encodeURIComponent(lastCursor(cursors))}`;
      const sample = [...ids.slice(0, 10), `/api/v1/opportunities?limit=${LIMIT}`, ...cursors.slice(0, 10), lastPage];
      const differences = await compareAnswers(server.origin, hand.origin, sample, warmAuth[0]!);
      if (differences.length > 0) throw new Error(`the servers answer differently:\n${differences.slice(0, 10).join('\n')}`);
      say(`Checked ${sample.length} answers byte for byte (status, body, headers): the same on both servers`);
      const unknown = await fetch(`${hand.origin}/api/v1/opportunities/x`, { headers: { authorization: 'Bearer live_unknown' } });
      if (unknown.status !== 401) throw new Error(`the hand-written server answers ${unknown.status} to an unknown key`);

      const pids = [server.child.pid!, hand.child.pid!];
      for (const [label, origin] of [
        ['Packline', server.origin],
        ['hand-written', hand.origin],
      ] as const) {
        for (const endpoint of endpoints) {
          const r = await load({
            url: origin + endpoint.paths[0],
            connections: CONNECTIONS,
            duration: WARMUP,
            pids,
            rotate: { paths: endpoint.paths, authorizations: warmAuth },
          });
          say(
            `Warm-up ${label} ${endpoint.kind}: ${formatInt(r.reqPerSec)} req/s${clean(r) ? '' : `, NON-2XX ${JSON.stringify(r.statusCodes)}`}`,
          );
        }
      }
      const servers = { packline: { origin: server.origin, pid: server.child.pid! }, hand: { origin: hand.origin, pid: hand.child.pid! } };
      const databaseName = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : undefined;
      const databasePids = databaseName ? () => backendPids(databaseName) : undefined;
      const rounds = await measureRounds({
        databasePids,
        endpoints,
        servers,
        rounds: ROUNDS,
        duration: DURATION,
        connections: CONNECTIONS,
        phaseAuth,
        say,
      });
      const memoryNow = memory.read();
      const summaries = endpoints.map((e) => summarize(e, rounds, NOISE_PERCENT));
      return {
        database,
        needs: NEEDS,
        seedSeconds: seeded.wallSeconds,
        rounds,
        summaries,
        memory: memoryNow,
        sampleChecked: sample.length,
      };
    } finally {
      await hand.stop();
    }
  } finally {
    memory.stop();
    await server.stop();
  }
}

/** A cursor near the end of the list: its page is the last (no next cursor). */
function lastCursor(cursorPaths: string[]): string {
  // The paths are shuffled: the smallest position is the one after which the fewest rows follow.
  const positions = cursorPaths.map((p) => decodeURIComponent(p.slice(p.indexOf('cursor=') + 7)));
  const at = (cursor: string) => (JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString()) as { t: number }).t;
  return positions.reduce((a, b) => (at(b) < at(a) ? b : a));
}

function report(runs: Awaited<ReturnType<typeof runDatabase>>[]) {
  const line = (database: string, s: Summary, server: 'Packline' | 'hand-written', x: Side, last: string[]) => [
    database,
    s.endpoint,
    server,
    formatInt(x.reqPerSec),
    formatMs(x.p50Ms),
    formatMs(x.p99Ms),
    formatInt(x.cpuUsPerAnswer),
    x.databaseCpuUsPerAnswer === undefined ? '-' : formatInt(x.databaseCpuUsPerAnswer),
    ...last,
  ];
  const rows = runs.flatMap((run) =>
    run.summaries.flatMap((s) => [
      line(run.database, s, 'Packline', s.packline, ['', '', '']),
      line(run.database, s, 'hand-written', s.hand, [`${s.ratio.toFixed(2)} (≥ ${s.target})`, s.cpuRatio.toFixed(2), s.verdict]),
    ]),
  );
  const headers = ['database', 'endpoint', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/answer', 'PostgreSQL CPU µs/answer'];
  return markdownTable([...headers, 'req/s Packline/hand', 'CPU/answer hand/Packline', 'verdict'], rows);
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const postgresAdmin =
    process.env.DATABASE_URL ?? (args.has('--postgresql') || args.has('--postgresql-only') ? POSTGRES_ADMIN : undefined);
  const host = machine();
  const notes: string[] = [];
  say('# Packline computed-path ceiling (REST against a hand-written server)');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}`);
  say(
    `Data: ${formatInt(NEEDS)} needs; load: autocannon, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per server and endpoint`,
  );
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => say(`Waiting for an idle machine: ${percent} % busy...`));
  say(`Machine busy before start: ${idle.machinePercent} % of all cores (load average ${idle.loadAverage.join(', ')})`);
  if (idle.machinePercent > NOISE_PERCENT)
    notes.push(`NOISY: the machine was ${idle.machinePercent} % busy before the start (load average ${idle.loadAverage.join(', ')})`);

  const runs = [];
  if (!args.has('--postgresql-only')) runs.push(await runDatabase('sqlite', notes));
  if (postgresAdmin) {
    const postgres = await temporaryPostgres(postgresAdmin);
    if (!postgres) notes.push(`PostgreSQL did not answer at ${new URL(postgresAdmin).host}: skipped`);
    else {
      try {
        runs.push(await runDatabase('postgresql', notes, postgres.url));
      } finally {
        await postgres.drop();
      }
    }
  }

  const table = report(runs);
  say('\n## Results\n');
  say(
    `${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per server and endpoint; req/s, p50 and p99 are means over the rounds.`,
  );
  say("The targets judge req/s; the CPU ratio (the hand-written server's CPU per answer over Packline's) is shown, not judged.");
  say();
  say(table);
  say();
  for (const run of runs) say(describePeak(`${run.database}: Packline`, run.memory));
  const missed = runs.flatMap((r) => r.summaries.filter((s) => !s.met).map((s) => `${r.database} ${s.kind}: ${s.verdict}`));
  if (missed.length > 0) say(`MISSED: ${missed.join('; ')}`);
  for (const note of new Set(notes)) say(`Note: ${note}`);

  writeResults(RESULTS_FILE, {
    benchmark: 'computed',
    at: new Date().toISOString(),
    machine: host,
    idleBefore: idle,
    settings: {
      needs: NEEDS,
      cursors: CURSORS,
      pageSize: LIMIT,
      rounds: ROUNDS,
      durationS: DURATION,
      warmupS: WARMUP,
      connections: CONNECTIONS,
      pipelining: 1,
      targets: { byId: 0.7, list: 0.8, rssMiB: RSS_TARGET_MIB },
      noiseThresholdPercent: NOISE_PERCENT,
    },
    databases: runs.map((run) => ({ ...run, rssTargetMet: run.memory.highWaterMiB <= RSS_TARGET_MIB })),
    notes: [...new Set(notes)],
    table,
  });
  say(`\nWritten to ${RESULTS_FILE}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:computed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
