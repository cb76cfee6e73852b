// The printed report of the SOFA peer comparison: one row per endpoint, and the fairness notes.
import { clean, type LoadResult } from './load.ts';
import type { Comparison } from './peer-compare.ts';
import { formatInt, formatMs, markdownTable } from './report.ts';

export interface PeerRow {
  endpoint: string;
  packline: LoadResult;
  peer: LoadResult;
  /** Packline req/s over the peer's. */
  ratio: number;
  /** Both phases answered 2xx only. */
  valid: boolean;
  /** Another process took more than the noise threshold of the CPU in either phase. */
  noisy: boolean;
  /** Both answered the same data before the load. */
  sameData: boolean;
  verdict: string;
}

export function peerRow(
  endpoint: string,
  packline: LoadResult,
  peer: LoadResult,
  comparison: Comparison | undefined,
  noisePercent: number,
): PeerRow {
  const ratio = peer.reqPerSec > 0 ? packline.reqPerSec / peer.reqPerSec : 0;
  const valid = clean(packline) && clean(peer);
  const noise = Math.max(packline.otherCpuPercent, peer.otherCpuPercent);
  const noisy = noise > noisePercent;
  const sameData = comparison?.sameData ?? false;
  const parts: string[] = [];
  if (!valid) {
    const bad = (label: string, r: LoadResult) =>
      clean(r) ? [] : [`${label}: ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`];
    parts.push(`INVALID (${[...bad('Packline', packline), ...bad('peer', peer)].join('; ')})`);
  } else parts.push('measured');
  if (!sameData) parts.push('DIFFERENT DATA');
  if (noisy) parts.push(`NOISY (other processes took ${noise} % of the CPU)`);
  return { endpoint, packline, peer, ratio, valid, noisy, sameData, verdict: parts.join(', ') };
}

export const formatRatio = (ratio: number) => `${ratio.toFixed(2)}×`;

export function peerTable(rows: PeerRow[]): string {
  return markdownTable(
    [
      'endpoint',
      'Packline req/s',
      'p50 ms',
      'p99 ms',
      'SOFA peer req/s',
      'peer p50 ms',
      'peer p99 ms',
      'Packline / peer',
      'same data',
      'verdict',
    ],
    rows.map((r) => [
      r.endpoint,
      formatInt(r.packline.reqPerSec),
      formatMs(r.packline.p50Ms),
      formatMs(r.packline.p99Ms),
      formatInt(r.peer.reqPerSec),
      formatMs(r.peer.p50Ms),
      formatMs(r.peer.p99Ms),
      formatRatio(r.ratio),
      r.sameData ? 'yes' : 'NO',
      r.verdict,
    ]),
  );
}

export function comparisonTable(comparisons: Comparison[]): string {
  return markdownTable(
    ['endpoint', 'Packline status', 'peer status', 'Packline bytes', 'peer bytes', 'ids', 'same ids', 'same data', 'first differences'],
    comparisons.map((c) => [
      c.endpoint,
      c.packlineStatus,
      c.peerStatus,
      formatInt(c.packlineBytes),
      formatInt(c.peerBytes),
      c.packlineIds.length,
      c.sameIds ? 'yes' : 'NO',
      c.sameData ? 'yes' : 'NO',
      c.differences.join('; ') || '-',
    ]),
  );
}

/** What each side does per request, so the ratio is read for what it is. */
export const FAIRNESS_NOTES = [
  'Same on both sides: the schema and its resolvers, scope checks and dataloaders (one builder); the context factory ' +
    '(Contexts.forApiKey, a fresh EntityManager fork per request); the bearer key resolved by the same key authenticator, ' +
    'cache first; the per-key rate limit and the monthly quota (Packline’s ApiLimits, in memory, set not to refuse); the same ' +
    'SQLite database (the peer opens Packline’s file beside it); the same autocannon settings, and fresh Clan organizations for every measured phase on either side.',
  'SOFA’s operations are generated from Packline’s schema narrowed to the root fields, arguments and fields the REST ' +
    'operations select, so both sides select the same fields (over the whole schema SOFA would also select internal-only ' +
    'fields an API key may not read, and route every root field and mutation).',
  'Packline does more per request: Origin check, request id, access log line (LOG_LEVEL=info, buffered) and Prometheus metrics; ' +
    'and it serves the rendered answer from its page cache (tagged with the change epoch, 5-second windows) where SOFA executes ' +
    'the GraphQL operation on every call (stock SOFA has no response cache): the ratio measures the two designs whole, cache included.',
  'The peer’s organization route is /organization/{id} (each key asks for its own organization); Packline’s takes the ' +
    'organization from the key. SOFA takes first/after where Packline takes limit/cursor.',
];
