/**
 * REST facade against a peer: `npm run bench:peer`.
 *
 * Packline (`node bin/packline.js start`, SQLite, demo data, request logging) and the SOFA peer
 * (bench/support/sofa-peer-server.ts: graphql-yoga + @graphql-yoga/plugin-sofa over the same
 * schema, context factory, key authenticator, limits and database file) each run as a child
 * process; autocannon runs here. Before anything is measured, the five endpoints of both are
 * compared (ids and every value, once SOFA's answer is put in the REST representation).
 *
 * Order: warm-up of every endpoint on Packline, then on the peer; then per endpoint Packline and
 * the peer, one after the other. Each measured phase spends the quota of its own Clan
 * organizations (created through the CLI) so no call is refused.
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS
 * (default 100), BENCH_WAIT_IDLE (s, default 60). Results: printed, and bench/results-peer.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PLAN_ALLOWANCES } from '../core/plans.ts';
import { load, waitForIdle, type KeyedRequest, type LoadResult } from './support/load.ts';
import { SHAPE_NOTE, compareAnswers, peerEndpoints, peerPathFor, type Comparison, type PeerEndpoint } from './support/peer-compare.ts';
import { FAIRNESS_NOTES, comparisonTable, formatRatio, peerRow, peerTable, type PeerRow } from './support/peer-report.ts';
import { ROOT, createOrgKeys, logSummary, startPackline, type BenchKey } from './support/processes.ts';
import { formatInt, formatMs, machine, writeResults } from './support/report.ts';
import { startSofaPeer } from './support/sofa-peer-process.ts';
import { positive } from './support/settings.ts';

const DURATION = positive('BENCH_DURATION', 10);
const WARMUP = positive('BENCH_WARMUP', 3);
const WAIT_IDLE = positive('BENCH_WAIT_IDLE', 60, { zero: true });
const CONNECTIONS = positive('BENCH_CONNECTIONS', 100);
const NOISE_PERCENT = 5;
const RESULTS_FILE = join(ROOT, 'bench/results-peer.json');
/** Calls one organization may take in one phase: well under the Clan monthly quota. */
const CALLS_PER_ORG = Math.floor(PLAN_ALLOWANCES.clan.monthlyQuota * 0.8);

const say = (line = '') => process.stdout.write(`${line}\n`);
/** The peer addresses the organization by id where Packline takes it from the key: each key gets its own path. */
const loadKeyed = (origin: string, requests: KeyedRequest[], duration: number, pids: number[]) =>
  load({ url: origin + requests[0]!.path, requests, connections: CONNECTIONS, duration, pids });
const brief = (r: LoadResult) =>
  `${formatInt(r.reqPerSec)} req/s, p50 ${formatMs(r.p50Ms)} ms, p99 ${formatMs(r.p99Ms)} ms, ${formatInt(r.total)} answers, non-2xx ${r.non2xx}, errors ${r.errors}`;
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

type Side = 'packline' | 'peer';

/** One request per key, on `side`'s path of `endpoint`. */
const requestsFor = (endpoint: PeerEndpoint, side: Side, keys: BenchKey[]): KeyedRequest[] =>
  keys.map((k) => ({
    path: side === 'packline' ? endpoint.packline : peerPathFor(endpoint, k.organizationId),
    authorization: `Bearer ${k.key}`,
  }));

