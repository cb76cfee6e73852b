// The table `npm run bench` writes to bench/RESULTS.md and the README: rendered from fixed results.
import { describe, expect, it } from 'vitest';
import { README_END, README_START, renderSummary, replaceBenchBlock, type Summary } from '../../bench/support/summary.ts';
import type { LoadResult } from '../../bench/support/load.ts';
import { peerRow } from '../../bench/support/peer-report.ts';
import type { Comparison } from '../../bench/support/peer-compare.ts';

const load = (reqPerSec: number, p50Ms: number, p99Ms: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  url: 'http://127.0.0.1/x',
  connections: 100,
  durationS: 10,
  reqPerSec,
  total: reqPerSec * 10,
  p50Ms,
  p90Ms: p99Ms,
  p99Ms,
  maxMs: p99Ms,
  meanMs: p50Ms,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statusCodes: { '200': reqPerSec * 10 },
  bytesPerSec: 1,
  machineCpuPercent: 90,
  otherCpuPercent: 1,
  otherProcesses: '',
  ...extra,
});

const same: Comparison = {
  endpoint: 'GET /events/{id}',
  packlineStatus: 200,
  peerStatus: 200,
  packlineBytes: 400,
  peerBytes: 398,
  packlineIds: ['ev_1'],
  peerIds: ['ev_1'],
  sameIds: true,
  sameData: true,
  differences: [],
};

function summary(overrides: Partial<Summary> = {}): Summary {
  return {
    machine: { cpu: 'Test CPU', cores: 2, node: 'v20.0.0', platform: 'linux 6', memoryGb: 24, freeMemoryGb: 20 },
    ranAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:20:00.000Z',
    settings: { durationS: 10, warmupS: 3, connections: 100 },
    runs: (['rest', 'webhooks', 'mcp', 'peer'] as const).map((name) => ({ name, exitCode: 0, seconds: 60, fresh: true })),
    rest: {
      at: '2026-01-02T03:06:00.000Z',
      settings: { durationS: 10, warmupS: 3, connections: 100, p99TargetMs: 25 },
      endpoints: [
        {
          endpoint: 'GET /api/v1/opportunities?limit=20',
          bodyBytes: 9934,
          packline: load(11240, 8, 15),
          ceiling: load(19894, 4, 9),
          ratio: 0.565,
          ratioTarget: 0.35,
          valid: true,
          met: true,
          noisy: false,
          missed: [],
        },
        {
          endpoint: 'GET /api/v1/opportunities/{id}',
          bodyBytes: 601,
          packline: load(11996, 8, 13),
          ceiling: load(35115, 2, 5),
          ratio: 0.342,
          ratioTarget: 0.45,
          valid: true,
          met: false,
          noisy: true,
          missed: ['ratio 34.2 % < 45.0 %'],
        },
      ],
      notes: ['a rest note'],
    },
    webhooks: {
      at: '2026-01-02T03:10:00.000Z',
      settings: { needs: 400, destinations: 50 },
      deliveries: {
        packline: {
          check: { perSecond: 1758, expected: 20000, unique: 20000, missing: 0, duplicates: 0, lag: { p50Ms: 5300, p99Ms: 5700 } },
          publish: { perSecond: 118 },
        },
        backlog: { perSecond: 8453, spanMs: 2366, check: { expected: 20000, unique: 20000, missing: 0, duplicates: 0 } },
        ceiling: { median: { result: { perSecond: 14088 } } },
        ratio: 0.6,
        liveRatio: 0.125,
        ratioTarget: 0.6,
        met: true,
      },
      fanout: {
        destinations: 1000,
        rounds: [
          { label: 'cold', fromCommitMs: 2700, check: { missing: 0 } },
          { label: 'warm', fromCommitMs: 1900, check: { missing: 0 } },
        ],
      },
      preparers: [
        { batch: 'standard-json 20000', bench: { inline: { jobsPerSecond: 70684 }, pool: { jobsPerSecond: 42422 }, poolOverInline: 0.6 } },
      ],
      notes: [],
    },
    mcp: {
      at: '2026-01-02T03:12:00.000Z',
      settings: { clients: 50, durationS: 10, ratioTarget: 0.5 },
      results: [
        {
          label: 'Packline search_organizations',
          ratio: 0.539,
          verdict: 'OK',
          callsPerSec: 182,
          p50Ms: 250,
          p99Ms: 600,
          errors: 0,
          toolErrors: 0,
        },
        { label: 'bare SDK constant', verdict: 'ceiling', callsPerSec: 338, p50Ms: 140, p99Ms: 300, errors: 0, toolErrors: 0 },
      ],
      notes: [],
    },
    peer: {
      at: '2026-01-02T03:18:00.000Z',
      settings: { durationS: 10, peer: 'graphql-yoga 5 + plugin-sofa 3' },
      endpoints: [peerRow('GET /events/{id}', load(11856, 7, 24), load(807, 45, 1068), same, 5)],
      fairness: ['Both sides check the key.'],
      notes: [],
    },
    deepPage: null,
    ...overrides,
  };
}

