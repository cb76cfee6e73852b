// bench:paired's arithmetic: the ratios read from each benchmark's results, and the verdicts.
import { describe, expect, it } from 'vitest';
import { figuresOf, judge, pairedTable, pairUp, type Figure, type PairedBench } from '../../bench/support/paired.ts';

/** The ratios alone of `figuresOf`. */
const ratiosOf = (bench: PairedBench, results: unknown) =>
  new Map([...figuresOf(bench, results)].flatMap(([name, f]) => (f.kind === 'ratio' ? [[name, f.value] as const] : [])));

describe('ratiosOf', () => {
  it('reads the REST endpoints, churn verdicts without their targets, and the webhook ratios', () => {
    expect(
      ratiosOf('rest', {
        endpoints: [
          { endpoint: 'GET /a', ratio: 0.8 },
          { endpoint: 'GET /b', ratio: 0.6 },
        ],
      }),
    ).toEqual(
      new Map([
        ['GET /a / ceiling', 0.8],
        ['GET /b / ceiling', 0.6],
      ]),
    );
    expect(
      ratiosOf('churn', { verdicts: [{ database: 'sqlite', label: 'computed by-id / cached by-id ≥ 12.0 %', ratio: 0.175 }] }),
    ).toEqual(new Map([['sqlite: computed by-id / cached by-id', 0.175]]));
    expect(ratiosOf('webhooks', { deliveries: { ratio: 0.5, liveRatio: 0.27 } })).toEqual(
      new Map([
        ['backlog / bare undici loop', 0.5],
        ['live / bare undici loop', 0.27],
      ]),
    );
  });

  it('gives no figures for a file of another shape', () => {
    expect(ratiosOf('rest', { endpoints: 'none' }).size).toBe(0);
    expect(ratiosOf('webhooks', null).size).toBe(0);
    expect(ratiosOf('churn', { verdicts: [{ database: 'sqlite', label: 'x', ratio: 'high' }] }).size).toBe(0);
  });
});

describe('judge', () => {
  it('holds when every pair moves by little, is worse when every pair loses a fifth, is undecided on wide spread', () => {
    const steady = [0.8, 0.7, 0.9, 0.75, 0.85].map((v, i) => ({ against: v, current: v * (i % 2 === 0 ? 1.01 : 0.99) }));
    expect(judge('x', steady).verdict).toBe('holds');

    const lost = [0.8, 0.7, 0.9, 0.75, 0.85].map((v) => ({ against: v, current: v * 0.8 }));
    const fell = judge('x', lost);
    expect(fell.verdict).toBe('worse');
    expect(fell.change).toBeCloseTo(-0.2, 5);
    expect(fell.interval[1]).toBeLessThan(-0.05);

    const spread = [
      { against: 0.8, current: 0.6 },
      { against: 0.6, current: 0.85 },
      { against: 0.7, current: 0.7 },
    ];
    const unsure = judge('x', spread);
    expect(unsure.verdict).toBe('undecided');
    expect(unsure.interval[0]).toBeLessThan(-0.05);
    expect(unsure.interval[1]).toBeGreaterThanOrEqual(-0.05);
  });

  it('judges a latency the other way round: a rise is worse, a fall holds', () => {
    const slower = [4, 5, 6, 5].map((ms) => ({ against: ms, current: ms * 1.5 }));
    expect(judge('p99', slower, 'latency').verdict).toBe('worse');
    const faster = [4, 5, 6, 5].map((ms) => ({ against: ms, current: ms * 0.8 }));
    expect(judge('p99', faster, 'latency').verdict).toBe('holds');
  });

  it('gives no verdict on fewer than three pairs', () => {
    expect(judge('x', [{ against: 0.5, current: 0.5 }]).verdict).toBe('undecided');
    expect(
      judge('x', [
        { against: 0.5, current: 0.5 },
        { against: 0.5, current: 0.5 },
      ]).verdict,
    ).toBe('undecided');
  });

  it('gives the same interval for the same pairs', () => {
    const pairs = [
      { against: 0.5, current: 0.52 },
      { against: 0.45, current: 0.4 },
      { against: 0.6, current: 0.61 },
    ];
    expect(judge('x', pairs).interval).toEqual(judge('x', pairs).interval);
  });
});

describe('figuresOf', () => {
  it('reads the rates behind the ratios: Packline and its ceiling per endpoint, churn phases, webhook deliveries', () => {
    const rest = figuresOf('rest', {
      endpoints: [{ endpoint: 'GET /a', ratio: 0.8, packline: { reqPerSec: 800 }, ceiling: { reqPerSec: 1000 } }],
    });
    expect(rest.get('Packline GET /a, req/s')).toEqual({ kind: 'rate', value: 800 });
    expect(rest.get('ceiling GET /a, req/s')).toEqual({ kind: 'rate', value: 1000 });
    expect(rest.get('GET /a / ceiling')).toEqual({ kind: 'ratio', value: 0.8 });
    const churn = figuresOf('churn', { runs: [{ database: 'sqlite', phases: [{ label: 'hot by id', result: { reqPerSec: 9000 } }] }] });
    expect(churn.get('sqlite: hot by id, req/s')).toEqual({ kind: 'rate', value: 9000 });
    const p99 = figuresOf('churn', { verdicts: [{ database: 'postgresql', label: 'p99 of list page 1 (hits) ≤ 25 ms', ratio: 6 }] });
    expect(p99.get('postgresql: p99 of list page 1 (hits)')).toEqual({ kind: 'latency', value: 6 });
    const webhooks = figuresOf('webhooks', {
      deliveries: {
        backlog: { perSecond: 12_000 },
        packline: { check: { perSecond: 5000 } },
        ceiling: { median: { result: { perSecond: 24_000 } } },
      },
    });
    expect([...webhooks.values()].map((f) => f.value)).toEqual([12_000, 5000, 24_000]);
  });
});

describe('pairUp', () => {
  const ratio = (value: number): Figure => ({ kind: 'ratio', value });
  it('pairs run i with run i, and reports a figure only one side gave as unpaired', () => {
    const against = [new Map([['a', ratio(0.5)]]), new Map([['a', ratio(0.6)]]), new Map([['a', ratio(0.55)]])];
    const current = [
      new Map([
        ['a', ratio(0.5)],
        ['b', ratio(0.9)],
      ]),
      new Map([['a', ratio(0.6)]]),
      new Map([['a', ratio(0.56)]]),
    ];
    const judged = pairUp(against, current);
    expect(judged.map((j) => [j.figure, j.verdict])).toEqual([
      ['a', 'holds'],
      ['b', 'unpaired'],
    ]);
    expect(judged[1]!.current).toEqual([0.9]);
    const table = pairedTable('rest', judged);
    expect(table).toContain('| rest');
    expect(table).toContain('50.0 %, 60.0 %, 55.0 %');
    expect(table).toContain('unpaired');
  });

  it('lists the ratios before the rates, and shows rates as numbers', () => {
    const run = (r: number, v: number) =>
      new Map<string, Figure>([
        ['Packline x, req/s', { kind: 'rate', value: v }],
        ['x / ceiling', { kind: 'ratio', value: r }],
      ]);
    const judged = pairUp([run(0.5, 1000), run(0.5, 1000), run(0.5, 1000)], [run(0.4, 1200), run(0.4, 1200), run(0.4, 1200)]);
    expect(judged.map((j) => [j.figure, j.verdict])).toEqual([
      ['x / ceiling', 'worse'],
      ['Packline x, req/s', 'holds'],
    ]);
    expect(pairedTable('rest', judged)).toContain('1,000 → 1,200');
  });
});
