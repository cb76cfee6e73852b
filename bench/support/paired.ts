// bench:paired's arithmetic: the ratios each benchmark's results file holds, and whether a ratio of
// one checkout held against another's over pairs of runs made one after the other.
import { randomSource } from '../../core/demo/bulk-data.ts';
import { formatInt, formatMs, formatPercent, markdownTable, median } from './report.ts';

export const PAIRED_BENCHES = ['rest', 'churn', 'webhooks'] as const;
export type PairedBench = (typeof PAIRED_BENCHES)[number];

/** The results file a benchmark writes, relative to its checkout. */
export const RESULTS_FILES: Record<PairedBench, string> = {
  rest: 'bench/results-rest.json',
  churn: 'bench/results-churn.json',
  webhooks: 'bench/results-webhooks.json',
};

/** How far a figure may move the wrong way, as a share of its value, and still hold. */
export const TOLERANCE = 0.05;

/** Fewer pairs than this give no verdict: one or two resample into an interval that means nothing. */
export const MIN_PAIRS = 3;

/**
 * A figure of a run: a ratio (the benchmarks' verdicts), a rate (what a ratio divides), both better
 * higher; a latency in ms (churn's p99 targets) or a cost in µs of CPU per answer, better lower.
 */
export interface Figure {
  kind: 'ratio' | 'rate' | 'latency' | 'cost';
  value: number;
}

/**
 * The figures a results file holds, by a name that is the same in every version of the benchmark.
 * Ratios: the REST endpoints' Packline/ceiling rates, churn's phase-to-phase rates (the target left
 * out of the label, so a changed target names the same figure), the webhook dispatcher's backlog
 * and live rates against the bare undici loop. Rates: Packline's and the ceiling's own, per second,
 * so that a ratio that moved can be told apart from a ceiling that moved (a new runtime speeds the
 * bare servers up too). Unknown shapes give no figures.
 */
export function figuresOf(bench: PairedBench, results: unknown): Map<string, Figure> {
  const figures = new Map<string, Figure>();
  const put = (kind: Figure['kind'], name: unknown, value: unknown) => {
    if (typeof name === 'string' && typeof value === 'number' && Number.isFinite(value)) figures.set(name, { kind, value });
  };
  const r = record(results);
  if (bench === 'rest') {
    for (const e of asArray(r.endpoints)) {
      put('ratio', `${String(e.endpoint)} / ceiling`, e.ratio);
      put('rate', `Packline ${String(e.endpoint)}, req/s`, record(e.packline).reqPerSec);
      put('rate', `ceiling ${String(e.endpoint)}, req/s`, record(e.ceiling).reqPerSec);
    }
  } else if (bench === 'churn') {
    for (const v of asArray(r.verdicts)) {
      // "… ≥ 12.0 %" judges a ratio; "p99 of … ≤ 25 ms" a latency, in the same field.
      const label = String(v.label);
      const latency = label.includes('≤');
      put(latency ? 'latency' : 'ratio', `${String(v.database)}: ${label.replace(/\s*[≥≤].*$/, '')}`, v.ratio);
    }
    for (const run of asArray(r.runs))
      for (const phase of asArray(run.phases))
        put('rate', `${String(run.database)}: ${String(phase.label)}, req/s`, record(phase.result).reqPerSec);
  } else {
    const d = record(r.deliveries);
    put('ratio', 'backlog / bare undici loop', d.ratio);
    put('ratio', 'live / bare undici loop', d.liveRatio);
    put('rate', 'Packline backlog, deliveries/s', record(d.backlog).perSecond);
    put('rate', 'Packline live, deliveries/s', record(record(d.packline).check).perSecond);
    put('rate', 'bare undici loop, requests/s', record(record(record(d.ceiling).median).result).perSecond);
  }
  return figures;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

const asArray = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];

/** One pair: the same figure from the other checkout's run and from this one's, made one after the other. */
export interface Pair {
  against: number;
  current: number;
}

export interface Judgement {
  figure: string;
  kind: Figure['kind'];
  against: number[];
  current: number[];
  /** median(current) / median(against) − 1. */
  change: number;
  /** A 90 % bootstrap interval of that change, resampling whole pairs. */
  interval: [number, number];
  /** worse: a ratio or rate fell, or a latency rose, by more than TOLERANCE. */
  verdict: 'holds' | 'worse' | 'undecided' | 'unpaired';
}

const changeOf = (pairs: readonly Pair[]) => median(pairs.map((p) => p.current)) / median(pairs.map((p) => p.against)) - 1;

