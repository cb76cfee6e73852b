import { Browser } from '../../facades/kit/browser.ts';
import type { PageDeps } from '../../facades/kit/page-support.ts';
import type { AdminVisit } from '../../facades/web/admin/layout.ts';
import { deliveryView } from '../../facades/web/admin/deliveries/index.ts';

// The cost of rendering one delivery page's HTML (a failed delivery with its attempts), in µs per
// render: `node_modules/.bin/node bench/support/render-cost.ts`.

const RENDERS = 10_000;
const browser = new Browser({ secret: 'render-cost-secret-render-cost-secret', publicBaseUrl: 'https://packline.test' });
const deps = { browser } as unknown as PageDeps;
const visit = {
  session: { token: 'session-token' },
  account: { id: 'a1', name: 'Ada', email: 'ada@example.test' },
  org: { id: 'o1', plan: 'clan', allowances: { manualRetry: true }, profile: { name: 'Kith & Kin' } },
} as unknown as AdminVisit;
const headers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `x-header-${i}`, value: `value <${i}> & more` }));
const attempt = (number: number) => ({
  number,
  at: `2026-11-22T10:0${number}:05.000Z`,
  durationMs: 120 + number,
  statusCode: number === 3 ? null : 503,
  error: number === 3 ? 'timeout after 10 s' : null,
  responseExcerpt: number === 3 ? null : '{"error":"unavailable","detail":"<try later>"}',
  requestHeaders: headers(9),
  responseHeaders: number === 3 ? null : headers(6),
});
const delivery = {
  body: JSON.stringify({ id: 'evt_1', type: 'need.published', data: { title: 'Roof & walls', items: [1, 2, 3] } }),
  id: 'd1',
  organizationId: 'o1',
  destinationId: 'w1',
  eventId: 'evt_1',
  type: 'need.published',
  test: false,
  status: 'failed',
  attemptCount: 3,
  nextAttemptAt: null,
  lastStatusCode: null,
  lastError: 'timeout after 10 s',
  lastAttemptAt: '2026-11-22T10:03:05.000Z',
  deliveredAt: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  attempts: [1, 2, 3].map(attempt),
};
const target = {
  id: 'w1',
  organizationId: 'o1',
  name: 'Ops',
  description: '',
  format: 'standard-json',
  url: 'https://hooks.example.test/••••',
  language: 'en',
  kinds: ['need.published'],
  scope: 'organization',
  connectedVia: 'admin',
  status: 'active',
  disabledReason: null,
  secret: null,
  previousSecretExpiresAt: null,
  receiverUrl: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  lastDayDeliveries: { finished: 0, succeeded: 0 },
};

const render = () => deliveryView(deps, visit, delivery, target, 8).text;
let bytes = 0;
for (let i = 0; i < 1_000; i++) bytes = render().length;
// The machine is shared: five rounds, the fastest and the median reported.
const rounds: number[] = [];
for (let round = 0; round < 5; round++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < RENDERS; i++) bytes = render().length;
  rounds.push(Number(process.hrtime.bigint() - start) / 1_000 / RENDERS);
}
rounds.sort((a, b) => a - b);
console.log(
  `delivery page: ${rounds[0]!.toFixed(1)} µs per render at best, ${rounds[2]!.toFixed(1)} µs median ` +
    `(5 × ${RENDERS} renders, ${bytes} characters)`,
);
