/**
 * Cost of the tracing hooks while tracing is off: `npm run bench:telemetry`.
 *
 * Two servers in one run, both SQLite, both without OTEL_EXPORTER_OTLP_ENDPOINT: this checkout
 * (hooks present, tracing off) and the code as it was before the hooks (`git archive` of the
 * commit before core/telemetry.ts was added, or BENCH_BASE, into a temporary directory sharing
 * this node_modules). GET /api/v1/opportunities/{id} is loaded on each in turn (ABAB… rounds, so
 * drift of a shared machine falls on both), and the figures and the ratio are printed.
 *
 * Environment: BENCH_DURATION (s per round, default 5), BENCH_ROUNDS (per server, default 3),
 * BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 50), BENCH_BASE (a git revision).
 * A measurement, not a test: the exit code is 0 whatever the ratio.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { capture } from './support/ceiling.ts';
import { clean, load, type LoadResult } from './support/load.ts';
import { ROOT, createOrgKeys, startPackline, tempDir, type PacklineServer } from './support/processes.ts';
import { formatInt, formatMs, formatPercent, machine, markdownTable, median } from './support/report.ts';
import { positive } from './support/settings.ts';

const DURATION = positive('BENCH_DURATION', 5);
const ROUNDS = positive('BENCH_ROUNDS', 3, { integer: true });
const WARMUP = positive('BENCH_WARMUP', 3);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50);
const say = (line = '') => process.stdout.write(`${line}\n`);
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** The revision before the hooks: the parent of the commit that added core/telemetry.ts. */
function baseRevision(): string {
  if (process.env.BENCH_BASE) return git('rev-parse', '--verify', process.env.BENCH_BASE);
  const added = git('log', '--diff-filter=A', '--format=%H', '-1', '--', 'core/telemetry.ts');
  if (!added) throw new Error('core/telemetry.ts is not committed yet: set BENCH_BASE to the revision to compare with');
  return git('rev-parse', `${added}^`);
}

/** That revision's files in a temporary directory, using this checkout's node_modules. */
function checkout(revision: string): string {
  const dir = tempDir('packline-base-');
  execFileSync('sh', ['-c', `git archive --format=tar ${revision} | tar -x -C "${dir}"`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

interface Side {
  name: string;
  server: PacklineServer;
  auth: string[];
  url: string;
  rounds: LoadResult[];
}

async function prepare(name: string, server: PacklineServer, orgs: number): Promise<Side> {
  const list = await capture(server.origin, '/api/v1/opportunities?limit=1', { authorization: `Bearer ${server.demoKey}` });
  const id = (JSON.parse(list.body.toString()) as { data: { id: string }[] }).data[0]!.id;
  const { keys } = await createOrgKeys(
    server.env,
    Array.from({ length: orgs }, (_, i) => `bench-telemetry-${i + 1}`),
  );
  return {
    name,
    server,
    auth: keys.map((k) => `Bearer ${k.key}`),
    url: `${server.origin}/api/v1/opportunities/${encodeURIComponent(id)}`,
    rounds: [],
  };
}

const sum = (results: LoadResult[]) => {
  const seconds = results.reduce((s, r) => s + r.durationS, 0);
  const total = results.reduce((s, r) => s + r.total, 0);
  return {
    reqPerSec: total / seconds,
    p50: median(results.map((r) => r.p50Ms)),
    p99: median(results.map((r) => r.p99Ms)),
    total,
    clean: results.every(clean),
  };
};

async function main() {
  const host = machine();
  const base = baseRevision();
  say('# Tracing hooks, tracing off: REST by id, this checkout vs the code before the hooks');
  say();
  say(
    `Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per server, alternating`,
  );
  say(`Before the hooks: ${base.slice(0, 12)} (${git('log', '-1', '--format=%s', base).slice(0, 80)})`);
  const baseRoot = checkout(base);
  // Calls per server: warm-up and rounds at up to 30,000 req/s, each organization within 80 % of
  // its Clan quota (100,000 calls a month), so every call runs the whole path and none is refused.
  const orgs = Math.max(2, Math.ceil(((WARMUP + ROUNDS * DURATION) * 30_000) / 80_000));
  const env = { RATE_LIMIT_PER_MINUTE: '1000000000', OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
  const current = await startPackline({ env });
  const before = await startPackline({ env, root: baseRoot });
  try {
    const sides = [await prepare('tracing off (this checkout)', current, orgs), await prepare('no hooks (before)', before, orgs)];
    for (const side of sides) {
      const warm = await load({
        url: side.url,
        connections: CONNECTIONS,
        duration: WARMUP,
        authorizations: side.auth,
        pids: [side.server.child.pid!],
      });
      say(`warm-up ${side.name}: ${formatInt(warm.reqPerSec)} req/s`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const result = await load({
          url: side.url,
          connections: CONNECTIONS,
          duration: DURATION,
          authorizations: side.auth,
          pids: [current.child.pid!, before.child.pid!],
        });
        side.rounds.push(result);
        say(
          `round ${round + 1} ${side.name}: ${formatInt(result.reqPerSec)} req/s, p50 ${formatMs(result.p50Ms)} ms, p99 ${formatMs(result.p99Ms)} ms${clean(result) ? '' : ` NOT CLEAN ${JSON.stringify(result.statusCodes)}`}`,
        );
      }
    }
    const [off, none] = sides.map((s) => sum(s.rounds)) as [ReturnType<typeof sum>, ReturnType<typeof sum>];
    say();
    say(
      markdownTable(
        ['GET /api/v1/opportunities/{id}', 'req/s', 'p50 ms (median round)', 'p99 ms (median round)', 'answers', 'all 200'],
        sides.map((s, i) => {
          const r = i === 0 ? off : none;
          return [s.name, formatInt(r.reqPerSec), formatMs(r.p50), formatMs(r.p99), formatInt(r.total), r.clean ? 'yes' : 'NO'];
        }),
      ),
    );
    say();
    say(
      `Ratio, tracing off / no hooks: ${formatPercent(off.reqPerSec / none.reqPerSec)} of the throughput (differences of a few percent are this machine's noise).`,
    );
    if (!off.clean || !none.clean) say('WARNING: some answers were not 200 (see the rounds): the figures mix in refusals.');
  } finally {
    await current.stop();
    await before.stop();
  }
}

await main();
