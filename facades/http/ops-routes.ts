// The operator's endpoints, served by every role: /healthz, /readyz and /metrics.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadinessRoute, HEALTH_PATH, READY_PATH, type Readiness } from './health.ts';
import { createMetricsRoute, METRICS_PATH, type Metrics } from './metrics.ts';

export interface OpsRoutesOptions {
  readiness: Readiness;
  metrics: Metrics;
  /** Constant-time check of the internal API token, which guards /metrics. */
  isInternalToken(token: string): boolean;
}

export interface OpsRoutes {
  handles(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
}

export function createOpsRoutes({ readiness, metrics, isInternalToken }: OpsRoutesOptions): OpsRoutes {
  const ready = createReadinessRoute(readiness);
  const scrape = createMetricsRoute(metrics, isInternalToken);
  const pathOf = (url: string) => url.split('?', 1)[0];
  return {
    handles: (url) => {
      const path = pathOf(url);
      return path === HEALTH_PATH || path === READY_PATH || path === METRICS_PATH;
    },
    async handle(req, res, requestId) {
      const path = pathOf(req.url ?? '/');
      if (path === READY_PATH) return ready(res, requestId);
      if (path === METRICS_PATH) return scrape(req, res, requestId);
      const body = JSON.stringify({ status: 'ok' });
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'x-content-type-options': 'nosniff',
        'x-request-id': requestId,
      });
      res.end(body);
    },
  };
}
