// Prometheus metrics of one app instance, served at /metrics to the internal token only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Logger } from '../../core/index.ts';
import type { AttemptOutcome } from '../../core/webhooks/delivery-store.ts';
import { GRAPHQL_PATH } from '../graphql/yoga.ts';
import { INBOUND_PREFIX, INTEGRATIONS_PREFIX } from '../integrations/integrations.ts';
import { MCP_PATH } from '../mcp/public/public-mcp.ts';
import { API_PREFIX, ROUTES } from '../rest/rest-api.ts';
import type { Route } from '../rest/route.ts';
import { HEALTH_PATH, READY_PATH, withTimeout } from './health.ts';
import { RouteLatency, type LatencySeries } from './route-latency.ts';

export const METRICS_PATH = '/metrics';

/** The preparer pool as a scrape sees it. */
export interface PoolStats {
  threads: number;
  queueSize: number;
  utilization: number;
}

export interface MetricsOptions {
  /** Age in seconds of the oldest outbox row not fanned out, read at scrape time. */
  outboxLag(): Promise<number>;
  /** The process's preparer pool, read at scrape time; absent where no dispatcher runs. */
  pool?: () => PoolStats | undefined;
  /** Longest wait for the outbox lag before a scrape reports it as NaN. @default 2000 */
  scrapeTimeoutMs?: number;
  log: Logger;
}

export type DeliveryOutcome = 'delivered' | 'failed_attempt' | 'gave_up' | 'disabled';
type Refusal = { facade: 'rest'; kind: 'rate' | 'quota' } | { facade: 'mcp'; kind: 'rate' | 'compose' };

/** `rest/<route path>` for each REST route, built once: a label is never made from a raw path. */
const REST_LABELS: ReadonlyMap<Route, string> = new Map(ROUTES.map((route) => [route, `rest${route.path}`]));
const REST_SLASH = `${API_PREFIX}/`;
const REST_QUERY = `${API_PREFIX}?`;
const GRAPHQL_QUERY = `${GRAPHQL_PATH}?`;
const MCP_QUERY = `${MCP_PATH}?`;
const OPS = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);

interface RouteSeries {
  latency: LatencySeries;
  /** Answers per status not yet handed to the prom-client counter (it takes them at scrape time). */
  byStatus: Map<number, { status: string; unscraped: number }>;
}

