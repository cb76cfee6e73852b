/**
 * Churn benchmark: `npm run bench:churn` (part of `npm run bench`).
 *
 * Is the REST API still fast while the platform changes? On SQLite and, when PostgreSQL answers
 * at 127.0.0.1:5432 (user postgres), on a temporary database dropped after, with N public needs
 * (`packline seed`), six phases in one run, autocannon in this process, the server a child:
 *
 * 1. by-id, one id: every answer but the first from the page cache;
 * 2. by-id, 20,000 distinct ids in turn (more than the cache's 10,000 entries): every answer computed;
 * 3. list page 1 (`?limit=20`): cache hits;
 * 4. list, every request a distinct cursor and limit: every answer computed;
 * 5. list page 1 while 10 public changes/s happen elsewhere (another process retitles needs that
 *    are neither on page 1 nor among the hot ids, through the domain services on the same database);
 * 6. by-id over 200 hot ids while the same changes happen.
 *
 * Ratios and targets (issue "live speed"): computed by-id ≥ 12 % of cached by-id; computed list
 * ≥ 6 % of cached list; list under changes ≥ 70 % of cached list; hot by-id under changes ≥ 60 %
 * of cached by-id; p99 ≤ 25 ms on every cached phase (1, 3, 5, 6). Missed targets are printed
 * MISSED; the exit code stays 0 (a measurement, not a test).
 *
 * Environment: BENCH_CHURN_NEEDS (default 100,000), BENCH_CHURN_RATE (changes/s, 10),
 * BENCH_DURATION (s per phase, 10), BENCH_WARMUP (s, 3), BENCH_CONNECTIONS (50), BENCH_WAIT_IDLE
 * (s, 30), BENCH_CHURN_POSTGRES=0 (SQLite only). Results: printed, and bench/results-churn.json.
 */
import { join } from 'node:path';
import { INTERNAL } from '../core/index.ts';
import type { Core } from '../core/index.ts';
import { PLAN_ALLOWANCES } from '../core/plans.ts';
import { loadRotating, openBenchCore, positions, seed, temporaryPostgres } from './support/deep-page.ts';
import { clean, load, waitForIdle, type LoadResult } from './support/load.ts';
import { ROOT, createOrgKeys, startPackline } from './support/processes.ts';
import { positive } from './support/settings.ts';
import { formatInt, formatMs, formatPercent, machine, markdownTable, writeResults } from './support/report.ts';

const NEEDS = positive('BENCH_CHURN_NEEDS', 100_000, { integer: true });
const RATE = positive('BENCH_CHURN_RATE', 10, { integer: true });
const DURATION = positive('BENCH_DURATION', 10, { integer: true });
const WARMUP = positive('BENCH_WARMUP', 3, { integer: true });
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50, { integer: true });
const WAIT_IDLE = positive('BENCH_WAIT_IDLE', 30, { integer: true, zero: true });
const DISTINCT_IDS = 20_000;
const DISTINCT_PAGES = 12_000;
const HOT_IDS = 200;
const P99_TARGET_MS = 25;
const NOISE_PERCENT = 5;
const POSTGRES_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = join(ROOT, 'bench/results-churn.json');
const CALLS_PER_ORG = Math.floor(PLAN_ALLOWANCES.clan.monthlyQuota * 0.8);
const LIST = '/api/v1/opportunities';

const say = (line = '') => process.stdout.write(`${line}\n`);
const bearer = (key: string) => `Bearer ${key}`;

const PHASES = [
  { id: 'byIdOne', label: 'by-id, one id (page cache hits)', cached: true },
  { id: 'byIdComputed', label: `by-id, ${formatInt(DISTINCT_IDS)} distinct ids (every answer computed)`, cached: false },
  { id: 'listOne', label: 'list page 1 (hits)', cached: true },
  { id: 'listComputed', label: 'list, every request a distinct cursor and limit (computed)', cached: false },
  { id: 'listChurn', label: `list page 1 while ${RATE} public changes/s happen elsewhere`, cached: true },
  { id: 'hotChurn', label: `by-id over ${HOT_IDS} hot ids while ${RATE} public changes/s happen elsewhere`, cached: true },
] as const;
type PhaseId = (typeof PHASES)[number]['id'];

const TARGETS = [
  { label: 'computed by-id / cached by-id', phase: 'byIdComputed', base: 'byIdOne', min: 0.12 },
  { label: 'computed list page / cached list page 1', phase: 'listComputed', base: 'listOne', min: 0.06 },
  { label: 'list page 1 under changes / without', phase: 'listChurn', base: 'listOne', min: 0.7 },
  { label: 'hot by-id under changes / cached by-id', phase: 'hotChurn', base: 'byIdOne', min: 0.6 },
] as const;

interface PhaseResult {
  id: PhaseId;
  label: string;
  cached: boolean;
  result: LoadResult;
  /** Changes committed per second meanwhile (churn phases). */
  changesPerSec?: number;
}

