/**
 * REST benchmark: `npm run bench:rest` (SQLite), `npm run bench:rest -- --postgresql` (PostgreSQL
 * at 127.0.0.1:5432, user postgres, or the server of DATABASE_URL: a fresh temporary database,
 * dropped after).
 *
 * Loads GET /api/v1/opportunities?limit=20 and GET /api/v1/opportunities/{id} through the whole
 * service (key check, rate and quota limits, GraphQL, SQLite, request logging) running as a
 * child process, and compares each with the ceiling of this machine: a bare node:http server,
 * in another child process, answering the very same bytes with no work. autocannon runs here,
 * in the parent, so the load generator never shares an event loop with a server.
 *
 * Order: warm-up (list, by-id), then real list, ceiling list, real by-id, ceiling by-id.
 * Each measured phase spends the monthly quota of its own organizations (Clan: 100,000 calls),
 * created through the CLI, so the quota limiter runs on every call without refusing any. The
 * server's peak resident memory over the whole run (VmHWM) is printed against 256 MiB, with the
 * largest samples of its anonymous and file-mapped parts.
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3),
 * BENCH_CONNECTIONS (default 100), BENCH_WAIT_IDLE (s to wait for other processes to leave the
 * CPU before starting, default 60; phases disturbed by other processes are flagged NOISY),
 * BENCH_KEEP_DATA=1 (keep the temporary data directory and the server log). Results: printed, and
 * written to bench/results-rest.json (bench/results-rest-postgresql.json on PostgreSQL).
 * Missed targets are printed as MISSED; the exit code stays 0 (a measurement, not a test).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { capture, startCeiling, type CapturedResponse } from './support/ceiling.ts';
import { clean, load, waitForIdle, type LoadResult } from './support/load.ts';
import { temporaryPostgres } from './support/deep-page.ts';
import { watchMemory } from './support/memory.ts';
import { createOrgKeys, logSummary, startPackline } from './support/processes.ts';
import { formatInt, formatMs, machine } from './support/report.ts';
import {
  CALLS_PER_ORG,
  CONNECTIONS,
  DURATION,
  LIST_URL,
  NOISE_PERCENT,
  POSTGRES_ADMIN,
  WAIT_IDLE,
  WARMUP,
  type Endpoint,
} from './support/rest-settings.ts';
import { report, row, say, type Row } from './support/rest-report.ts';

const bearer = (key: string) => `Bearer ${key}`;
const brief = (r: LoadResult) =>
  `${formatInt(r.reqPerSec)} req/s, p50 ${formatMs(r.p50Ms)} ms, p99 ${formatMs(r.p99Ms)} ms, ${formatInt(r.total)} answers` +
  (clean(r) ? '' : `, NON-2XX ${r.non2xx} ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}`);

async function main() {
  const onPostgresql = process.argv.slice(2).includes('--postgresql');
  if (!onPostgresql) return measure();
  const postgres = await temporaryPostgres(process.env.DATABASE_URL ?? POSTGRES_ADMIN);
  if (!postgres) throw new Error(`PostgreSQL did not answer at ${new URL(process.env.DATABASE_URL ?? POSTGRES_ADMIN).host}`);
  try {
    await measure(postgres.url);
  } finally {
    await postgres.drop();
  }
}

/** The whole run against one server: on SQLite, or on the PostgreSQL database at `databaseUrl`. */
async function measure(databaseUrl?: string) {
  const database = databaseUrl ? 'postgresql' : 'sqlite';
  const host = machine();
  say(`# Packline REST benchmark`);
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}`);
  say(`Load: autocannon, ${CONNECTIONS} connections, pipelining 1, ${DURATION} s per phase after ${WARMUP} s warm-up per endpoint`);
  say();

  const oddities: string[] = [];
  let lastNotice = 0;
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => {
    if (Date.now() - lastNotice < 10_000) return;
    lastNotice = Date.now();
    say(`Waiting for an idle machine: ${percent} % of all cores busy (up to ${WAIT_IDLE} s, BENCH_WAIT_IDLE)...`);
  });
  say(`Machine busy before start: ${idle.machinePercent} % of all cores (load average ${idle.loadAverage.join(', ')})`);
  if (idle.machinePercent > NOISE_PERCENT) {
    say(`  WARNING: other processes are using the CPU; the numbers will be noisy. Rerun on an idle machine.`);
    oddities.push(`the machine was ${idle.machinePercent} % busy before the start (load average ${idle.loadAverage.join(', ')})`);
  }
  say(`Starting the Packline server (${databaseUrl ? 'PostgreSQL' : 'SQLite'}, LOG_LEVEL=info, logs to a file)...`);
  const server = await startPackline({
    env: { RATE_LIMIT_PER_MINUTE: '1000000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const memory = watchMemory(server.child.pid!);
  say(`  ${server.origin}, data in ${server.dataDir}`);
  if (!server.demoKey) throw new Error('The banner shows no demo API key');

  try {
    const demo = { authorization: bearer(server.demoKey) };

    // The by-id id is the first item of the list page.
    const firstList = await capture(server.origin, LIST_URL, demo);
    if (firstList.status !== 200)
      throw new Error(`GET ${LIST_URL} answered ${firstList.status}: ${firstList.body.toString().slice(0, 300)}`);
    const firstId = (JSON.parse(firstList.body.toString()) as { data: { id: string }[] }).data[0]?.id;
    if (!firstId) throw new Error(`GET ${LIST_URL} returned no opportunity`);
    const endpoints: Endpoint[] = [
      { name: `GET ${LIST_URL}`, url: LIST_URL, ratioTarget: 0.35 },
      { name: 'GET /api/v1/opportunities/{id}', url: `/api/v1/opportunities/${encodeURIComponent(firstId)}`, ratioTarget: 0.45 },
    ];

    // Enough Clan quota for every endpoint's warm-up at the bare ceiling's best rate here (about
    // 63,000 req/s), so no warm-up call is refused and every one runs the whole path.
    const warmOrgs = Math.ceil((endpoints.length * WARMUP * 70_000) / CALLS_PER_ORG);
    say(`Creating ${warmOrgs} warm-up organizations and keys through the CLI...`);
    const warm = await createOrgKeys(
      server.env,
      Array.from({ length: warmOrgs }, (_, i) => `bench-warmup-${i + 1}`),
    );
    oddities.push(...warm.warnings);
    const warmAuth = warm.keys.map((k) => bearer(k.key));

    const warmups: Record<string, LoadResult> = {};
    for (const endpoint of endpoints) {
      say(`Warm-up ${endpoint.name} (${WARMUP} s)...`);
      const result = await load({
        url: server.origin + endpoint.url,
        connections: CONNECTIONS,
        duration: WARMUP,
        authorizations: warmAuth,
        pids: [server.child.pid!],
      });
      warmups[`Packline ${endpoint.name}`] = result;
      say(`  ${brief(result)}`);
      if (!clean(result))
        oddities.push(
          `warm-up of ${endpoint.name}: ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}, ${result.errors} errors`,
        );
    }

    // Enough organizations per phase for 1.5 times the warm-up rate, each far below its quota.
    const rate = Math.max(...Object.values(warmups).map((r) => r.total / Math.max(r.durationS, 0.001)));
    const orgsPerPhase = Math.max(1, Math.ceil((rate * 1.5 * DURATION) / CALLS_PER_ORG));
    say(`Creating ${orgsPerPhase} organization(s) and key(s) per measured phase through the CLI...`);
    const ids = endpoints.flatMap((_, e) => Array.from({ length: orgsPerPhase }, (_, i) => `bench-${e === 0 ? 'list' : 'byid'}-${i + 1}`));
    const measured = await createOrgKeys(server.env, ids);
    oddities.push(...measured.warnings);
    const phaseAuth = endpoints.map((_, e) => measured.keys.slice(e * orgsPerPhase, (e + 1) * orgsPerPhase).map((k) => bearer(k.key)));

    // The exact bytes the ceiling answers, captured after every write of the run.
    const captured: CapturedResponse[] = [];
    for (const endpoint of endpoints) {
      const response = await capture(server.origin, endpoint.url, demo);
      if (response.status !== 200) throw new Error(`GET ${endpoint.url} answered ${response.status}`);
      captured.push(response);
    }
    say('Starting the ceiling server (bare node:http, same bytes)...');
    const ceiling = await startCeiling(captured);
    const pids = [server.child.pid!, ceiling.child.pid!];
    for (const response of captured) {
      const check = await capture(ceiling.origin, response.url, demo);
      if (!check.body.equals(response.body)) throw new Error(`The ceiling answers other bytes for ${response.url}`);
    }
    // The ceiling process is fresh: warm it up as the service was, so both run JIT-compiled.
    for (const endpoint of endpoints) {
      say(`Warm-up ceiling ${endpoint.name} (${WARMUP} s)...`);
      const result = await load({
        url: ceiling.origin + endpoint.url,
        connections: CONNECTIONS,
        duration: WARMUP,
        authorizations: warmAuth,
        pids,
      });
      warmups[`ceiling ${endpoint.name}`] = result;
      if (!clean(result)) oddities.push(`warm-up of the ceiling ${endpoint.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      say(`  ${brief(result)}`);
    }

    const rows: Row[] = [];
    try {
      for (const [e, endpoint] of endpoints.entries()) {
        const authorizations = phaseAuth[e]!;
        await sleep(1_000);
        say(`Measuring Packline ${endpoint.name} (${DURATION} s)...`);
        const real = await load({ url: server.origin + endpoint.url, connections: CONNECTIONS, duration: DURATION, authorizations, pids });
        say(`  ${brief(real)}`);
        if (server.child.exitCode !== null || server.child.signalCode !== null) {
          oddities.push(`the Packline server exited (${server.child.exitCode ?? server.child.signalCode}) during ${endpoint.name}`);
        }
        await sleep(1_000);
        say(`Measuring the ceiling ${endpoint.name} (${DURATION} s)...`);
        const top = await load({ url: ceiling.origin + endpoint.url, connections: CONNECTIONS, duration: DURATION, authorizations, pids });
        say(`  ${brief(top)}`);
        rows.push(row(endpoint, real, top, captured[e]!.body.length));
      }
    } finally {
      await ceiling.stop();
    }

    // The service still answers the same bytes it answered before the load.
    for (const response of captured) {
      const after = await capture(server.origin, response.url, demo);
      if (after.status !== 200 || !after.body.equals(response.body)) {
        oddities.push(
          `after the load, ${response.url} answered ${after.status} with ${after.body.length} bytes (before: 200, ${response.body.length} bytes)`,
        );
      }
    }
    const peak = memory.read();
    await server.stop();
    const logs = logSummary(server.logFile);
    if (server.child.exitCode !== 0 && server.child.exitCode !== null)
      oddities.push(`the Packline server exited with code ${server.child.exitCode} on SIGTERM`);
    for (const level of ['warn', 'error', 'fatal']) {
      if (logs.byLevel[level]) oddities.push(`server log: ${logs.byLevel[level]} ${level} line(s), e.g. ${logs.problems[0] ?? ''}`);
    }

    report({ database, memory: peak }, host, idle, rows, warmups, orgsPerPhase, logs, oddities);
  } finally {
    memory.stop();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:rest failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