/**
 * One registry per app instance (several apps in one test process never collide). Counters are
 * bumped where things happen (requests in plain numbers, handed over at scrape time); the outbox
 * lag and the pool are read when Prometheus scrapes.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly latency: RouteLatency;
  private readonly refusals: Counter<'facade' | 'kind'>;
  private readonly attempts: Counter<'outcome'>;
  private readonly series = new Map<string, RouteSeries>();

  constructor({ outboxLag, pool, scrapeTimeoutMs = 2_000, log }: MetricsOptions) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const series = this.series;
    // Counted per request in plain numbers, handed to prom-client when it scrapes.
    new Counter({
      name: 'packline_http_requests_total',
      help: 'HTTP requests answered, by route (rest/<route>, rest/other, graphql, mcp, mcp-member, integrations, ops, other) and status',
      labelNames: ['route', 'status'],
      registers,
      collect() {
        for (const [route, { byStatus }] of series) {
          for (const count of byStatus.values()) {
            this.inc({ route, status: count.status }, count.unscraped);
            count.unscraped = 0;
          }
        }
      },
    });
    this.latency = new RouteLatency(
      'packline_http_request_duration_seconds',
      'Time from a request to the end of its answer, by route',
      registers,
    );
    this.refusals = new Counter({
      name: 'packline_limit_rejections_total',
      help: 'Calls refused by a limiter: REST per-key rate and monthly quota, public MCP calls per minute and compose_team per hour',
      labelNames: ['facade', 'kind'],
      registers,
    });
    for (const [facade, kind] of [
      ['rest', 'rate'],
      ['rest', 'quota'],
      ['mcp', 'rate'],
      ['mcp', 'compose'],
    ] as const)
      this.refusals.inc({ facade, kind }, 0);
    this.attempts = new Counter({
      name: 'packline_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered (2xx), failed_attempt (a retry follows), gave_up (no attempt left), disabled (410 Gone disabled the destination)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['delivered', 'failed_attempt', 'gave_up', 'disabled'] as const) this.attempts.inc({ outcome }, 0);
    new Gauge({
      name: 'packline_outbox_lag_seconds',
      help: 'Age of the oldest outbox row not yet fanned out into deliveries (0 when none waits; NaN when the database does not answer)',
      registers,
      async collect() {
        this.set(
          await withTimeout(outboxLag(), scrapeTimeoutMs).catch((error: unknown) => {
            log.warn({ err: error }, 'could not read the outbox lag');
            return Number.NaN;
          }),
        );
      },
    });
    if (pool) {
      const gauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            const stats = pool();
            this.set(stats ? read(stats) : 0);
          },
        });
      gauge('packline_preparer_pool_queue_size', 'Delivery preparation batches waiting for a worker thread', (s) => s.queueSize);
      gauge(
        'packline_preparer_pool_utilization',
        "Share of the worker threads' capacity spent preparing deliveries (0 to 1)",
        (s) => s.utilization,
      );
      gauge('packline_preparer_pool_threads', 'Worker threads of the preparer pool', (s) => s.threads);
    }
  }

  /** One answered request; the series of each route and status is made once. */
  request(route: string, status: number, seconds: number): void {
    let series = this.series.get(route);
    if (!series) {
      series = { latency: this.latency.route(route), byStatus: new Map() };
      this.series.set(route, series);
    }
    let count = series.byStatus.get(status);
    if (!count) {
      count = { status: String(status), unscraped: 0 };
      series.byStatus.set(status, count);
    }
    count.unscraped++;
    series.latency.observe(seconds);
  }

  refused(refusal: Refusal): void {
    this.refusals.inc(refusal);
  }

  attempt(outcome: Pick<AttemptOutcome, 'next'>): void {
    this.attempts.inc({ outcome: deliveryOutcome(outcome) });
  }
}

/** The label of a request before any facade refines it: its family, from the path's prefix. */
export function requestFamily(url: string, isMemberConnector: (url: string) => boolean): string {
  if (url === API_PREFIX || url.startsWith(REST_SLASH) || url.startsWith(REST_QUERY)) return 'rest/other';
  if (url === GRAPHQL_PATH || url.startsWith(GRAPHQL_QUERY)) return 'graphql';
  if (url === MCP_PATH || url.startsWith(MCP_QUERY)) return 'mcp';
  if (url.startsWith(INBOUND_PREFIX) || url.startsWith(INTEGRATIONS_PREFIX)) return 'integrations';
  if (OPS.has(url)) return 'ops';
  if (url === '/admin' || url.startsWith('/admin/') || url.startsWith('/admin?')) return 'admin';
  if (isMemberConnector(url)) return 'mcp-member';
  return 'other';
}

/** The label of a REST route: `rest/opportunities/{id}`. */
export function restRouteLabel(route: Route): string {
  return REST_LABELS.get(route) ?? 'rest/other';
}

export function deliveryOutcome({ next }: Pick<AttemptOutcome, 'next'>): DeliveryOutcome {
  if (next.status === 'succeeded') return 'delivered';
  if (next.status === 'pending') return 'failed_attempt';
  return next.disableDestination ? 'disabled' : 'gave_up';
}

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** `GET /metrics`: the registry in Prometheus text format, for the internal token only (401 otherwise). */
export function createMetricsRoute(metrics: Metrics, isInternalToken: (token: string) => boolean) {
  return async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined || !isInternalToken(token)) {
      const body = JSON.stringify({ error: 'unauthorized', detail: 'Send the internal API token as Authorization: Bearer <token>' });
      res.writeHead(401, {
        'content-type': 'application/json; charset=utf-8',
        'www-authenticate': 'Bearer',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-request-id': requestId,
      });
      res.end(body);
      return;
    }
    const text = await metrics.registry.metrics();
    res.writeHead(200, {
      'content-type': metrics.registry.contentType,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    });
    res.end(text);
  };
}
