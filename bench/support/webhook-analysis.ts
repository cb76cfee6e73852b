// What the receiver got, judged after the timed part: completeness, duplicates, lag, signatures.
import { verifyWebhook, WebhookVerificationError } from '../../consumer-kit/index.ts';
import type { BenchDestination } from './webhook-graphql.ts';
import type { Receipt } from './webhook-receiver.ts';

export interface LagFigures {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  minMs: number;
}

export interface DeliveryCheck {
  /** Destinations × envelopes. */
  expected: number;
  received: number;
  /** Distinct (destination path, envelope id) pairs among the expected ones. */
  unique: number;
  /** Requests for a pair already received. */
  duplicates: number;
  /** Expected pairs never received. */
  missing: number;
  /** Requests for a path or envelope id outside the expected set. */
  unexpected: number;
  /** Earliest `occurred_at` (the commit of the first signal), ms since the epoch. */
  firstCommitAt: number;
  firstReceiptAt: number;
  lastReceiptAt: number;
  /** `received` over the time from the first commit to the last receipt. */
  perSecond: number;
  spanMs: number;
  /** Receipt time minus the envelope's `occurred_at`. */
  lag: LagFigures;
  signatures: SignatureCheck;
  /** Body sizes in bytes. */
  bodyBytes: { min: number; median: number; max: number };
}

export interface SignatureCheck {
  /** Share of receipts checked (1 = all). */
  share: number;
  checked: number;
  valid: number;
  /** Failure reasons with their counts (consumer kit's `WebhookVerificationError.reason`). */
  failures: Record<string, number>;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function lagFigures(lags: number[]): LagFigures {
  const sorted = [...lags].sort((a, b) => a - b);
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return {
    p50Ms: round1(percentile(sorted, 50)),
    p90Ms: round1(percentile(sorted, 90)),
    p99Ms: round1(percentile(sorted, 99)),
    maxMs: round1(sorted[sorted.length - 1] ?? Number.NaN),
    minMs: round1(sorted[0] ?? Number.NaN),
  };
}

/**
 * Checks `receipts` against every destination × every expected envelope id: counts, duplicates,
 * lag from commit to receipt, and the signature of a `verifyShare` of the receipts (every n-th,
 * spread over the whole run) with the consumer kit and the secret returned at creation, against
 * the receipt time (so the 5-minute tolerance is judged as the receiver would have).
 */
export function checkDeliveries(receipts: Receipt[], destinations: BenchDestination[], eventIds: string[], verifyShare = 1): DeliveryCheck {
  const secrets = new Map(destinations.map((d) => [d.path, d.secret]));
  const wanted = new Set(eventIds);
  const seen = new Set<string>();
  let duplicates = 0;
  let unexpected = 0;
  let firstCommitAt = Number.POSITIVE_INFINITY;
  const lags: number[] = [];
  const sizes: number[] = [];
  const signatures: SignatureCheck = { share: verifyShare, checked: 0, valid: 0, failures: {} };
  const every = Math.max(1, Math.round(1 / verifyShare));
  receipts.forEach((receipt, i) => {
    sizes.push(Buffer.byteLength(receipt.body));
    let envelope: { id?: string; occurred_at?: string };
    try {
      envelope = JSON.parse(receipt.body) as typeof envelope;
    } catch {
      unexpected++;
      return;
    }
    const id = String(envelope.id);
    if (!secrets.has(receipt.path) || !wanted.has(id)) {
      unexpected++;
      return;
    }
    const key = `${receipt.path} ${id}`;
    if (seen.has(key)) duplicates++;
    else seen.add(key);
    const committed = Date.parse(envelope.occurred_at ?? '');
    if (Number.isFinite(committed)) {
      firstCommitAt = Math.min(firstCommitAt, committed);
      lags.push(receipt.at - committed);
    }
    if (i % every === 0) {
      signatures.checked++;
      try {
        verifyWebhook(receipt.body, receipt.headers, secrets.get(receipt.path)!, { now: receipt.at / 1000 });
        signatures.valid++;
      } catch (error) {
        const reason = error instanceof WebhookVerificationError ? error.reason : String(error);
        signatures.failures[reason] = (signatures.failures[reason] ?? 0) + 1;
      }
    }
  });
  const expected = destinations.length * wanted.size;
  const firstReceiptAt = receipts.reduce((min, r) => Math.min(min, r.at), Number.POSITIVE_INFINITY);
  const lastReceiptAt = receipts.reduce((max, r) => Math.max(max, r.at), Number.NEGATIVE_INFINITY);
  const spanMs = lastReceiptAt - firstCommitAt;
  sizes.sort((a, b) => a - b);
  return {
    expected,
    received: receipts.length,
    unique: seen.size,
    duplicates,
    missing: expected - seen.size,
    unexpected,
    firstCommitAt,
    firstReceiptAt,
    lastReceiptAt,
    perSecond: Math.round((receipts.length / spanMs) * 1000),
    spanMs: Math.round(spanMs),
    lag: lagFigures(lags),
    signatures,
    bodyBytes: { min: sizes[0] ?? 0, median: percentile(sizes, 50), max: sizes[sizes.length - 1] ?? 0 },
  };
}

/** Headers the HTTP client sets itself; everything else is replayed as received. */
const CLIENT_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export interface CapturedRequest {
  headers: Record<string, string>;
  body: string;
}

/** The received requests grouped by path, in arrival order, with the headers a client must send again. */
export function captureRequests(receipts: Receipt[]): Map<string, CapturedRequest[]> {
  const byPath = new Map<string, CapturedRequest[]>();
  for (const receipt of receipts) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(receipt.headers)) {
      if (value === undefined || CLIENT_HEADERS.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let list = byPath.get(receipt.path);
    if (!list) {
      list = [];
      byPath.set(receipt.path, list);
    }
    list.push({ headers, body: receipt.body });
  }
  return byPath;
}
