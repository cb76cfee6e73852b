// The summary of `npm run bench` (bench/all.bench.ts): the parts of each benchmark's results file
// it reads, the markdown sections it writes to bench/RESULTS.md, and the block of docs/benchmarks.md it replaces.
import type { LoadResult } from './load.ts';
import type { PeerRow } from './peer-report.ts';
import { formatInt, formatMs, formatPercent, markdownTable, type machine } from './report.ts';

/** The benchmarks `npm run bench` runs, by name. */
export type BenchName = 'rest' | 'webhooks' | 'mcp' | 'peer' | 'churn';

export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

// The parts of each results file the summary reads.
export interface RestResults {
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
export interface WebhookResults {
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
export interface McpResults {
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
export interface PeerResults {
  at: string;
  settings: { durationS: number; peer: string };
  endpoints: PeerRow[];
  fairness: string[];
  notes: string[];
}
export interface ChurnResults {
  at: string;
  settings: { needs: number; changesPerSec: number; connections: number; durationS: number };
  /** Each phase's rate and share of cached by-id, per database (markdown). */
  table: string;
  /** Each target's figure and verdict, per database (markdown). */
  targets: string;
  notes: string[];
}
export interface DeepPageResults {
  at?: string;
  table?: string;
  tables?: Record<string, string>;
  notes?: string[];
  [field: string]: unknown;
}

export interface BenchRun {
  name: BenchName;
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