describe('renderSummary', () => {
  it('states the machine and gives every figure, ceiling, ratio, target and verdict', () => {
    const text = renderSummary(summary());
    expect(text).toContain('Run of 2026-01-02T03:04:05.000Z (`npm run bench`) on Test CPU, 2 cores, 24 GB, Node v20.0.0, linux 6');
    expect(text).not.toContain('Short run');
    const line = (start: string) => text.split('\n').find((l) => l.startsWith(`| ${start}`)) ?? '';
    expect(line('GET /api/v1/opportunities?limit=20')).toMatch(
      /11,240 req\/s, p50 8 ms, p99 15 ms.*19,894 req\/s.*56\.5 %.*≥ 35\.0 %, p99 ≤ 25 ms.*\| MET/,
    );
    expect(line('GET /api/v1/opportunities/{id}')).toMatch(/34\.2 %.*MISSED \(ratio 34\.2 % < 45\.0 %\), NOISY/);
    expect(line("deliveries/s, the dispatcher's rate")).toMatch(
      /8,453\/s \(20,000 of 20,000 unique, none lost\) in 2,366 ms.*14,088\/s.*60\.0 %.*≥ 60\.0 %.*MET/,
    );
    expect(line('deliveries/s, live')).toMatch(/118\/s.*1,758\/s.*lag p50 5300 ms, p99 5700 ms.*14,088\/s.*12\.5 %.*measured/);
    expect(line('fan-out')).toContain('cold 2,700 ms, warm 1,900 ms');
    expect(line('pool vs inline')).toMatch(/42,422 vs 70,684 jobs\/s.*0\.60×/);
    expect(line('Packline search_organizations')).toMatch(/182 calls\/s.*338 calls\/s.*53\.9 %.*≥ 50\.0 %.*MET/);
    expect(text).not.toContain('| bare SDK constant');
    expect(line('GET /events/{id}')).toMatch(/11,856 req\/s.*807 req\/s, p50 45 ms, p99 1068 ms.*14\.69×.*measured, same data/);
    expect(text).toContain('- SOFA comparison: Both sides check the key.');
    expect(text).toContain('- rest: a rest note');
  });

  it('labels a short run and a benchmark that failed', () => {
    const runs = summary().runs.map((r) => (r.name === 'mcp' ? { ...r, exitCode: 1, fresh: false } : r));
    const text = renderSummary(summary({ settings: { durationS: 2, warmupS: 1, connections: 100 }, mcp: null, runs }));
    expect(text).toContain('**Short run (BENCH_DURATION=2)');
    expect(text).toContain('#### MCP public connector\n\n**FAILED**: the benchmark exited with code 1 and wrote no results in this run.');
  });

  it('includes the deep-page results when their file exists', () => {
    const text = renderSummary(summary({ deepPage: { at: '2026-01-01T00:00:00.000Z', table: '| page | ms |\n|---|---:|\n| 100 | 12 |' } }));
    expect(text).toContain(
      '#### Deep pages (bench/results-deep-page.json of 2026-01-01T00:00:00.000Z; not run by `npm run bench`)\n\n| page | ms |',
    );
  });
});

describe('replaceBenchBlock', () => {
  const readme = `# Title\n\n## Benchmarks\n\n${README_START}\nold table\n${README_END}\n\nAfter.\n`;

  it('replaces only the text between the markers, and again on the next run', () => {
    const once = replaceBenchBlock(readme, 'new table\n');
    expect(once).toBe(`# Title\n\n## Benchmarks\n\n${README_START}\nnew table\n${README_END}\n\nAfter.\n`);
    expect(replaceBenchBlock(once, 'newer')).toBe(`# Title\n\n## Benchmarks\n\n${README_START}\nnewer\n${README_END}\n\nAfter.\n`);
  });

  it('leaves a README without both markers unchanged', () => {
    expect(replaceBenchBlock('# Title\n', 'table')).toBe('# Title\n');
    expect(replaceBenchBlock(`${README_END}\n${README_START}\n`, 'table')).toBe(`${README_END}\n${README_START}\n`);
  });
});
