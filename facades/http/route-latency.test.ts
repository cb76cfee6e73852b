import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RouteLatency } from './route-latency.ts';

const NAME = 'packline_http_request_duration_seconds';
const HELP = 'Time from a request to the end of its answer, by route';

describe('RouteLatency', () => {
  it("scrapes as prom-client's Histogram of the same observations, text and JSON", async () => {
    const seconds = fc.oneof(fc.double({ min: 0, max: 20, noNaN: true }), fc.constantFrom(0, 0.005, 0.01, 0.25, 1, 10, 10.000001));
    const observation = fc.tuple(fc.constantFrom('rest/opportunities/{id}', 'rest/other', 'graphql'), seconds);
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 50 }), async (observations) => {
        const [ours, theirs] = [new Registry(), new Registry()];
        const latency = new RouteLatency(NAME, HELP, [ours]);
        const reference = new Histogram({ name: NAME, help: HELP, labelNames: ['route'], registers: [theirs] });
        for (const [route, value] of observations) {
          latency.route(route).observe(value);
          reference.labels(route).observe(value);
        }
        expect(await ours.metrics()).toBe(await theirs.metrics());
        expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
        ours.resetMetrics();
        theirs.resetMetrics();
        expect(await ours.metrics()).toBe(await theirs.metrics());
      }),
      { numRuns: 200 },
    );
  });
});
