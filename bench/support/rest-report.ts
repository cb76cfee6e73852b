// The REST benchmark's verdicts and report: a row per endpoint, printed and written to RESULTS_FILE.
import { clean, type idleCheck, type LoadResult } from './load.ts';
import type { logSummary } from './processes.ts';
import { describePeak, type MemoryPeak, RSS_TARGET_MIB } from './memory.ts';
import { formatInt, formatMs, formatPercent, type machine, markdownTable, writeResults } from './report.ts';
import {
  CONNECTIONS,
  DURATION,
  type Endpoint,
  NOISE_PERCENT,
  P99_TARGET_MS,
  POSTGRESQL_RESULTS_FILE,
  RESULTS_FILE,
  WARMUP,
} from './rest-settings.ts';

export const say = (line = '') => process.stdout.write(`${line}\n`);

export interface Row {
  endpoint: Endpoint;
  bodyBytes: number;
  real: LoadResult;
  ceiling: LoadResult;
  ratio: number;
  valid: boolean;
  missed: string[];
  verdict: string;
}

export function row(endpoint: Endpoint, real: LoadResult, ceiling: LoadResult, bodyBytes: number): Row {
  const ratio = ceiling.reqPerSec > 0 ? real.reqPerSec / ceiling.reqPerSec : 0;
  const valid = clean(real) && clean(ceiling);
  const missed: string[] = [];
  if (ratio < endpoint.ratioTarget) missed.push(`ratio ${formatPercent(ratio)} < ${formatPercent(endpoint.ratioTarget)}`);
  if (real.p99Ms > P99_TARGET_MS) missed.push(`p99 ${formatMs(real.p99Ms)} ms > ${P99_TARGET_MS} ms`);
  let verdict: string;
  if (!valid) {
    const bad = (label: string, r: LoadResult) =>
      clean(r) ? [] : [`${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`];
    verdict = `INVALID (${[...bad('Packline', real), ...bad('ceiling', ceiling)].join('; ')})`;
  } else verdict = missed.length === 0 ? 'OK' : `MISSED (${missed.join(', ')})`;
  const noise = Math.max(real.otherCpuPercent, ceiling.otherCpuPercent);
  if (noise > NOISE_PERCENT) verdict += `, NOISY (other processes took ${noise} % of the CPU)`;
  return { endpoint, bodyBytes, real, ceiling, ratio, valid, missed, verdict };
}

/** The server's database and its peak memory over the whole run. */
export interface RunFacts {
  database: 'sqlite' | 'postgresql';
  memory: MemoryPeak;
}

export function report(
  run: RunFacts,
  host: ReturnType<typeof machine>,
  idle: Awaited<ReturnType<typeof idleCheck>>,
  rows: Row[],
  warmups: Record<string, LoadResult>,
  orgsPerPhase: number,
  logs: ReturnType<typeof logSummary>,
  oddities: string[],
) {
  const summary = markdownTable(
    ['endpoint', 'Packline req/s', 'p50 ms', 'p99 ms', 'ceiling req/s', 'ratio', 'target', 'verdict'],
    rows.map((r) => [
      r.endpoint.name,
      formatInt(r.real.reqPerSec),
      formatMs(r.real.p50Ms),
      formatMs(r.real.p99Ms),
      formatInt(r.ceiling.reqPerSec),
      formatPercent(r.ratio),
      `≥ ${formatPercent(r.endpoint.ratioTarget)}, p99 ≤ ${P99_TARGET_MS} ms`,
      r.verdict,
    ]),
  );
  const phases = [
    ...Object.entries(warmups).map(([name, r]) => [`warm-up ${name}`, r] as const),
    ...rows.flatMap((r) => [[`Packline ${r.endpoint.name}`, r.real] as const, [`ceiling ${r.endpoint.name}`, r.ceiling] as const]),
  ];
  const details = markdownTable(
    ['phase', 'answers', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'timeouts', 'CPU %', 'other CPU %'],
    phases.map(([name, r]) => [
      name,
      formatInt(r.total),
      formatInt(r.reqPerSec),
      formatMs(r.p50Ms),
      formatMs(r.p90Ms),
      formatMs(r.p99Ms),
      formatMs(r.maxMs),
      r.non2xx,
      r.errors,
      r.timeouts,
      r.machineCpuPercent,
      r.otherCpuPercent,
    ]),
  );

  say();
  say('## Results');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; ${CONNECTIONS} connections, pipelining 1, ${DURATION} s per phase.`);
  say();
  say(summary);
  say();
  say('### Phases');
  say();
  say(details);
  say();
  say(
    `CPU %: the whole machine (100 = all ${host.cores} cores busy); other CPU %: processes outside this benchmark (noise above ${NOISE_PERCENT} %).`,
  );
  say(`Response bodies: ${rows.map((r) => `${r.endpoint.name} ${formatInt(r.bodyBytes)} B`).join('; ')}.`);
  say(
    `Quota: ${orgsPerPhase} Clan organization(s) per measured phase; server log: ${formatInt(logs.lines)} JSON lines ${JSON.stringify(logs.byLevel)}.`,
  );
  say();
  const invalid = rows.filter((r) => !r.valid);
  const missed = rows.filter((r) => r.valid && r.missed.length > 0);
  if (invalid.length > 0)
    say(`INVALID: ${invalid.map((r) => r.endpoint.name).join(', ')} (non-2xx answers or errors: the numbers do not measure the service)`);
  if (missed.length > 0) say(`MISSED: ${missed.map((r) => `${r.endpoint.name}: ${r.missed.join(', ')}`).join('; ')}`);
  if (invalid.length === 0 && missed.length === 0) say('All targets met.');
  const noisy = rows.filter((r) => Math.max(r.real.otherCpuPercent, r.ceiling.otherCpuPercent) > NOISE_PERCENT);
  if (noisy.length > 0)
    say(
      `NOISY: other processes used the CPU during ${noisy.map((r) => r.endpoint.name).join(', ')}; rerun on an idle machine before trusting these numbers.`,
    );
  say(describePeak(`Packline server (${run.database})`, run.memory));
  for (const oddity of new Set(oddities)) say(`Note: ${oddity}`);

  const file = run.database === 'sqlite' ? RESULTS_FILE : POSTGRESQL_RESULTS_FILE;
  writeResults(file, {
    benchmark: 'rest',
    at: new Date().toISOString(),
    machine: host,
    idleBefore: idle,
    settings: {
      noiseThresholdPercent: NOISE_PERCENT,
      connections: CONNECTIONS,
      pipelining: 1,
      durationS: DURATION,
      warmupS: WARMUP,
      orgsPerPhase,
      p99TargetMs: P99_TARGET_MS,
      database: run.database,
      logLevel: 'info',
    },
    endpoints: rows.map((r) => ({
      endpoint: r.endpoint.name,
      url: r.endpoint.url,
      bodyBytes: r.bodyBytes,
      packline: r.real,
      ceiling: r.ceiling,
      ratio: r.ratio,
      ratioTarget: r.endpoint.ratioTarget,
      valid: r.valid,
      met: r.valid && r.missed.length === 0,
      noisy: Math.max(r.real.otherCpuPercent, r.ceiling.otherCpuPercent) > NOISE_PERCENT,
      missed: r.missed,
      verdict: r.verdict,
    })),
    warmups,
    memory: { ...run.memory, targetMiB: RSS_TARGET_MIB, met: run.memory.highWaterMiB <= RSS_TARGET_MIB },
    serverLog: logs,
    notes: [...new Set(oddities)],
    table: summary,
  });
  say();
  say(`Written to ${file}`);
}
