/**
 * Deep-page benchmark: `npm run bench:deep-page`.
 *
 * Does page 45,001 of /api/v1/opportunities?limit=20 cost what page 1 costs? On SQLite and, when
 * PostgreSQL answers at 127.0.0.1:5432 (user postgres), on a temporary database dropped after:
 *
 * 1. starts Packline (`packline start`, a child process), then `packline seed --needs N --events N`
 *    (another child) bulk-inserts the rows while it runs;
 * 2. mints real cursors without walking: the ordering key of the row at the position (900,000, or
 *    90 % of a smaller list) is read from the database with the list's own filter and order, and
 *    signed with the project's CursorCodec and the shared cursor secret, exactly as the API signs
 *    it. The first item of the deep page is checked over HTTP against the row after the position;
 * 3. records the database's plan of the first and the deep page query (EXPLAIN QUERY PLAN on
 *    SQLite, EXPLAIN ANALYZE on PostgreSQL);
 * 4. measures first and deep page three ways, each compared deep/first:
 *    - service query: the list call in this process, one at a time (SQL, hydration, view);
 *    - HTTP, no page cache: autocannon, every request a different cursor (12,000 in turn, more
 *      than the cache's 10,000 entries), so every answer is computed. For the first page these
 *      are cursors placed before the newest item: the first page's rows, each a distinct key;
 *    - HTTP, page cache hits: the project's `load` helper on one URL, as bench:rest does; at most
 *      one computation per 5 s window, so this measures the cache, not the database.
 *
 * Targets: deep costs at most 1.5 × the first page (p50 latency ratio ≤ 1.5, throughput ratio ≥
 * 1/1.5). Missed targets are printed MISSED; the exit code stays 0 (a measurement, not a test).
 *
 * Environment: BENCH_DEEP_NEEDS (default 1,000,000), BENCH_DEEP_EVENTS (200,000), BENCH_DURATION (s
 * per phase, 10), BENCH_WARMUP (s, 3), BENCH_CONNECTIONS (50), BENCH_WAIT_IDLE (s, 30),
 * BENCH_KEEP_DATA=1. Results: printed, and written to bench/results-deep-page.json.
 */
import { join } from 'node:path';
import { PLAN_ALLOWANCES } from '../core/plans.ts';
import {
  PAGE,
  loadRotating,
  openBenchCore,
  plans,
  positions,
  seed,
  temporaryPostgres,
  timeService,
  type List,
  type Timing,
} from './support/deep-page.ts';
import { clean, load, waitForIdle, type LoadResult } from './support/load.ts';
import { ROOT, createOrgKeys, startPackline } from './support/processes.ts';
import { positive } from './support/settings.ts';
import { formatInt, formatMs, machine, markdownTable, writeResults } from './support/report.ts';

const NEEDS = positive('BENCH_DEEP_NEEDS', 1_000_000, { integer: true });
const EVENTS = positive('BENCH_DEEP_EVENTS', 200_000, { integer: true });
const DURATION = positive('BENCH_DURATION', 10, { integer: true });
const WARMUP = positive('BENCH_WARMUP', 3, { integer: true });
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50, { integer: true });
const WAIT_IDLE = positive('BENCH_WAIT_IDLE', 30, { integer: true, zero: true });
const DEEP = 900_000;
const DISTINCT_CURSORS = 12_000;
const SERVICE_ROUNDS = 300;
const TARGET = 1.5;
const NOISE_PERCENT = 5;
const POSTGRES_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = join(ROOT, 'bench/results-deep-page.json');
const CALLS_PER_ORG = Math.floor(PLAN_ALLOWANCES.clan.monthlyQuota * 0.8);
const MEASURES = ['service query, no cache', 'HTTP, no page cache', 'HTTP, page cache hits'] as const;
type Measure = (typeof MEASURES)[number];

const say = (line = '') => process.stdout.write(`${line}\n`);
const bearer = (key: string) => `Bearer ${key}`;

interface Side {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  otherCpuPercent?: number;
  load?: LoadResult;
  service?: Timing;
}

interface Comparison {
  database: string;
  list: List;
  measure: Measure;
  first: Side;
  deep: Side;
  latencyRatio: number;
  p99Ratio: number;
  throughputRatio: number;
  valid: boolean;
  met: boolean;
  verdict: string;
}

const fromLoad = (r: LoadResult): Side => ({
  reqPerSec: r.reqPerSec,
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  otherCpuPercent: r.otherCpuPercent,
  load: r,
});
const fromTiming = (t: Timing): Side => ({ reqPerSec: t.callsPerSec, p50Ms: t.p50Ms, p99Ms: t.p99Ms, service: t });

