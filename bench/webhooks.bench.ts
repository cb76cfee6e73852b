/**
 * Webhook benchmark: `npm run bench:webhooks`.
 *
 * 1. Deliveries vs ceiling, in three parts over one database:
 *    a. Live: the real server (`node bin/packline.js start --no-demo`, fresh SQLite data directory)
 *       delivers BENCH_DELIVERY_NEEDS needs, published through GraphQL as fast as 8 clients can,
 *       to BENCH_DESTINATIONS standard-JSON destinations (10 per Clan organization, one receiver
 *       path each): deliveries/s from the first commit to the last receipt and lag from
 *       `occurred_at` to receipt. Publishing (about 5 ms of server time per publishNeed) shares the
 *       server with delivery here, so this rate is bounded by the publishing rate × destinations.
 *    b. Backlog, the dispatcher's own rate, on the same (warm) server: a `need.updated` signal for
 *       every need of (a), committed to the outbox in one transaction by another process (as a
 *       bulk CLI change would be); deliveries/s from that commit to the last receipt, noticing the
 *       change, fan-out, signing, sending and recording included (see support/webhook-backlog.ts).
 *    c. The ceiling: a bare undici POST loop, one sequential lane per path, replaying the very
 *       requests the receiver captured in (a) (same bodies, same headers) to the same receiver.
 *    Every signature is checked with the consumer kit, duplicates and missing pairs counted.
 *    (b) runs BENCH_BACKLOG_REPEATS times and (c) BENCH_CEILING_REPEATS times; each keeps its median.
 *    Target: the dispatcher's rate (b) ≥ 60 % of the ceiling.
 * 2. Fan-out: one need to BENCH_FANOUT destinations on a second fresh server; commit → last receipt.
 * 3. Pool vs inline: benchPreparers on the same batches (standard JSON, mixed formats, and the
 *    largest batch this run's dispatcher can build).
 *
 * The receiver is a bare keep-alive node:http server in its OWN child process: the dispatcher
 * phase then runs one sender process (the server) against one receiver process, and the ceiling
 * one sender process (this one, idle otherwise) against the same receiver process. A receiver
 * inside this process would share an event loop with the ceiling's client but not with the
 * dispatcher, which on 2 cores would handicap the ceiling and flatter the ratio.
 *
 * Environment: BENCH_DELIVERY_NEEDS (default 400), BENCH_DESTINATIONS (50), BENCH_FANOUT (1000),
 * BENCH_WARMUP_NEEDS (untimed needs before phase 1, default 10), BENCH_PREPARE_JOBS (20000),
 * BENCH_PREPARE_ROUNDS (5), BENCH_CEILING_REPEATS (measured replays, median kept, default 3),
 * BENCH_BACKLOG_REPEATS (backlogs on the same server, median kept, default 3),
 * BENCH_WAIT_IDLE (s to wait for an idle machine before the start and each timed part, default 60),
 * BENCH_CPU_PROF=1 (run the phase-1 server under --cpu-prof and print its top self-time functions
 * over the measured window; the profiler slows the server, so its figures are marked PROFILED),
 * BENCH_SQL_TRACE=1 (preload bench/support/webhook-sql-trace.cjs into both servers: count and time
 * every SQLite statement over each measured window),
 * BENCH_NODE_FLAGS (extra node flags for the Packline servers, e.g. `--trace-gc`),
 * BENCH_KEEP_DATA=1 (keep data directories, server logs and profiles).
 * Results: printed, and written to bench/results-webhooks.json. The exit code stays 0 on a missed
 * target (a measurement, not a test).
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitForIdle } from './support/load.ts';
import { ROOT } from './support/processes.ts';
import { formatInt, formatPercent, machine, writeResults } from './support/report.ts';
import { runCeilingPhase, runDeliveryPhase } from './support/webhook-delivery.ts';
import { runFanoutPhase } from './support/webhook-fanout.ts';
import { runPreparerPhase } from './support/webhook-preparers.ts';
import { startReceiver } from './support/webhook-receiver.ts';
import {
  RATIO_TARGET,
  cpuTable,
  deliveryTable,
  fanoutTable,
  phaseNotes,
  preparerTable,
  profileTables,
  sqlTable,
} from './support/webhook-report.ts';
import { positive } from './support/settings.ts';

const NEEDS = positive('BENCH_DELIVERY_NEEDS', 400, { integer: true });
const DESTINATIONS = positive('BENCH_DESTINATIONS', 50, { integer: true });
const FANOUT = positive('BENCH_FANOUT', 1000, { integer: true });
const WARMUP_NEEDS = positive('BENCH_WARMUP_NEEDS', 10, { zero: true, integer: true });
const PREPARE_JOBS = positive('BENCH_PREPARE_JOBS', 20_000, { integer: true });
const PREPARE_ROUNDS = positive('BENCH_PREPARE_ROUNDS', 5, { integer: true });
const CEILING_REPEATS = positive('BENCH_CEILING_REPEATS', 3, { integer: true });
const BACKLOG_REPEATS = positive('BENCH_BACKLOG_REPEATS', 3, { integer: true });
const WAIT_IDLE = positive('BENCH_WAIT_IDLE', 60, { zero: true, integer: true });
const flag = (name: string) => ['1', 'true', 'yes'].includes((process.env[name] ?? '').toLowerCase());
const PROFILE = flag('BENCH_CPU_PROF');
const SQL_TRACE = flag('BENCH_SQL_TRACE');
/** CPU share (% of all cores) taken by other processes above which a phase is flagged noisy. */
const NOISE_PERCENT = 5;
const RESULTS_FILE = join(ROOT, 'bench/results-webhooks.json');

