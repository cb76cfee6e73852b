/**
 * Every benchmark in one run: `npm run bench`.
 *
 * Runs, one after the other and each as its own child process with this environment, the REST
 * benchmark (bench:rest), the webhook benchmark (bench:webhooks), the MCP benchmark (bench:mcp),
 * the REST facade against the SOFA peer (bench:peer) and the REST API under changes (bench:churn); then reads the results file each wrote
 * (only if written by this run), adds bench/results-deep-page.json when present (not run here),
 * and writes bench/results.json and one markdown table with every figure, ceiling, ratio and
 * target to bench/RESULTS.md, to stdout and, when every benchmark gave fresh results, between the
 * `<!-- bench:start -->` and `<!-- bench:end -->` markers of docs/benchmarks.md (BENCH_README=0: not).
 *
 * Environment: everything the benchmarks read (BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS,
 * BENCH_WAIT_IDLE, the webhook knobs…) passes through unchanged. The exit code is 1 when a
 * benchmark failed, 0 otherwise (missed targets are measurements, not failures).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './support/processes.ts';
import { machine, markdownTable, writeResults } from './support/report.ts';
import { positive } from './support/settings.ts';
import {
  renderSummary,
  replaceBenchBlock,
  type BenchName,
  type BenchRun,
  type ChurnResults,
  type DeepPageResults,
  type McpResults,
  type PeerResults,
  type RestResults,
  type Summary,
  type WebhookResults,
} from './support/summary.ts';

const BENCHES: readonly { name: BenchName; script: string; results: string }[] = [
  { name: 'rest', script: 'bench/rest.bench.ts', results: 'bench/results-rest.json' },
  { name: 'webhooks', script: 'bench/webhooks.bench.ts', results: 'bench/results-webhooks.json' },
  { name: 'mcp', script: 'bench/mcp.bench.ts', results: 'bench/results-mcp.json' },
  { name: 'peer', script: 'bench/peer.bench.ts', results: 'bench/results-peer.json' },
  { name: 'churn', script: 'bench/churn.bench.ts', results: 'bench/results-churn.json' },
];
const DEEP_PAGE = 'bench/results-deep-page.json';
function runBench(script: string): Promise<number | null> {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: process.env, stdio: 'inherit' });
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

/** The results file, if it was written at or after `since` (ms). */
function freshResults<T>(file: string, since: number): T | null {
  const path = join(ROOT, file);
  if (!existsSync(path) || statSync(path).mtimeMs < since) return null;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

async function main() {
  const ranAt = new Date();
  const runs: BenchRun[] = [];
  const found: Partial<Record<BenchName, unknown>> = {};
  for (const bench of BENCHES) {
    process.stdout.write(`\n=== npm run bench: ${bench.name} (${bench.script}) ===\n\n`);
    const started = Date.now();
    const exitCode = await runBench(bench.script);
    const results = freshResults(bench.results, started);
    found[bench.name] = results;
    runs.push({ name: bench.name, exitCode, seconds: Math.round((Date.now() - started) / 1000), fresh: results !== null });
  }
  const deepPath = join(ROOT, DEEP_PAGE);
  const summary: Summary = {
    machine: machine(),
    ranAt: ranAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings: {
      durationS: positive('BENCH_DURATION', 10),
      warmupS: positive('BENCH_WARMUP', 3),
      connections: positive('BENCH_CONNECTIONS', 100),
    },
    runs,
    rest: found.rest as RestResults | null,
    webhooks: found.webhooks as WebhookResults | null,
    mcp: found.mcp as McpResults | null,
    peer: found.peer as PeerResults | null,
    churn: found.churn as ChurnResults | null,
    deepPage: existsSync(deepPath) ? (JSON.parse(readFileSync(deepPath, 'utf8')) as DeepPageResults) : null,
  };
  const table = renderSummary(summary);
  writeResults(join(ROOT, 'bench/results.json'), { ...summary, table });
  writeFileSync(join(ROOT, 'bench/RESULTS.md'), `# Benchmark results\n\n${table}`);
  process.stdout.write(`\n# All benchmarks\n\n${table}\n`);
  process.stdout.write(
    `${markdownTable(
      ['benchmark', 'exit code', 'seconds', 'fresh results'],
      runs.map((r) => [r.name, String(r.exitCode), r.seconds, r.fresh ? 'yes' : 'NO']),
    )}\n\n`,
  );
  process.stdout.write('Written to bench/results.json and bench/RESULTS.md\n');
  const complete = runs.every((r) => r.exitCode === 0 && r.fresh);
  if (complete && process.env.BENCH_README !== '0') {
    const readmePath = join(ROOT, 'docs', 'benchmarks.md');
    const readme = readFileSync(readmePath, 'utf8');
    const updated = replaceBenchBlock(readme, table);
    if (updated !== readme) {
      writeFileSync(readmePath, updated);
      process.stdout.write('docs/benchmarks.md: the table between the bench markers is updated\n');
    }
  }
  return complete ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