function compare(database: string, list: List, measure: Measure, first: Side, deep: Side): Comparison {
  const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 1e-6)) * 100) / 100;
  const latencyRatio = ratio(deep.p50Ms, first.p50Ms);
  const throughputRatio = ratio(deep.reqPerSec, first.reqPerSec);
  const valid = [first, deep].every((s) => !s.load || clean(s.load));
  const missed: string[] = [];
  if (latencyRatio > TARGET) missed.push(`p50 ratio ${latencyRatio} > ${TARGET}`);
  if (throughputRatio < 1 / TARGET) missed.push(`throughput ratio ${throughputRatio} < ${(1 / TARGET).toFixed(2)}`);
  let verdict = !valid ? 'INVALID (non-2xx answers or errors)' : missed.length === 0 ? 'OK' : `MISSED (${missed.join(', ')})`;
  const noise = Math.max(first.otherCpuPercent ?? 0, deep.otherCpuPercent ?? 0);
  if (noise > NOISE_PERCENT) verdict += `, NOISY (others took ${noise} % of the CPU)`;
  return {
    database,
    list,
    measure,
    first,
    deep,
    latencyRatio,
    p99Ratio: ratio(deep.p99Ms, first.p99Ms),
    throughputRatio,
    valid,
    met: valid && missed.length === 0,
    verdict,
  };
}

