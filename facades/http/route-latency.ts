import { Histogram, type Registry } from 'prom-client';

/** prom-client's default buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The latencies of one route. */
export class LatencySeries {
  /** Observations per bucket (not cumulative); above the last bound, only `count`. */
  readonly counts = BUCKETS.map(() => 0);
  sum = 0;
  count = 0;

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= BUCKETS[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

/**
 * A histogram labelled by route that prom-client scrapes as its own Histogram (same lines, same
 * order), counted in plain numbers: prom-client's observe builds and hashes a label key on every
 * call, about half a microsecond of every API call.
 */
export class RouteLatency extends Histogram<'route'> {
  private readonly routes = new Map<string, LatencySeries>();

  private readonly metricName: string;
  private readonly metricHelp: string;

  constructor(metricName: string, metricHelp: string, registers: Registry[]) {
    super({ name: metricName, help: metricHelp, labelNames: ['route'], buckets: BUCKETS, registers });
    this.metricName = metricName;
    this.metricHelp = metricHelp;
  }

  /** The route's series, made on first use. */
  route(route: string): LatencySeries {
    let series = this.routes.get(route);
    if (series === undefined) {
      series = new LatencySeries();
      this.routes.set(route, series);
    }
    return series;
  }

  override reset(): void {
    // prom-client's constructor resets too, before this class's fields exist.
    this.routes?.clear();
  }

  /** What prom-client's Histogram reports for the same observations. */
  async getForPromString() {
    const values = [...this.routes].flatMap(([route, series]) => {
      const sharedLabels = { route };
      let cumulative = 0;
      const buckets = BUCKETS.map((le, i) => {
        cumulative += series.counts[i]!;
        return { labels: { le }, sharedLabels, value: cumulative, metricName: `${this.metricName}_bucket`, exemplar: null };
      });
      return [
        ...buckets,
        { labels: { le: '+Inf' }, sharedLabels, value: series.count, metricName: `${this.metricName}_bucket`, exemplar: null },
        { labels: {}, sharedLabels, value: series.sum, metricName: `${this.metricName}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels, value: series.count, metricName: `${this.metricName}_count`, exemplar: undefined },
      ];
    });
    return { name: this.metricName, help: this.metricHelp, type: 'histogram', values, aggregator: 'sum' };
  }
}
