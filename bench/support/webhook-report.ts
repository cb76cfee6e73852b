// The printed report of the webhook benchmark: markdown tables and notes.
import type { BacklogPhase } from './webhook-backlog.ts';
import type { PhaseCpu } from './webhook-cpu.ts';
import type { CeilingPhase, DeliveryPhase } from './webhook-delivery.ts';
import type { FanoutPhase } from './webhook-fanout.ts';
import type { PreparerRow } from './webhook-preparers.ts';
import type { ProfileSummary, SqlSummary } from './webhook-profile.ts';
import { formatInt, formatMs, formatPercent, markdownTable } from './report.ts';

export const RATIO_TARGET = 0.6;

export function deliveryTable(
  live: DeliveryPhase,
  backlog: BacklogPhase,
  ceiling: CeilingPhase,
  ratios: { ratio: number; liveRatio: number },
): string {
  const r = ceiling.median.result;
  const row = (label: string, c: DeliveryPhase['check'], perSecond: number, spanMs: number, lag: boolean) => [
    label,
    formatInt(c.received),
    formatInt(perSecond),
    formatInt(spanMs),
    lag ? formatMs(c.lag.p50Ms) : '-',
    lag ? formatMs(c.lag.p99Ms) : '-',
    formatInt(c.unique),
    formatInt(c.duplicates),
    formatInt(c.missing),
    `${formatInt(c.signatures.valid)}/${formatInt(c.signatures.checked)} valid`,
  ];
  return markdownTable(
    ['sender', 'requests', 'per second', 'span ms', 'lag p50 ms', 'lag p99 ms', 'unique', 'duplicates', 'missing', 'signatures'],
    [
      row(
        `Packline, live: publishing ${live.needs} needs meanwhile (${live.destinations} lanes)`,
        live.check,
        live.check.perSecond,
        live.check.spanMs,
        true,
      ),
      row(
        `Packline, backlog: the dispatcher's rate, ${backlog.needs} signals committed at once (${backlog.destinations} lanes)`,
        backlog.check,
        backlog.perSecond,
        backlog.spanMs,
        false,
      ),
      [
        `ceiling: bare undici loop (${r.lanes} lanes), median of ${ceiling.runs.length}`,
        formatInt(r.requests),
        formatInt(r.perSecond),
        formatInt(r.wallMs),
        '-',
        '-',
        '-',
        '-',
        formatInt(r.requests - (r.statuses['200'] ?? 0)),
        '-',
      ],
      ['live / ceiling', '', formatPercent(ratios.liveRatio), '', '', '', '', '', '', 'bounded by publishing'],
      ['backlog / ceiling', '', formatPercent(ratios.ratio), '', '', '', '', '', '', `target ≥ ${formatPercent(RATIO_TARGET)}`],
    ],
  );
}

export function cpuTable(phases: [string, PhaseCpu][]): string {
  const rows: (string | number)[][] = [];
  for (const [phase, cpu] of phases) {
    for (const [process, threads] of Object.entries(cpu.threads)) {
      const total = threads.reduce((sum, t) => sum + t.cpuMs, 0);
      const main = threads.find((t) => t.thread === 'main');
      const others = threads.filter((t) => t.thread !== 'main' && t.cpuMs >= total * 0.05).slice(0, 3);
      rows.push([
        phase,
        process,
        formatPercent(total / cpu.wallMs),
        main ? formatPercent(main.cpuMs / cpu.wallMs) : '-',
        others.map((t) => `${t.thread} ${formatPercent(t.cpuMs / cpu.wallMs)}`).join(', '),
      ]);
    }
    rows.push([phase, '(machine)', `${cpu.machinePercent} % of all cores`, '', `other processes ${cpu.otherPercent} % of all cores`]);
  }
  return markdownTable(['phase', 'process', 'CPU (of one core)', 'main thread', 'busiest other threads'], rows);
}