/** Retitles needs, `RATE` a second, round-robin over `ids`, through the domain services of another process. */
function churn(core: Core, ids: string[]): { stop(): Promise<number> } {
  let stopped = false;
  let done = 0;
  const started = performance.now();
  const run = (async () => {
    let i = 0;
    while (!stopped) {
      const due = started + (done * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      const id = ids[i++ % ids.length]!;
      await core.services().needs.update(INTERNAL, id, { title: `Churned need ${id} #${done}` });
      done++;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await run;
      return done / ((performance.now() - started) / 1000);
    },
  };
}

async function runDatabase(database: 'sqlite' | 'postgresql', notes: string[], databaseUrl?: string) {
  say(`\n## ${database}\n`);
  const env = { RATE_LIMIT_PER_MINUTE: '1000000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const server = await startPackline({ env });
  const pids = [server.child.pid!];
  try {
    say(`Seeding ${formatInt(NEEDS)} needs through \`packline seed\` while the server runs...`);
    const seeded = await seed(server.env, NEEDS, Math.max(1, Math.floor(NEEDS / 10)));
    say(`  ${seeded.wallSeconds.toFixed(1)} s`);
    const core = await openBenchCore(server.env);
    try {
      const rows = (await core.db.em
        .getConnection()
        .execute("select id from needs where state = 'public' and demo = false order by published_at desc, id desc")) as { id: string }[];
      const ids = rows.map((r) => r.id);
      if (ids.length < DISTINCT_IDS + HOT_IDS + 1000) throw new Error(`only ${ids.length} public needs`);
      // Page 1 and the hot ids stay untouched; the changes go to needs further down the list.
      const one = ids[0]!;
      const hot = ids.slice(100, 100 + HOT_IDS);
      const computedIds = ids.slice(1_000, 1_000 + DISTINCT_IDS);
      const changed = ids.slice(-2_000);
      const pages = await positions(core, 'opportunities', 1_000, DISTINCT_PAGES);
      const listPaths = pages.deepCursors.map((cursor, i) => `${LIST}?limit=${1 + (i % 50)}&cursor=${encodeURIComponent(cursor)}`);

      const warm = (await createOrgKeys(server.env, [`churn-warm-${database}`])).keys.map((k) => bearer(k.key));
      say(`Warm-up (${WARMUP} s)...`);
      const oneUrl = `${server.origin}${LIST}/${encodeURIComponent(one)}`;
      const warmup = await load({ url: oneUrl, connections: CONNECTIONS, duration: WARMUP, authorizations: warm, pids });
      const orgsPerPhase = Math.max(1, Math.ceil((warmup.reqPerSec * 1.5 * DURATION) / CALLS_PER_ORG));
      const keyIds = Array.from({ length: PHASES.length * orgsPerPhase }, (_, i) => `churn-${database}-${i + 1}`);
      const keys = (await createOrgKeys(server.env, keyIds)).keys.map((k) => bearer(k.key));
      const phaseKeys = (n: number) => keys.slice(n * orgsPerPhase, (n + 1) * orgsPerPhase);

      const results: PhaseResult[] = [];
      for (const [n, phase] of PHASES.entries()) {
        say(`${phase.label} (${DURATION} s)...`);
        const common = { connections: CONNECTIONS, duration: DURATION, authorizations: phaseKeys(n), pids };
        const byId = (list: string[]) => list.map((id) => `${LIST}/${encodeURIComponent(id)}`);
        const changes = phase.id === 'listChurn' || phase.id === 'hotChurn' ? churn(core, changed) : undefined;
        let result: LoadResult;
        switch (phase.id) {
          case 'byIdOne':
            result = await load({ url: oneUrl, ...common });
            break;
          case 'byIdComputed':
            result = await loadRotating({ origin: server.origin, paths: byId(computedIds), ...common });
            break;
          case 'listOne':
          case 'listChurn':
            result = await load({ url: `${server.origin}${LIST}?limit=20`, ...common });
            break;
          case 'listComputed':
            result = await loadRotating({ origin: server.origin, paths: listPaths, ...common });
            break;
          case 'hotChurn':
            result = await loadRotating({ origin: server.origin, paths: byId(hot), ...common });
            break;
        }
        const changesPerSec = changes ? await changes.stop() : undefined;
        const failures = `${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}, ${result.errors} errors`;
        const noisy = result.otherCpuPercent > NOISE_PERCENT;
        say(
          `  ${formatInt(result.reqPerSec)} req/s, p50 ${formatMs(result.p50Ms)} ms, p99 ${formatMs(result.p99Ms)} ms, ` +
            `${formatInt(result.total)} answers` +
            (changesPerSec === undefined ? '' : `, ${changesPerSec.toFixed(1)} changes/s`) +
            (clean(result) ? '' : `, ${failures}`) +
            (noisy ? `, NOISY (others took ${result.otherCpuPercent} % of the CPU)` : ''),
        );
        if (!clean(result)) notes.push(`${database} ${phase.label}: ${failures}`);
        if (noisy) notes.push(`${database} ${phase.label}: other processes took ${result.otherCpuPercent} % of the CPU`);
        results.push({ ...phase, result, ...(changesPerSec === undefined ? {} : { changesPerSec }) });
      }
      return { database, needs: NEEDS, seedSeconds: seeded.wallSeconds, orgsPerPhase, phases: results, verdicts: judge(database, results) };
    } finally {
      await core.close();
    }
  } finally {
    await server.stop();
  }
}

interface Verdict {
  database: string;
  label: string;
  ratio: number;
  min: number;
  met: boolean;
}

function judge(database: string, phases: PhaseResult[]): Verdict[] {
  const rate = (id: PhaseId) => phases.find((p) => p.id === id)!.result.reqPerSec;
  const ratios = TARGETS.map((t) => {
    const ratio = rate(t.phase) / Math.max(rate(t.base), 1e-6);
    return { database, label: `${t.label} ≥ ${formatPercent(t.min)}`, ratio, min: t.min, met: ratio >= t.min };
  });
  const p99 = phases
    .filter((p) => p.cached)
    .map((p) => ({
      database,
      label: `p99 of ${p.label} ≤ ${P99_TARGET_MS} ms`,
      ratio: p.result.p99Ms,
      min: P99_TARGET_MS,
      met: p.result.p99Ms <= P99_TARGET_MS,
    }));
  return [...ratios, ...p99];
}

/** The table of one run: each phase's rate and its share of cached by-id, as the issue's table shows them. */
function churnTable(runs: { database: string; phases: PhaseResult[] }[]): string {
  return markdownTable(
    ['database', 'phase', 'req/s', 'p50 ms', 'p99 ms', 'share of cached by-id', 'changes/s'],
    runs.flatMap((run) => {
      const base = run.phases.find((p) => p.id === 'byIdOne')!.result.reqPerSec;
      return run.phases.map((p) => [
        run.database,
        p.label,
        formatInt(p.result.reqPerSec),
        formatMs(p.result.p50Ms),
        formatMs(p.result.p99Ms),
        formatPercent(p.result.reqPerSec / Math.max(base, 1e-6)),
        p.changesPerSec === undefined ? '-' : p.changesPerSec.toFixed(1),
      ]);
    }),
  );
}

function verdictTable(verdicts: Verdict[]): string {
  return markdownTable(
    ['database', 'target', 'figure', 'verdict'],
    verdicts.map((v) => [
      v.database,
      v.label,
      v.label.startsWith('p99') ? `${formatMs(v.ratio)} ms` : formatPercent(v.ratio),
      v.met ? 'MET' : 'MISSED',
    ]),
  );
}

async function main() {
  const host = machine();
  const notes: string[] = [];
  say('# Packline churn benchmark');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}`);
  say(`Data: ${formatInt(NEEDS)} public needs; load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per phase`);
  say(`Changes: ${RATE}/s during the churn phases`);
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => say(`Waiting for an idle machine: ${percent} % busy...`));
  say(`Machine busy before start: ${idle.machinePercent} % of all cores (load average ${idle.loadAverage.join(', ')})`);
  if (idle.machinePercent > NOISE_PERCENT) {
    notes.push(`the machine was ${idle.machinePercent} % busy before the start (load average ${idle.loadAverage.join(', ')})`);
  }

  const runs = [await runDatabase('sqlite', notes)];
  const postgres = process.env.BENCH_CHURN_POSTGRES === '0' ? undefined : await temporaryPostgres(POSTGRES_ADMIN);
  if (postgres) {
    try {
      runs.push(await runDatabase('postgresql', notes, postgres.url));
    } finally {
      await postgres.drop();
    }
  } else notes.push('PostgreSQL was not run (BENCH_CHURN_POSTGRES=0, or nothing answered at 127.0.0.1:5432): SQLite only');

  const table = churnTable(runs);
  const verdicts = runs.flatMap((r) => r.verdicts);
  const targets = verdictTable(verdicts);
  say('\n## Results\n');
  say(table);
  say();
  say(targets);
  say();
  const missed = verdicts.filter((v) => !v.met);
  say(missed.length > 0 ? `MISSED: ${missed.map((v) => `${v.database} ${v.label}`).join('; ')}` : 'All targets met.');
  for (const note of new Set(notes)) say(`Note: ${note}`);
  writeResults(RESULTS_FILE, {
    benchmark: 'churn',
    at: new Date().toISOString(),
    machine: host,
    idleBefore: idle,
    settings: {
      needs: NEEDS,
      changesPerSec: RATE,
      connections: CONNECTIONS,
      durationS: DURATION,
      warmupS: WARMUP,
      distinctIds: DISTINCT_IDS,
      hotIds: HOT_IDS,
      p99TargetMs: P99_TARGET_MS,
    },
    runs,
    verdicts,
    notes: [...new Set(notes)],
    table,
    targets,
  });
  say(`\nWritten to ${RESULTS_FILE}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:churn failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
