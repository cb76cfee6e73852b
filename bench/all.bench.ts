/**
 * Every benchmark in one run: `npm run bench`.
 *
 * Runs, one after the other and each as its own child process with this environment, the REST
 * benchmark (bench:rest), the webhook benchmark (bench:webhooks), the MCP benchmark (bench:mcp),
 * the REST facade against the SOFA peer (bench:peer) and the REST API under changes (bench:churn); then reads the results file each wrote
 * (only if written by this run), adds bench/results-deep-page.json when present (not run here),
 * and writes bench/results.json and one markdown table with every figure, ceiling, ratio and
 * target to bench/RESULTS.md, to stdout and, when every benchmark gave fresh results, between the
 * `<!-- bench:start -->` and `<!-- bench:end -->` markers of README.md (BENCH_README=0: not).
 *
 * Environment: everything the benchmarks read (BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS,
 * BENCH_WAIT_IDLE, the webhook knobs…) passes through unchanged. The exit code is 1 when a
 * benchmark failed, 0 otherwise (missed targets are measurements, not failures).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './support/load.ts';
import type { PeerRow } from './support/peer-report.ts';
import { ROOT } from './support/processes.ts';
import { formatInt, formatMs, formatPercent, machine, markdownTable, writeResults } from './support/report.ts';

const BENCHES = [
  { name: 'rest', script: 'bench/rest.bench.ts', results: 'bench/results-rest.json' },
  { name: 'webhooks', script: 'bench/webhooks.bench.ts', results: 'bench/results-webhooks.json' },
  { name: 'mcp', script: 'bench/mcp.bench.ts', results: 'bench/results-mcp.json' },
  { name: 'peer', script: 'bench/peer.bench.ts', results: 'bench/results-peer.json' },
  { name: 'churn', script: 'bench/churn.bench.ts', results: 'bench/results-churn.json' },
] as const;
type BenchName = (typeof BENCHES)[number]['name'];
const DEEP_PAGE = 'bench/results-deep-page.json';
export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

// The parts of each results file the summary reads.
interface RestResults {
  at: string;
  settings: { durationS: number; warmupS: number; connections: number; p99TargetMs: number };
  endpoints: {
    endpoint: string;
    bodyBytes: number;
    packline: LoadResult;
    ceiling: LoadResult;
    ratio: number;
    ratioTarget: number;
    valid: boolean;
    met: boolean;
    noisy: boolean;
    missed: string[];
  }[];
  notes: string[];
}
interface WebhookResults {
  at: string;
  settings: { needs: number; destinations: number };
  deliveries: {
    packline: {
      check: {
        perSecond: number;
        expected: number;
        unique: number;
        missing: number;
        duplicates: number;
        lag: { p50Ms: number; p99Ms: number };
      };
      publish: { perSecond: number };
    };
    backlog: { perSecond: number; spanMs: number; check: { expected: number; unique: number; missing: number; duplicates: number } };
    ceiling: { median: { result: { perSecond: number } } };
    ratio: number;
    liveRatio: number;
    ratioTarget: number;
    met: boolean;
  };
  fanout: { destinations: number; rounds: { label: string; fromCommitMs: number; check: { missing: number } }[] };
  preparers: { batch: string; bench: { inline: { jobsPerSecond: number }; pool: { jobsPerSecond: number }; poolOverInline: number } }[];
  notes: string[];
}
interface McpResults {
  at: string;
  settings: { clients: number; durationS: number; ratioTarget: number };
  results: {
    label: string;
    ratio?: number;
    targeted?: boolean;
    verdict: string;
    callsPerSec: number;
    p50Ms: number;
    p99Ms: number;
    errors: number;
    toolErrors: number;
  }[];
  notes: string[];
}
interface PeerResults {
  at: string;
  settings: { durationS: number; peer: string };
  endpoints: PeerRow[];
  fairness: string[];
  notes: string[];
}
interface ChurnResults {
  at: string;
  settings: { needs: number; changesPerSec: number; connections: number; durationS: number };
  /** Each phase's rate and share of cached by-id, per database (markdown). */
  table: string;
  /** Each target's figure and verdict, per database (markdown). */
  targets: string;
  notes: string[];
}
interface DeepPageResults {
  at?: string;
  table?: string;
  tables?: Record<string, string>;
  notes?: string[];
  [field: string]: unknown;
}

export interface BenchRun {
  name: string;
  exitCode: number | null;
  seconds: number;
  /** The results file was written by this run. */
  fresh: boolean;
}

export interface Summary {
  machine: ReturnType<typeof machine>;
  ranAt: string;
  finishedAt: string;
  settings: { durationS: number; warmupS: number; connections: number };
  runs: BenchRun[];
  rest: RestResults | null;
  webhooks: WebhookResults | null;
  mcp: McpResults | null;
  peer: PeerResults | null;
  /** Results of `bench:churn` (absent from summaries written before it existed). */
  churn?: ChurnResults | null;
  /** Results of `npm run bench:deep-page` when its file exists (not run by `npm run bench`). */
  deepPage: DeepPageResults | null;
}

