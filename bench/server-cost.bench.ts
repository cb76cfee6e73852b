/**
 * A cached answer's cost against another checkout: `npm run bench:server-cost -- --against DIR
 * [--node PATH] [--rounds N]`.
 *
 * bench:paired compares each checkout's benchmark as a whole, so each side's ratio carries its own
 * runtime's load generator and bare ceiling. This one sets the two servers side by side under ONE
 * load generator: this checkout's server (on this checkout's Node) and DIR's (on the `node` its PATH
 * finds, or --node), each on fresh SQLite data with its demonstration content, Clan organizations
 * and keys made through its own CLI. Both are loaded with the same autocannon, 100 connections, on
 * the REST API's cached answers (the first list page, and the first opportunity by id), in rounds
 * that alternate the servers, the order flipped every round.
 *
 * Printed per endpoint and server: req/s and the server process's CPU per answer, µs, per round;
 * each judged over the rounds as bench:paired judges a ratio (a 90 % bootstrap interval of the
 * change of the medians; a cost is worse when it rises by more than 5 %). CPU per answer is the
 * figure to read: it does not depend on how fast the load generator runs.
 *
 * Environment: BENCH_DURATION (s per round, 5), BENCH_WARMUP (s, 3). Results: printed, and
 * bench/results-server-cost.json. The exit code stays 0 (a measurement, not a test).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { capture } from './support/ceiling.ts';
import { cpuMs } from './support/computed.ts';
import { load } from './support/load.ts';
import {
  checkoutOptions,
  commitOf,
  nodeExecutable,
  nodeOnPath,
  otherCheckoutEnv,
  runScript,
  UsageError,
} from './support/other-checkout.ts';
import { pairedTable, pairUp, type Figure } from './support/paired.ts';
import { ROOT, startPackline, type PacklineServer } from './support/processes.ts';
import { formatInt, machine, writeResults } from './support/report.ts';
import { positive } from './support/settings.ts';

const DURATION = positive('BENCH_DURATION', 5, { integer: true });
const WARMUP = positive('BENCH_WARMUP', 3, { integer: true });
const CONNECTIONS = 100;
const LIST = '/api/v1/opportunities?limit=20';
/** A Clan organization's monthly quota is 100,000 calls; each spends at most this share. */
const CALLS_PER_ORG = 80_000;
/** More than either server answers a second here, to size the organizations. */
const MOST_PER_SECOND = 40_000;

const say = (line = '') => process.stdout.write(`${line}\n`);
const run = promisify(execFile);

function options(argv: string[]) {
  const { other, values } = checkoutOptions(argv, ['node', 'rounds']);
  const rounds = values.rounds === undefined ? 4 : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 3) throw new UsageError(`--rounds takes a whole number of at least 3 (got '${values.rounds}')`);
  const otherNode = values.node === undefined ? nodeOnPath(otherCheckoutEnv()) : nodeExecutable(values.node);
  if (!otherNode) throw new UsageError('no node found on PATH for the other checkout: give --node PATH');
  return { against: other.dir, otherNode, rounds };
}

interface Side {
  name: 'other' | 'this';
  root: string;
  node: string;
  server: PacklineServer;
  version: string;
  keys: string[];
  byIdPath: string;
}

/** Clan organizations and keys through the checkout's own CLI, one command at a time. */
async function keysOf(root: string, node: string, env: NodeJS.ProcessEnv, count: number): Promise<string[]> {
  const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
  const cli = async (...args: string[]) => (await run(node, [join(root, 'bin/packline.js'), ...args], { cwd: root, env })).stdout;
  const keys: string[] = [];
  for (let i = 1; i <= count; i++) {
    const id = `cost-${i}`;
    await cli('orgs', 'create', '--id', id, '--name', `Cost ${i}`, '--plan', 'clan', '--json');
    const created = JSON.parse(
      await cli('keys', 'create', '--org', id, '--scopes', 'opportunities:read', '--expires-at', expiresAt, '--name', id, '--json'),
    ) as { key?: string };
    if (!created.key) throw new Error(`packline keys create in ${root} printed no key`);
    keys.push(`Bearer ${created.key}`);
  }
  return keys;
}