async function main() {
  const host = machine();
  const peerVersion = `graphql-yoga ${version('graphql-yoga')} + @graphql-yoga/plugin-sofa ${version('@graphql-yoga/plugin-sofa')} (sofa-api ${version('sofa-api')})`;
  say('# Packline REST vs a SOFA peer');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}`);
  say(`Peer: ${peerVersion}`);
  say(
    `Load: autocannon, ${CONNECTIONS} connections, pipelining 1, ${DURATION} s per phase after ${WARMUP} s warm-up per endpoint and side`,
  );
  const notes: string[] = [];
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (percent) =>
    say(`Waiting for an idle machine: ${percent} % of all cores busy...`),
  );
  say(`Machine busy before start: ${idle.machinePercent} % of all cores (load average ${idle.loadAverage.join(', ')})`);
  if (idle.machinePercent > NOISE_PERCENT)
    notes.push(`the machine was ${idle.machinePercent} % busy before the start (load average ${idle.loadAverage.join(', ')})`);

  say('Starting Packline (SQLite, demo data, LOG_LEVEL=info, logs to a file)...');
  const server = await startPackline({ env: { RATE_LIMIT_PER_MINUTE: '1000000000' } });
  if (!server.demoKey) throw new Error('The banner shows no demo API key');
  say(`  ${server.origin}, data in ${server.dataDir}`);
  say('Starting the SOFA peer on the same database...');
  const peer = await startSofaPeer({ env: server.env, publicBaseUrl: server.origin });
  say(`  ${peer.origin}`);
  const pids = [server.child.pid!, peer.child.pid!];

  try {
    const demo = { authorization: `Bearer ${server.demoKey}` };
    const first = async (path: string) => {
      const body = (await (await fetch(server.origin + path, { headers: demo })).json()) as { id?: string; data?: { id: string }[] };
      const id = body.data ? body.data[0]?.id : body.id;
      if (!id) throw new Error(`GET ${path} gave no id: ${JSON.stringify(body).slice(0, 300)}`);
      return id;
    };
    const endpoints = peerEndpoints({
      organizationId: await first('/api/v1/organization'),
      opportunityId: await first('/api/v1/opportunities?limit=1'),
      eventId: await first('/api/v1/events?limit=1'),
    });

    say('Comparing the answers of both (demo key)...');
    const before = await compareAnswers(server.origin, peer.origin, server.demoKey, endpoints);
    say();
    say(comparisonTable(before));
    say();
    for (const c of before) if (!c.sameData) notes.push(`before the load, ${c.endpoint} differs: ${c.differences.join('; ')}`);

    say('Creating the warm-up organizations and keys through the CLI...');
    const warmIds = (side: Side) => [1, 2, 3].map((i) => `peer-warm-${side}-${i}`);
    const warm = await createOrgKeys(server.env, [...warmIds('packline'), ...warmIds('peer')]);
    notes.push(...warm.warnings);
    const warmKeys = { packline: warm.keys.slice(0, 3), peer: warm.keys.slice(3) };
    const origins = { packline: server.origin, peer: peer.origin };

    const warmups: Record<string, LoadResult> = {};
    for (const side of ['packline', 'peer'] as const) {
      for (const endpoint of endpoints) {
        say(`Warm-up ${side} ${endpoint.name} (${WARMUP} s)...`);
        const r = await loadKeyed(origins[side], requestsFor(endpoint, side, warmKeys[side]), WARMUP, pids);
        warmups[`${side} ${endpoint.name}`] = r;
        say(`  ${brief(r)}`);
      }
    }

    // Enough organizations per phase for 1.5 times the fastest warm-up rate, each far below its quota.
    const rate = Math.max(...Object.values(warmups).map((r) => r.total / Math.max(r.durationS, 0.001)));
    const orgsPerPhase = Math.max(1, Math.ceil((rate * 1.5 * DURATION) / CALLS_PER_ORG));
    const phases = endpoints.flatMap((endpoint, e) =>
      (['packline', 'peer'] as const).map((side) => ({ endpoint, side, prefix: `peer-${e + 1}-${side}` })),
    );
    say(`Creating ${orgsPerPhase} organization(s) and key(s) per measured phase (${phases.length} phases) through the CLI...`);
    const ids = phases.flatMap((p) => Array.from({ length: orgsPerPhase }, (_, i) => `${p.prefix}-${i + 1}`));
    const measured = await createOrgKeys(server.env, ids);
    notes.push(...measured.warnings);

    const results = new Map<string, LoadResult>();
    for (const [p, phase] of phases.entries()) {
      const keys = measured.keys.slice(p * orgsPerPhase, (p + 1) * orgsPerPhase);
      await sleep(1_000);
      say(`Measuring ${phase.side} ${phase.endpoint.name} (${DURATION} s)...`);
      const r = await loadKeyed(origins[phase.side], requestsFor(phase.endpoint, phase.side, keys), DURATION, pids);
      say(`  ${brief(r)}`);
      results.set(`${phase.side} ${phase.endpoint.name}`, r);
    }
    for (const [label, child] of [
      ['Packline', server.child],
      ['the peer', peer.child],
    ] as const) {
      if (child.exitCode !== null || child.signalCode !== null)
        notes.push(`${label} exited (${child.exitCode ?? child.signalCode}) during the run`);
    }

    const after = await compareAnswers(server.origin, peer.origin, server.demoKey, endpoints);
    for (const c of after) if (!c.sameData) notes.push(`after the load, ${c.endpoint} differs: ${c.differences.join('; ')}`);
    const rows = endpoints.map((endpoint) =>
      peerRow(
        endpoint.name,
        results.get(`packline ${endpoint.name}`)!,
        results.get(`peer ${endpoint.name}`)!,
        before.find((c) => c.endpoint === endpoint.name),
        NOISE_PERCENT,
      ),
    );
    await peer.stop();
    await server.stop();
    const logs = logSummary(server.logFile);
    for (const level of ['warn', 'error', 'fatal'])
      if (logs.byLevel[level]) notes.push(`Packline log: ${logs.byLevel[level]} ${level} line(s), e.g. ${logs.problems[0] ?? ''}`);
    if (/\bERR\b|Error/.test(peer.output())) notes.push(`the peer wrote errors: ${peer.output().slice(0, 500)}`);

    report({ host, idle, peerVersion, orgsPerPhase, rows, before, after, warmups, logs, notes });
  } finally {
    await peer.stop();
    await server.stop();
  }
}

interface Report {
  host: ReturnType<typeof machine>;
  idle: Awaited<ReturnType<typeof waitForIdle>>;
  peerVersion: string;
  orgsPerPhase: number;
  rows: PeerRow[];
  before: Comparison[];
  after: Comparison[];
  warmups: Record<string, LoadResult>;
  logs: ReturnType<typeof logSummary>;
  notes: string[];
}

function report({ host, idle, peerVersion, orgsPerPhase, rows, before, after, warmups, logs, notes }: Report) {
  const table = peerTable(rows);
  say();
  say('## Results');
  say();
  say(
    `Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; ${CONNECTIONS} connections, pipelining 1, ${DURATION} s per phase; peer: ${peerVersion}.`,
  );
  say();
  say(table);
  say();
  for (const note of [SHAPE_NOTE, ...FAIRNESS_NOTES]) say(`- ${note}`);
  say();
  say(`Packline / peer: ${rows.map((r) => `${r.endpoint} ${formatRatio(r.ratio)}`).join('; ')}.`);
  for (const note of new Set(notes)) say(`Note: ${note}`);
  writeResults(RESULTS_FILE, {
    benchmark: 'peer',
    at: new Date().toISOString(),
    machine: host,
    idleBefore: idle,
    settings: {
      connections: CONNECTIONS,
      pipelining: 1,
      durationS: DURATION,
      warmupS: WARMUP,
      orgsPerPhase,
      noiseThresholdPercent: NOISE_PERCENT,
      database: 'sqlite',
      logLevel: 'info',
      peer: peerVersion,
      peerLimits: true,
    },
    endpoints: rows,
    comparisons: { before, after },
    warmups,
    serverLog: logs,
    shape: SHAPE_NOTE,
    fairness: FAIRNESS_NOTES,
    notes: [...new Set(notes)],
    table,
  });
  say();
  say(`Written to ${RESULTS_FILE}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