async function runDatabase(database: 'sqlite' | 'postgresql', notes: string[], databaseUrl?: string) {
  say(`\n## ${database}\n`);
  say('Starting Packline...');
  const server = await startPackline({
    env: { RATE_LIMIT_PER_MINUTE: '1000000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const pids = [server.child.pid!];
  try {
    say(`Seeding ${formatInt(NEEDS)} needs and ${formatInt(EVENTS)} events through \`packline seed\` while the server runs...`);
    const seeded = await seed(server.env, NEEDS, EVENTS);
    say(
      `  ${JSON.stringify(seeded.summary.seconds)} s in the command, ${seeded.wallSeconds.toFixed(1)} s with its start-up (${formatInt(Number(seeded.summary.rows_per_second))} rows/s)`,
    );
    const core = await openBenchCore(server.env);
    const lists = [];
    const comparisons: Comparison[] = [];
    try {
      const warm = (await createOrgKeys(server.env, [`deep-warm-${database}`])).keys.map((k) => bearer(k.key));
      for (const list of ['opportunities', 'events'] as const) {
        say(`\n### ${list}\n`);
        const pos = await positions(core, list, DEEP, DISTINCT_CURSORS);
        const base = `/api/v1/${list}?limit=${PAGE}`;
        const url = (cursor: string) => `${base}&cursor=${encodeURIComponent(cursor)}`;
        const check = (await (
          await fetch(server.origin + url(pos.deepCursors[0]!), { headers: { authorization: bearer(server.demoKey) } })
        ).json()) as { data: { id: string }[] };
        if (check.data[0]?.id !== pos.deepFirstId)
          throw new Error(`the deep page of ${list} starts with ${check.data[0]?.id}, not ${pos.deepFirstId}`);
        say(
          `${formatInt(pos.total)} items; deep page after item ${formatInt(pos.deep)} (checked over HTTP); ${formatInt(pos.deepCursors.length)} deep and ${formatInt(pos.firstCursors.length)} first-page cursors`,
        );
        if (pos.deepCursors.length <= 10_000)
          notes.push(
            `${database} ${list}: only ${pos.deepCursors.length} deep cursors (the page cache holds 10,000): some "no page cache" deep answers may be cache hits`,
          );

        const plan = await plans(core, list, pos.deepCursors[0]!, database === 'postgresql');
        for (const which of ['first', 'deep'] as const)
          say(
            `Plan, ${which} page: ${plan[which].plan
              .map((l) => l.trim())
              .filter((l) => !/^(Planning|Buffers|Execution)/.test(l))
              .join(' | ')}`,
          );

        const service = await timeService(core, list, pos.deepCursors, SERVICE_ROUNDS);
        say(`Service query: first p50 ${service.first.p50Ms} ms, deep p50 ${service.deep.p50Ms} ms`);
        comparisons.push(compare(database, list, 'service query, no cache', fromTiming(service.first), fromTiming(service.deep)));

        say(`Warm-up (${WARMUP} s)...`);
        const warmup = await load({ url: server.origin + base, connections: CONNECTIONS, duration: WARMUP, authorizations: warm, pids });
        const orgsPerPhase = Math.max(1, Math.ceil((warmup.reqPerSec * 1.5 * DURATION) / CALLS_PER_ORG));
        const ids = Array.from({ length: 4 * orgsPerPhase }, (_, i) => `deep-${database}-${list}-${i + 1}`);
        const keys = (await createOrgKeys(server.env, ids)).keys.map((k) => bearer(k.key));
        const phaseKeys = (phase: number) => keys.slice(phase * orgsPerPhase, (phase + 1) * orgsPerPhase);

        const run = async (label: string, go: () => Promise<LoadResult>) => {
          say(`${label} (${DURATION} s)...`);
          const r = await go();
          say(
            `  ${formatInt(r.reqPerSec)} req/s, p50 ${formatMs(r.p50Ms)} ms, p99 ${formatMs(r.p99Ms)} ms, ${formatInt(r.total)} answers${clean(r) ? '' : `, NON-2XX ${JSON.stringify(r.statusCodes)}, errors ${r.errors}`}`,
          );
          return r;
        };
        const rotating = (cursors: string[], phase: number) => () =>
          loadRotating({
            origin: server.origin,
            paths: cursors.map(url),
            connections: CONNECTIONS,
            duration: DURATION,
            authorizations: phaseKeys(phase),
            pids,
          });
        const fixed = (path: string, phase: number) => () =>
          load({ url: server.origin + path, connections: CONNECTIONS, duration: DURATION, authorizations: phaseKeys(phase), pids });
        const uncachedFirst = await run('HTTP first page, no page cache', rotating(pos.firstCursors, 0));
        const uncachedDeep = await run('HTTP deep page, no page cache', rotating(pos.deepCursors, 1));
        const cachedFirst = await run('HTTP first page, page cache hits', fixed(base, 2));
        const cachedDeep = await run('HTTP deep page, page cache hits', fixed(url(pos.deepCursors[0]!), 3));
        comparisons.push(compare(database, list, 'HTTP, no page cache', fromLoad(uncachedFirst), fromLoad(uncachedDeep)));
        comparisons.push(compare(database, list, 'HTTP, page cache hits', fromLoad(cachedFirst), fromLoad(cachedDeep)));
        lists.push({
          list,
          positions: { total: pos.total, deepAfter: pos.deep, deepCursors: pos.deepCursors.length, firstCursors: pos.firstCursors.length },
          plans: plan,
          orgsPerPhase,
          warmup,
        });
      }
    } finally {
      await core.close();
    }
    return { database, seed: { needs: NEEDS, events: EVENTS, ...seeded }, lists, comparisons };
  } finally {
    await server.stop();
  }
}

async function main() {
  const host = machine();
  const notes: string[] = [];
  say('# Packline deep-page benchmark');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}`);
  say(
    `Data: ${formatInt(NEEDS)} needs, ${formatInt(EVENTS)} events; load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per phase`,
  );
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => say(`Waiting for an idle machine: ${percent} % busy...`));
  say(`Machine busy before start: ${idle.machinePercent} % of all cores (load average ${idle.loadAverage.join(', ')})`);
  if (idle.machinePercent > NOISE_PERCENT)
    notes.push(`the machine was ${idle.machinePercent} % busy before the start (load average ${idle.loadAverage.join(', ')})`);

  const runs = [await runDatabase('sqlite', notes)];
  const postgres = await temporaryPostgres(POSTGRES_ADMIN);
  if (postgres) {
    try {
      runs.push(await runDatabase('postgresql', notes, postgres.url));
    } finally {
      await postgres.drop();
    }
  } else notes.push('PostgreSQL did not answer at 127.0.0.1:5432: SQLite only');

  const comparisons = runs.flatMap((r) => r.comparisons);
  const table = markdownTable(
    [
      'database',
      'list',
      'measure',
      'first req/s',
      'first p50',
      'first p99',
      'deep req/s',
      'deep p50',
      'deep p99',
      'p50 deep/first',
      'p99 deep/first',
      'req/s deep/first',
      'verdict',
    ],
    comparisons.map((c) => [
      c.database,
      c.list,
      c.measure,
      formatInt(c.first.reqPerSec),
      formatMs(c.first.p50Ms),
      formatMs(c.first.p99Ms),
      formatInt(c.deep.reqPerSec),
      formatMs(c.deep.p50Ms),
      formatMs(c.deep.p99Ms),
      c.latencyRatio.toFixed(2),
      c.p99Ratio.toFixed(2),
      c.throughputRatio.toFixed(2),
      c.verdict,
    ]),
  );
  say('\n## Results\n');
  say(
    `Machine: ${host.cpu}, ${host.cores} cores; ${CONNECTIONS} connections, ${DURATION} s per HTTP phase; ${SERVICE_ROUNDS} service calls per page. Latencies in ms.`,
  );
  say(`Targets: p50 deep/first ≤ ${TARGET}, req/s deep/first ≥ ${(1 / TARGET).toFixed(2)}. p99 ratios are shown, not judged.`);
  say();
  say(table);
  say();
  const missed = comparisons.filter((c) => !c.met);
  if (missed.length > 0) say(`MISSED: ${missed.map((c) => `${c.database} ${c.list} ${c.measure}: ${c.verdict}`).join('; ')}`);
  else say('All targets met.');
  for (const note of new Set(notes)) say(`Note: ${note}`);

  writeResults(RESULTS_FILE, {
    benchmark: 'deep-page',
    at: new Date().toISOString(),
    machine: host,
    idleBefore: idle,
    settings: {
      needs: NEEDS,
      events: EVENTS,
      deepPosition: DEEP,
      pageSize: PAGE,
      connections: CONNECTIONS,
      pipelining: 1,
      durationS: DURATION,
      warmupS: WARMUP,
      serviceRounds: SERVICE_ROUNDS,
      distinctCursors: DISTINCT_CURSORS,
      target: TARGET,
      noiseThresholdPercent: NOISE_PERCENT,
    },
    databases: runs.map(({ comparisons: _, ...run }) => run),
    comparisons,
    notes: [...new Set(notes)],
    table,
  });
  say(`\nWritten to ${RESULTS_FILE}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:deep-page failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