export function fanoutTable(fanout: FanoutPhase): string {
  return markdownTable(
    [
      'round',
      'destinations',
      'commit → last receipt ms',
      'request → last receipt ms',
      'lag p50 ms',
      'lag p99 ms',
      'unique',
      'duplicates',
      'missing',
      'signatures',
    ],
    fanout.rounds.map((round) => [
      round.label,
      formatInt(fanout.destinations),
      formatInt(round.fromCommitMs),
      formatInt(round.fromRequestMs),
      formatMs(round.check.lag.p50Ms),
      formatMs(round.check.lag.p99Ms),
      formatInt(round.check.unique),
      formatInt(round.check.duplicates),
      formatInt(round.check.missing),
      `${round.check.signatures.valid}/${round.check.signatures.checked} valid`,
    ]),
  );
}

export function preparerTable(rows: PreparerRow[]): string {
  return markdownTable(
    [
      'batch',
      'inline jobs/s',
      'pool jobs/s',
      'pool / inline',
      'inline ms',
      'pool ms',
      'main thread inline ms',
      'main thread pool ms',
      'freed',
    ],
    rows.map((row) => [
      row.batch,
      formatInt(row.bench.inline.jobsPerSecond),
      formatInt(row.bench.pool.jobsPerSecond),
      `${row.bench.poolOverInline.toFixed(2)}×`,
      formatMs(row.bench.inline.medianMs),
      formatMs(row.bench.pool.medianMs),
      formatMs(row.bench.inline.mainThreadMs),
      formatMs(row.bench.pool.mainThreadMs),
      `${formatMs(row.mainThreadFreedMs)} ms (${formatPercent(row.mainThreadFreedShare)})`,
    ]),
  );
}

export function profileTables(profile: ProfileSummary, top = 20): string {
  const busy = profile.sampledMs - profile.idleMs;
  const head = `${profile.file} (${profile.threadId === 0 ? 'main thread' : `worker thread ${profile.threadId}`}): ${formatInt(busy)} ms busy, ${formatInt(profile.idleMs)} ms idle${profile.windowed ? ' (measured window only)' : ' (whole profile: window not found)'}`;
  const functions = markdownTable(
    ['self ms', 'self %', 'function', 'where'],
    profile.top.slice(0, top).map((e) => [formatInt(e.selfMs), formatPercent(e.percent / 100), e.name, e.where]),
  );
  const areas = markdownTable(
    ['self ms', 'self %', 'area'],
    profile.byArea.slice(0, 12).map((e) => [formatInt(e.selfMs), formatPercent(e.percent / 100), e.name]),
  );
  const inclusive = markdownTable(
    ['total ms', 'total %', 'repository function', 'where'],
    profile.inclusive.slice(0, 15).map((e) => [formatInt(e.selfMs), formatPercent(e.percent / 100), e.name, e.where]),
  );
  return `${head}\n\nSelf time by function:\n\n${functions}\n\nSelf time by package or folder:\n\n${areas}\n\nTotal (inclusive) time of repository functions:\n\n${inclusive}`;
}

export function sqlTable(sql: SqlSummary): string {
  const head = `${formatInt(sql.statements)} statements, ${formatInt(sql.totalMs)} ms inside libsql, between two readings ${formatInt(sql.wallMs)} ms apart (the second is taken at the last receipt, but the server answers it only when its event loop gets to it)`;
  const table = markdownTable(
    ['total ms', 'count', 'mean µs', 'per delivery', 'statement'],
    sql.top.map((s) => [
      formatInt(s.totalMs),
      formatInt(s.count),
      formatInt(s.meanUs),
      s.perUnit.toFixed(2),
      s.sql.length > 150 ? `${s.sql.slice(0, 150)}…` : s.sql,
    ]),
  );
  return `${head}\n\n${table}`;
}