/**
 * Whether a ratio held: the change of its median and a 90 % bootstrap interval of that change
 * (2,000 resamples of the pairs, so that a drift of the machine between pairs stays inside a pair).
 * It holds when even the interval's lower end is above −5 %, is worse when even its upper end is
 * below (for a latency, the same the other way round), and is undecided between (and with fewer
 * than MIN_PAIRS pairs): more pairs narrow the interval.
 */
export function judge(figure: string, pairs: readonly Pair[], kind: Figure['kind'] = 'ratio', resamples = 2_000): Judgement {
  const against = pairs.map((p) => p.against);
  const current = pairs.map((p) => p.current);
  if (pairs.length === 0)
    return { figure, kind, against, current, change: Number.NaN, interval: [Number.NaN, Number.NaN], verdict: 'unpaired' };
  const change = changeOf(pairs);
  // Seeded: the same pairs give the same interval in every run.
  const next = randomSource(0x5eed ^ pairs.length);
  const changes: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const sample = pairs.map(() => pairs[Math.floor(next() * pairs.length)]!);
    changes.push(changeOf(sample));
  }
  changes.sort((a, b) => a - b);
  const interval: [number, number] = [changes[Math.floor(resamples * 0.05)]!, changes[Math.ceil(resamples * 0.95) - 1]!];
  // A latency or a cost is worse when it rises: judge its change the other way round.
  const [low, high] = kind === 'latency' || kind === 'cost' ? [-interval[1], -interval[0]] : interval;
  const verdict = pairs.length < MIN_PAIRS ? 'undecided' : low >= -TOLERANCE ? 'holds' : high < -TOLERANCE ? 'worse' : 'undecided';
  return { figure, kind, against, current, change, interval, verdict };
}

/**
 * Pairs each figure's values run by run: run i of the other checkout with run i of this one. A
 * figure only one side gave is reported, unpaired.
 */
export function pairUp(against: readonly Map<string, Figure>[], current: readonly Map<string, Figure>[]): Judgement[] {
  const names = new Map<string, Figure['kind']>();
  for (const m of [...against, ...current]) for (const [name, f] of m) names.set(name, f.kind);
  const judged = [...names].map(([figure, kind]) => {
    const pairs: Pair[] = [];
    for (let i = 0; i < Math.min(against.length, current.length); i++) {
      const a = against[i]!.get(figure);
      const c = current[i]!.get(figure);
      if (a !== undefined && c !== undefined) pairs.push({ against: a.value, current: c.value });
    }
    if (pairs.length > 0) return judge(figure, pairs, kind);
    const only = (side: readonly Map<string, Figure>[]) => side.flatMap((m) => (m.has(figure) ? [m.get(figure)!.value] : []));
    return { ...judge(figure, [], kind), against: only(against), current: only(current) };
  });
  // The ratios first, then the latencies and costs, then the rates behind the ratios.
  const order: Figure['kind'][] = ['ratio', 'latency', 'cost', 'rate'];
  return order.flatMap((kind) => judged.filter((j) => j.kind === kind));
}

const signed = (ratio: number) => `${ratio >= 0 ? '+' : '−'}${formatPercent(Math.abs(ratio))}`;
const UNITS: Partial<Record<Figure['kind'], string>> = { latency: 'ms', cost: 'µs' };
const shown = (kind: Figure['kind'], v: number) =>
  kind === 'ratio' ? formatPercent(v) : UNITS[kind] ? `${formatMs(Math.round(v * 10) / 10)} ${UNITS[kind]}` : formatInt(v);
const values = (kind: Figure['kind'], list: number[]) => (list.length === 0 ? '—' : list.map((v) => shown(kind, v)).join(', '));

/** The judgements as a markdown table. */
export function pairedTable(bench: string, judgements: readonly Judgement[]): string {
  return markdownTable(
    ['benchmark', 'figure', 'other checkout', 'this checkout', 'medians', 'change', '90 % interval', 'verdict (5 % worse?)'],
    judgements.map((j) => [
      bench,
      j.figure,
      values(j.kind, j.against),
      values(j.kind, j.current),
      j.verdict === 'unpaired' ? '—' : `${shown(j.kind, median(j.against))} → ${shown(j.kind, median(j.current))}`,
      Number.isNaN(j.change) ? '—' : signed(j.change),
      Number.isNaN(j.interval[0]) ? '—' : `${signed(j.interval[0])} … ${signed(j.interval[1])}`,
      j.verdict,
    ]),
  );
}