const say = (line = '') => process.stdout.write(`${line}\n`);

async function main() {
  const host = machine();
  const loadAtStart = loadavg().map((n) => Math.round(n * 100) / 100);
  say('# Packline webhook benchmark');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}; load average at start ${loadAtStart.join(', ')}`);
  say(
    `Settings: ${NEEDS} needs × ${DESTINATIONS} destinations, fan-out ${FANOUT}, warm-up ${WARMUP_NEEDS} needs, preparers ${PREPARE_JOBS} jobs × ${PREPARE_ROUNDS} rounds${PROFILE ? ', PROFILED (--cpu-prof)' : ''}${SQL_TRACE ? ', SQL-TRACED' : ''}`,
  );
  say();
  const notes: string[] = [];
  let lastNotice = 0;
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => {
    if (Date.now() - lastNotice < 10_000) return;
    lastNotice = Date.now();
    say(`Waiting for an idle machine: ${percent} % of all cores busy (up to ${WAIT_IDLE} s, BENCH_WAIT_IDLE)...`);
  });
  say(`Machine busy before start: ${idle.machinePercent} % of all cores (load average ${idle.loadAverage.join(', ')})`);
  if (idle.machinePercent > NOISE_PERCENT)
    notes.push(
      `the machine was ${idle.machinePercent} % busy before the start (load average ${idle.loadAverage.join(', ')}): numbers are noisy`,
    );

  // Before each timed part: wait (up to BENCH_WAIT_IDLE) for other processes to leave the CPU.
  const waitIdle = async (what: string) => {
    let told = false;
    const check = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) => {
      if (!told) say(`  waiting for an idle machine before ${what}: ${percent} % of all cores busy...`);
      told = true;
    });
    if (check.machinePercent > NOISE_PERCENT) notes.push(`${what}: the machine was ${check.machinePercent} % busy just before it`);
  };

  say('Starting the receiver (bare keep-alive node:http, own process)...');
  const receiver = await startReceiver();
  say(`  ${receiver.origin}`);
  try {
    // 1. Deliveries vs ceiling.
    const {
      phase: delivery,
      captured,
      backlogs,
    } = await runDeliveryPhase(receiver, {
      needs: NEEDS,
      destinationCount: DESTINATIONS,
      warmupNeeds: WARMUP_NEEDS,
      profile: PROFILE,
      sqlTrace: SQL_TRACE,
      say,
      waitIdle,
      backlogRepeats: BACKLOG_REPEATS,
    });
    const backlog = [...backlogs].sort((x, y) => x.perSecond - y.perSecond)[Math.floor((backlogs.length - 1) / 2)]!;
    await sleep(1_000);
    const ceiling = await runCeilingPhase(receiver, captured, {
      warmupPerLane: Math.min(40, NEEDS),
      repeats: CEILING_REPEATS,
      say,
      waitIdle,
    });
    const ratio = ceiling.median.result.perSecond > 0 ? backlog.perSecond / ceiling.median.result.perSecond : 0;
    const liveRatio = ceiling.median.result.perSecond > 0 ? delivery.check.perSecond / ceiling.median.result.perSecond : 0;

    // 2. Fan-out.
    await sleep(1_000);
    const fanout = await runFanoutPhase(receiver, { destinationCount: FANOUT, sqlTrace: SQL_TRACE, say, waitIdle });
    await receiver.stop();

    // 3. Pool vs inline, with no server running.
    await sleep(1_000);
    await waitIdle('pool vs inline');
    const preparers = await runPreparerPhase({ jobs: PREPARE_JOBS, rounds: PREPARE_ROUNDS, lanes: DESTINATIONS, say });

    notes.push(...phaseNotes({ delivery, backlogs, ceiling, fanout, preparers }, NOISE_PERCENT));
    const c = delivery.check;
    const b = backlog.check;
    if (PROFILE)
      notes.push('PROFILED: the phase-1 server ran under --cpu-prof, which slows it; rerun without BENCH_CPU_PROF for the figures');
    if (SQL_TRACE)
      notes.push(
        'SQL-TRACED: the servers timed every SQLite statement (BENCH_SQL_TRACE), which costs a little; rerun without it for the figures',
      );

    // Report.
    const verdict = ratio >= RATIO_TARGET ? 'OK' : `MISSED (${formatPercent(ratio)} < ${formatPercent(RATIO_TARGET)})`;
    const table1 = deliveryTable(delivery, backlog, ceiling, { ratio, liveRatio });
    const cpu = cpuTable([
      ['live', delivery.cpu],
      ['backlog', backlog.cpu],
      ['ceiling (median run)', ceiling.median.cpu],
      ...fanout.rounds.map((round) => [`fan-out ${round.label}`, round.cpu] as [string, typeof round.cpu]),
    ]);
    say();
    say('## Results');
    say();
    say(
      `Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; load average at start ${loadAtStart.join(', ')}; busy before start ${idle.machinePercent} %.`,
    );
    say();
    const code = (s: typeof delivery.sources) =>
      `commit ${s.commit}, delivery code ${s.deliveryCodeHash}${s.uncommitted.length ? ` (uncommitted: ${s.uncommitted.join(', ')})` : ''}`;
    say(`Code: phase 1 server ${code(delivery.sources)}; fan-out server ${code(fanout.sources)}.`);
    if (delivery.sources.deliveryCodeHash !== fanout.sources.deliveryCodeHash)
      notes.push('the delivery code changed on disk between the phase-1 and the fan-out server starts');
    say();
    say(
      `### 1. Deliveries vs ceiling: ${formatInt(NEEDS)} needs × ${formatInt(delivery.destinations)} destinations → ${formatInt(c.expected)} signed deliveries${PROFILE ? ' (PROFILED)' : ''}`,
    );
    say();
    say(table1);
    say();
    say(
      `Verdict: ${verdict} (the dispatcher's rate, backlog row). Spans: live, first commit → last receipt; backlog, its commit → last receipt; ceiling, first request → last answer.`,
    );
    say(`Backlog runs: ${backlogs.map((run) => `${formatInt(run.perSecond)}/s`).join(', ')} (median used).`);
    say(`Ceiling runs: ${ceiling.runs.map((run) => `${formatInt(run.result.perSecond)}/s`).join(', ')} (median used).`);
    say(
      `Phase-1 server memory: peak RSS ${delivery.memory.highWaterMiB} MiB (VmHWM, warm-up to last backlog); largest samples ${delivery.memory.anonymousPeakMiB} MiB anonymous, ${delivery.memory.filePeakMiB} MiB of mapped files.`,
    );
    say(
      `Live: publishNeed ${formatInt(NEEDS)} calls in ${formatInt(delivery.publish.ms)} ms (${formatInt(delivery.publish.perSecond)}/s, ${delivery.publish.concurrency} in flight), during the delivery span.`,
    );
    say(
      `After the last publishNeed answer: ${formatInt(delivery.drain.deliveries)} deliveries in ${formatInt(delivery.drain.ms)} ms = ${formatInt(delivery.drain.perSecond)}/s (${formatPercent(delivery.drain.perSecond / ceiling.median.result.perSecond)} of the ceiling) with nothing else to do.`,
    );
    say(
      `Live lag (occurred_at → receipt): min ${c.lag.minMs}, p50 ${c.lag.p50Ms}, p90 ${c.lag.p90Ms}, p99 ${c.lag.p99Ms}, max ${c.lag.maxMs} ms. Bodies ${c.bodyBytes.min}–${c.bodyBytes.max} B (median ${c.bodyBytes.median}).`,
    );
    say(
      `Backlog: ${formatInt(backlog.needs)} signals committed to the outbox at once, on the same server; ${formatInt(b.received)} deliveries in ${formatInt(backlog.spanMs)} ms from the commit (first receipt after ${formatInt(backlog.firstReceiptMs)} ms): ${formatInt(backlog.perSecond)}/s. ` +
        `Its record: ${backlog.recorded.succeeded} succeeded, ${backlog.recorded.pending} pending, ${backlog.recorded.failed} failed among the newest ${backlog.recorded.seen}.`,
    );
    say(
      `Server record (newest 50 per destination): ${delivery.recorded.succeeded} succeeded, ${delivery.recorded.pending} pending, ${delivery.recorded.failed} failed, ${delivery.recorded.retried} retried; ` +
        `all recorded ${delivery.recorded.settledAfterLastReceiptMs ?? '(not settled)'} ms after the last receipt (or earlier: checked after a 1 s settle).`,
    );
    say();
    say('CPU by process during the timed part (% of one core; 2 cores = 200 %):');
    say();
    say(cpu);
    say();
    say(
      `### 2. Fan-out: 1 need → ${formatInt(fanout.destinations)} destinations (${fanout.organizations} Clan organizations, fresh server)`,
    );
    say();
    say(fanoutTable(fanout));
    say();
    say(`### 3. Pool vs inline (benchPreparers, ${PREPARE_ROUNDS} rounds, median)`);
    say();
    say(preparerTable(preparers));
    say();
    if (delivery.sql) {
      say('### SQLite statements of the live run (first publish → last receipt, every thread)');
      say();
      say(sqlTable(delivery.sql));
      say();
    }
    if (backlog.sql) {
      say('### SQLite statements of the backlog (its commit → last receipt, every thread)');
      say();
      say(sqlTable(backlog.sql));
      say();
    }
    for (const round of fanout.rounds) {
      if (!round.sql) continue;
      say(`### SQLite statements of the fan-out server, ${round.label} round (publish → last receipt; per delivery = per destination)`);
      say();
      say(sqlTable(round.sql));
      say();
    }
    for (const [label, profiles] of [
      ['live', delivery.profiles],
      ['backlog', backlog.profiles],
    ] as const) {
      if (profiles.length === 0) continue;
      say(`### Server CPU profile (${label}, measured window), top self time`);
      say();
      for (const profile of profiles) {
        if (profile.sampledMs - profile.idleMs < 50) continue;
        say(profileTables(profile));
        say();
      }
    }
    for (const note of new Set(notes)) say(`Note: ${note}`);

    writeResults(RESULTS_FILE, {
      benchmark: 'webhooks',
      at: new Date().toISOString(),
      machine: { ...host, loadAverageAtStart: loadAtStart },
      idleBefore: idle,
      settings: {
        needs: NEEDS,
        destinations: DESTINATIONS,
        fanout: FANOUT,
        warmupNeeds: WARMUP_NEEDS,
        prepareJobs: PREPARE_JOBS,
        prepareRounds: PREPARE_ROUNDS,
        ceilingRepeats: CEILING_REPEATS,
        backlogRepeats: BACKLOG_REPEATS,
        profiled: PROFILE,
        sqlTraced: SQL_TRACE,
        database: 'sqlite',
        logLevel: 'warn',
        receiver: 'own child process',
      },
      deliveries: {
        packline: delivery,
        backlog,
        backlogRuns: backlogs.map((run) => ({ perSecond: run.perSecond, spanMs: run.spanMs, otherCpuPercent: run.cpu.otherPercent })),
        ceiling,
        ratio: Math.round(ratio * 1000) / 1000,
        liveRatio: Math.round(liveRatio * 1000) / 1000,
        ratioTarget: RATIO_TARGET,
        met: ratio >= RATIO_TARGET,
        verdict,
      },
      fanout,
      preparers,
      notes: [...new Set(notes)],
      tables: {
        deliveries: table1,
        cpu,
        fanout: fanoutTable(fanout),
        preparers: preparerTable(preparers),
        ...(delivery.sql ? { sql: sqlTable(delivery.sql) } : {}),
        ...(backlog.sql ? { backlogSql: sqlTable(backlog.sql) } : {}),
      },
    });
    say();
    say(`Written to ${RESULTS_FILE}`);
  } finally {
    await receiver.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