/** What a reader must know about a run's phases: lost, duplicate or unsigned deliveries, noisy phases, server log problems. */
export function phaseNotes(
  {
    delivery,
    backlogs,
    ceiling,
    fanout,
    preparers,
  }: { delivery: DeliveryPhase; backlogs: BacklogPhase[]; ceiling: CeilingPhase; fanout: FanoutPhase; preparers: PreparerRow[] },
  noisePercent: number,
): string[] {
  const notes: string[] = [];
  const c = delivery.check;
  if (!delivery.complete || c.missing > 0)
    notes.push(`phase 1: ${formatInt(c.missing)} of ${formatInt(c.expected)} deliveries never arrived`);
  if (c.duplicates > 0) notes.push(`phase 1: ${formatInt(c.duplicates)} duplicate deliveries`);
  if (c.unexpected > 0) notes.push(`phase 1: ${formatInt(c.unexpected)} unexpected requests`);
  if (c.signatures.valid !== c.signatures.checked) notes.push(`phase 1: signature failures ${JSON.stringify(c.signatures.failures)}`);
  if (delivery.recorded.pending > 0 || delivery.recorded.failed > 0 || delivery.recorded.retried > 0) {
    notes.push(
      `phase 1: the server's record shows ${delivery.recorded.pending} pending, ${delivery.recorded.failed} failed, ${delivery.recorded.retried} retried among the newest ${delivery.recorded.seen}`,
    );
  }
  for (const [i, backlog] of backlogs.entries()) {
    const label = `backlog run ${i + 1}`;
    const b = backlog.check;
    if (!backlog.complete || b.missing > 0)
      notes.push(`${label}: ${formatInt(b.missing)} of ${formatInt(b.expected)} deliveries never arrived`);
    if (b.duplicates > 0) notes.push(`${label}: ${formatInt(b.duplicates)} duplicate deliveries`);
    if (b.unexpected > 0) notes.push(`${label}: ${formatInt(b.unexpected)} unexpected requests`);
    if (b.signatures.valid !== b.signatures.checked) notes.push(`${label}: signature failures ${JSON.stringify(b.signatures.failures)}`);
    if (backlog.recorded.pending > 0 || backlog.recorded.failed > 0 || backlog.recorded.retried > 0) {
      notes.push(
        `${label}: the server's record shows ${backlog.recorded.pending} pending, ${backlog.recorded.failed} failed, ${backlog.recorded.retried} retried among the newest ${backlog.recorded.seen}`,
      );
    }
    if (backlog.cpu.otherPercent > noisePercent)
      notes.push(`${label} dispatcher: NOISY, other processes took ${backlog.cpu.otherPercent} % of all cores`);
  }
  for (const [i, run] of ceiling.runs.entries()) {
    if (run.receivedByReceiver !== run.result.requests || (run.result.statuses['200'] ?? 0) !== run.result.requests) {
      notes.push(
        `ceiling run ${i + 1}: ${run.receivedByReceiver} received of ${run.result.requests} sent, statuses ${JSON.stringify(run.result.statuses)}`,
      );
    }
    if (run.cpu.otherPercent > noisePercent)
      notes.push(`phase 1 ceiling run ${i + 1}: NOISY, other processes took ${run.cpu.otherPercent} % of all cores`);
  }
  for (const round of fanout.rounds) {
    if (!round.complete || round.check.missing > 0 || round.check.duplicates > 0)
      notes.push(`fan-out ${round.label}: ${round.check.missing} missing, ${round.check.duplicates} duplicates`);
    if (round.check.signatures.valid !== round.check.signatures.checked)
      notes.push(`fan-out ${round.label}: signature failures ${JSON.stringify(round.check.signatures.failures)}`);
    if (round.cpu.otherPercent > noisePercent)
      notes.push(`fan-out ${round.label}: NOISY, other processes took ${round.cpu.otherPercent} % of all cores`);
  }
  for (const row of preparers)
    if (row.otherCpuPercent > noisePercent)
      notes.push(`pool vs inline ${row.batch}: NOISY, other processes took ${row.otherCpuPercent} % of all cores`);
  if (delivery.cpu.otherPercent > noisePercent)
    notes.push(`live phase: NOISY, other processes took ${delivery.cpu.otherPercent} % of all cores`);
  for (const [label, log] of [
    ['phase 1 server', delivery.serverLog],
    ['fan-out server', fanout.serverLog],
  ] as const) {
    for (const level of ['warn', 'error', 'fatal'])
      if (log.byLevel[level]) notes.push(`${label} log: ${log.byLevel[level]} ${level} line(s), e.g. ${log.problems[0] ?? ''}`);
  }
  return notes;
}