const numberFrom = (name: string, fallback: number) => {
  const n = Number(process.env[name] || fallback);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
const latency = (p50: number, p99: number) => `p50 ${formatMs(p50)} ms, p99 ${formatMs(p99)} ms`;
const section = (title: string, rows: (string | number)[][]) =>
  `#### ${title}\n\n${markdownTable(['measure', 'figure', 'ceiling / peer', 'ratio', 'target', 'verdict'], rows)}`;
const failed = (title: string, run: BenchRun | undefined) =>
  `#### ${title}\n\n**FAILED**: ${run ? `the benchmark exited with code ${run.exitCode} and wrote no results in this run` : 'not run'}.`;

function restSection(r: RestResults): string {
  return section(
    'REST API vs the bare node:http ceiling (same bytes)',
    r.endpoints.map((e) => [
      `${e.endpoint} (${formatInt(e.bodyBytes)} B)`,
      `${formatInt(e.packline.reqPerSec)} req/s, ${latency(e.packline.p50Ms, e.packline.p99Ms)}`,
      `${formatInt(e.ceiling.reqPerSec)} req/s`,
      formatPercent(e.ratio),
      `≥ ${formatPercent(e.ratioTarget)}, p99 ≤ ${r.settings.p99TargetMs} ms`,
      (e.valid ? (e.met ? 'MET' : `MISSED (${e.missed.join(', ')})`) : 'INVALID (non-2xx answers or errors)') + (e.noisy ? ', NOISY' : ''),
    ]),
  );
}

function webhooksSection(w: WebhookResults): string {
  const d = w.deliveries;
  const lost = (c: { missing: number; duplicates: number }) =>
    c.missing > 0 || c.duplicates > 0 ? `, ${formatInt(c.missing)} missing, ${formatInt(c.duplicates)} duplicates` : ', none lost';
  const live = d.packline.check;
  const backlog = d.backlog;
  const ceiling = `${formatInt(d.ceiling.median.result.perSecond)}/s (bare undici loop, median)`;
  const rows: (string | number)[][] = [
    [
      `deliveries/s, the dispatcher's rate: ${formatInt(w.settings.needs)} signals × ${formatInt(w.settings.destinations)} destinations committed at once, commit → last receipt`,
      `${formatInt(backlog.perSecond)}/s (${formatInt(backlog.check.unique)} of ${formatInt(backlog.check.expected)} unique${lost(backlog.check)}) in ${formatInt(backlog.spanMs)} ms`,
      ceiling,
      formatPercent(d.ratio),
      `≥ ${formatPercent(d.ratioTarget)}`,
      d.met ? 'MET' : 'MISSED',
    ],
    [
      `deliveries/s, live: ${formatInt(w.settings.needs)} needs published meanwhile (${formatInt(d.packline.publish.perSecond)}/s), first commit → last receipt`,
      `${formatInt(live.perSecond)}/s (${formatInt(live.unique)} of ${formatInt(live.expected)} unique${lost(live)}), lag p50 ${formatMs(live.lag.p50Ms)} ms, p99 ${formatMs(live.lag.p99Ms)} ms`,
      ceiling,
      formatPercent(d.liveRatio),
      '-',
      'measured',
    ],
    [
      `fan-out, 1 need → ${formatInt(w.fanout.destinations)} destinations, commit → last receipt`,
      w.fanout.rounds.map((round) => `${round.label} ${formatInt(round.fromCommitMs)} ms`).join(', '),
      '-',
      '-',
      '-',
      w.fanout.rounds.some((round) => round.check.missing > 0) ? 'INCOMPLETE' : 'measured',
    ],
    ...w.preparers.map((p) => [
      `pool vs inline, ${p.batch}`,
      `${formatInt(p.bench.pool.jobsPerSecond)} vs ${formatInt(p.bench.inline.jobsPerSecond)} jobs/s`,
      '-',
      `${p.bench.poolOverInline.toFixed(2)}×`,
      '-',
      'measured',
    ]),
  ];
  return section('Webhook deliveries vs a bare undici sender (same requests, same receiver)', rows);
}

function mcpSection(m: McpResults): string {
  const bare = m.results.find((r) => r.ratio === undefined || r.ratio === null);
  return section(
    `MCP public connector vs a bare SDK server (${m.settings.clients} clients)`,
    m.results
      .filter((r) => r !== bare)
      .map((r) => [
        r.label,
        `${formatInt(r.callsPerSec)} calls/s, ${latency(r.p50Ms, r.p99Ms)}${r.errors + r.toolErrors > 0 ? `, ${r.errors + r.toolErrors} errors` : ''}`,
        bare ? `${formatInt(bare.callsPerSec)} calls/s` : '-',
        r.ratio === undefined ? '-' : formatPercent(r.ratio),
        r.targeted === false ? '-' : `≥ ${formatPercent(m.settings.ratioTarget)}`,
        r.verdict === 'OK' ? 'MET' : r.verdict,
      ]),
  );
}

function peerSection(p: PeerResults): string {
  return section(
    `REST API vs the same endpoints through SOFA (${p.settings.peer})`,
    p.endpoints.map((e) => [
      e.endpoint,
      `${formatInt(e.packline.reqPerSec)} req/s, ${latency(e.packline.p50Ms, e.packline.p99Ms)}`,
      `${formatInt(e.peer.reqPerSec)} req/s, ${latency(e.peer.p50Ms, e.peer.p99Ms)}`,
      `${e.ratio.toFixed(2)}×`,
      'none (comparison)',
      `${e.verdict}${e.sameData ? ', same data' : ''}`,
    ]),
  );
}

function churnSection(c: ChurnResults): string {
  const s = c.settings;
  return (
    `#### REST API while the platform changes (${formatInt(s.needs)} public needs, ${s.changesPerSec} changes/s in the churn phases, ` +
    `${s.connections} connections)\n\n${c.table}\n\n${c.targets}`
  );
}

function deepPageSection(d: DeepPageResults): string {
  const head = `#### Deep pages (bench/results-deep-page.json${d.at ? ` of ${d.at}` : ''}; not run by \`npm run bench\`)`;
  if (typeof d.table === 'string') return `${head}\n\n${d.table}`;
  if (d.tables && typeof d.tables === 'object') return `${head}\n\n${Object.values(d.tables).join('\n\n')}`;
  const scalars = Object.entries(d).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v));
  return `${head}\n\n${markdownTable(
    ['field', 'value'],
    scalars.map(([k, v]) => [k, String(v)]),
  )}`;
}