async function open(name: Side['name'], root: string, node: string, orgs: number): Promise<Side> {
  const server = await startPackline({ root, node, env: { RATE_LIMIT_PER_MINUTE: '1000000000' } });
  const version = (await run(node, ['--version'])).stdout.trim();
  const keys = await keysOf(root, node, server.env, orgs);
  const first = await capture(server.origin, LIST, { authorization: keys[0]! });
  const id = (JSON.parse(first.body.toString()) as { data?: { id: string }[] }).data?.[0]?.id;
  if (first.status !== 200 || !id) throw new Error(`${root}: GET ${LIST} answered ${first.status} with no opportunity`);
  return { name, root, node, server, version, keys, byIdPath: `/api/v1/opportunities/${encodeURIComponent(id)}` };
}

interface Endpoint {
  name: string;
  path: (side: Side) => string;
}

/** One autocannon run on `side`'s endpoint, `pids` watched; a refused or failed answer stops the benchmark. */
async function loaded(side: Side, endpoint: Endpoint, duration: number, pids: number[], what = '') {
  const r = await load({
    url: side.server.origin + endpoint.path(side),
    connections: CONNECTIONS,
    duration,
    authorizations: side.keys,
    pids,
  });
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${what}${side.name} ${endpoint.name}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
  return r;
}

async function main(): Promise<number> {
  const { against, otherNode, rounds } = options(process.argv.slice(2));
  const endpoints: Endpoint[] = [
    { name: `GET ${LIST}`, path: () => LIST },
    { name: 'GET /api/v1/opportunities/{id}', path: (s) => s.byIdPath },
  ];
  const orgs = Math.ceil((endpoints.length * (rounds * DURATION + WARMUP) * MOST_PER_SECOND) / CALLS_PER_ORG);
  say("# A cached answer: the server's CPU, side by side with another checkout");
  say();
  say(`Machine: ${machine().cpu}, ${machine().cores} cores; one autocannon on ${process.version}, ${CONNECTIONS} connections`);
  say(`Starting both servers and making ${orgs} Clan organizations and keys through each one's CLI...`);
  const sides = [await open('other', against, otherNode, orgs), await open('this', ROOT, process.execPath, orgs)];
  const pids = sides.map((s) => s.server.child.pid!);
  const commits = { other: commitOf(against), this: commitOf(ROOT) };
  for (const s of sides) say(`  ${s.name} checkout: ${s.root} (${commits[s.name]}) on Node ${s.version}, ${s.server.origin}`);

  const figures: Record<Side['name'], Map<string, Figure>[]> = { other: [], this: [] };
  try {
    for (const endpoint of endpoints) {
      for (const s of sides) {
        await loaded(s, endpoint, WARMUP, pids, 'warm-up of ');
      }
    }
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
        const measured = new Map<string, Figure>();
        for (const endpoint of endpoints) {
          const pid = s.server.child.pid!;
          const before = cpuMs(pid);
          const r = await loaded(s, endpoint, DURATION, pids);
          const cost = ((cpuMs(pid) - before) * 1000) / Math.max(1, r.total);
          measured.set(`${endpoint.name}, CPU per answer`, { kind: 'cost', value: cost });
          measured.set(`${endpoint.name}, req/s`, { kind: 'rate', value: r.reqPerSec });
          say(
            `round ${round + 1}, ${s.name} checkout, ${endpoint.name}: ${formatInt(r.reqPerSec)} req/s, ${cost.toFixed(1)} µs CPU/answer, others ${r.otherCpuPercent} % CPU`,
          );
        }
        figures[s.name].push(measured);
      }
    }
  } finally {
    await Promise.all(sides.map((s) => s.server.stop()));
  }
  const judgements = pairUp(figures.other, figures.this);
  const table = pairedTable('server cost', judgements);
  say();
  say(table);
  const worse = judgements.filter((j) => j.kind === 'cost' && j.verdict === 'worse');
  say();
  say(
    worse.length > 0
      ? `This checkout's server costs more than 5 % more CPU per answer: ${worse.map((j) => j.figure).join('; ')}.`
      : "No answer costs this checkout's server more than 5 % more CPU than the other's (or it is undecided: see the table).",
  );
  const file = join(ROOT, 'bench/results-server-cost.json');
  writeResults(file, {
    benchmark: 'server-cost',
    at: new Date().toISOString(),
    machine: machine(),
    sides: sides.map((s) => ({ name: s.name, root: s.root, commit: commits[s.name], node: s.version })),
    settings: { rounds, durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS },
    rounds: { other: figures.other.map((m) => Object.fromEntries(m)), this: figures.this.map((m) => Object.fromEntries(m)) },
    judgements,
    table,
  });
  say(`Written to ${file}`);
  return 0;
}

runScript('bench:server-cost', main);