/** The markdown of a summary: the machine, one section per benchmark, the notes. */
export function renderSummary(s: Summary): string {
  const m = s.machine;
  const short = s.settings.durationS < 10;
  const out = [
    `Run of ${s.ranAt} (\`npm run bench\`) on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}; ` +
      `${s.settings.durationS} s per load phase after ${s.settings.warmupS} s warm-up, ${s.settings.connections} connections.`,
  ];
  if (short) out.push(`**Short run (BENCH_DURATION=${s.settings.durationS}): indicative only; the targets are judged on 10 s phases.**`);
  const run = (name: BenchName) => s.runs.find((r) => r.name === name);
  out.push(s.rest ? restSection(s.rest) : failed('REST API', run('rest')));
  out.push(s.webhooks ? webhooksSection(s.webhooks) : failed('Webhook deliveries', run('webhooks')));
  out.push(s.mcp ? mcpSection(s.mcp) : failed('MCP public connector', run('mcp')));
  out.push(s.peer ? peerSection(s.peer) : failed('REST API vs SOFA', run('peer')));
  if (s.churn !== undefined) out.push(s.churn ? churnSection(s.churn) : failed('REST API while the platform changes', run('churn')));
  if (s.deepPage) out.push(deepPageSection(s.deepPage));
  const notes = [
    ...(s.peer?.fairness ?? []).map((n) => `SOFA comparison: ${n}`),
    ...(['rest', 'webhooks', 'mcp', 'peer', 'churn'] as const).flatMap((name) =>
      (s[name]?.notes ?? []).slice(0, 4).map((n) => `${name}: ${n}`),
    ),
  ];
  if (notes.length > 0) out.push(`Notes:\n\n${notes.map((n) => `- ${n.length > 700 ? `${n.slice(0, 700)}…` : n}`).join('\n')}`);
  return `${out.join('\n\n')}\n`;
}

/** `readme` with the text between the bench markers replaced; unchanged when a marker is missing. */
export function replaceBenchBlock(readme: string, table: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end === -1 || end < start) return readme;
  return `${readme.slice(0, start + README_START.length)}\n${table.trimEnd()}\n${readme.slice(end)}`;
}

function runBench(script: string): Promise<number | null> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [script], { cwd: ROOT, env: process.env, stdio: 'inherit' });
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
      durationS: numberFrom('BENCH_DURATION', 10),
      warmupS: numberFrom('BENCH_WARMUP', 3),
      connections: numberFrom('BENCH_CONNECTIONS', 100),
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
    const readmePath = join(ROOT, 'README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const updated = replaceBenchBlock(readme, table);
    if (updated !== readme) {
      writeFileSync(readmePath, updated);
      process.stdout.write('README.md: the table between the bench markers is updated\n');
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
