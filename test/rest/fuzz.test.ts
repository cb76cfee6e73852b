// REST API v1, property-based: whatever arrives under /api/v1, the answer is never a 5xx and every
// non-200 answer is a valid problem body (docs/service-contract.md#errors). Raw requests (node:http) so that paths
// reach the server exactly as generated, without fetch's normalization.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../core/api-key-format.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';
import {
  checkProblemBody,
  createKey,
  createOrganization,
  expectOk,
  expireKey,
  flipChar,
  JSON_TYPE,
  PROBLEM_TYPE,
  rawRequest,
  revokeKey,
  webhookSecret,
  type ListBody,
  type RawAnswer,
} from './helpers.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const RUNS = { numRuns: 300 } as const;
/** Longest request target generated: well under Node's 16 KiB limit on the request head. */
const MAX_TARGET = 8 * 1024;

let stack: Stack;
let opportunityId: string;
let eventId: string;
let opportunitiesCursor: string;
let eventsCursor: string;
let narrowKey: string;
let revokedKey: string;
let expiredKey: string;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  const opportunities = await expectOk<ListBody<{ id: string }>>(await stack.get('/opportunities?limit=2'));
  const events = await expectOk<ListBody<{ id: string }>>(await stack.get('/events?limit=2'));
  opportunityId = opportunities.data[0]!.id;
  eventId = events.data[0]!.id;
  opportunitiesCursor = opportunities.meta.next_cursor!;
  eventsCursor = events.meta.next_cursor!;
  const org = await createOrganization(stack, 'clan');
  narrowKey = (await createKey(stack, org, ['events:read'])).key;
  const revoked = await createKey(stack, org);
  await revokeKey(stack, revoked.id);
  revokedKey = revoked.key;
  const expired = await createKey(stack, org);
  await expireKey(stack, expired.id);
  expiredKey = expired.key;
});

afterAll(() => stack?.close());

// ---- arbitraries -------------------------------------------------------------------------------

/** Visible ASCII, as a client may put it raw in a request target. */
const visibleAscii = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

/** Any Unicode text, percent-encoded as UTF-8 (control characters and NUL included). */
const encodedUnicode = (maxLength: number) => fc.string({ unit: 'binary', maxLength }).map((s) => encodeURIComponent(s));

/** Text around one control character (C0 or DEL, NUL included), percent-encoded. */
const encodedControl = fc
  .tuple(fc.string({ maxLength: 6 }), fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f)), fc.string({ maxLength: 6 }))
  .map(([before, code, after]) => encodeURIComponent(`${before}${String.fromCharCode(code)}${after}`));

const encodedGraphemes = fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => encodeURIComponent(s));

const brokenPercent = fc.constantFrom('%', '%z', '%zz', '%E2%82', '%ED%A0%80', '%C0%AF', '%FF', '%00', '%2F', '%5C', '%25', '%%', '%0A');
const dotSegment = fc.constantFrom('.', '..', '%2e', '%2E%2E', '.%2e', '...');
const longSegment = fc.oneof(
  fc.integer({ min: 100, max: 4_000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 40, max: 400 }).map((n) => '%E2%82%AC'.repeat(n)),
  fc.integer({ min: 110, max: 130 }).map((n) => 'x'.repeat(n)),
);
const word = fc.constantFrom(
  'organization',
  'opportunities',
  'events',
  'openapi.json',
  'problems',
  'not_found',
  'invalid_key',
  'v1',
  'api',
  '',
);

function segment() {
  return fc.oneof(
    { arbitrary: word, weight: 6 },
    { arbitrary: fc.constantFrom(opportunityId, eventId, 'n_zzzzzzzzzzzzzz', 'ev_zzzzzzzzzzzzzz'), weight: 3 },
    { arbitrary: visibleAscii(16), weight: 3 },
    { arbitrary: encodedUnicode(8), weight: 2 },
    { arbitrary: encodedControl, weight: 1 },
    { arbitrary: encodedGraphemes, weight: 1 },
    { arbitrary: brokenPercent, weight: 1 },
    { arbitrary: dotSegment, weight: 1 },
    { arbitrary: longSegment, weight: 1 },
  );
}

function apiPath() {
  const anyPath = fc.array(segment(), { maxLength: 5 }).map((segments) => `/api/v1${segments.length ? `/${segments.join('/')}` : ''}`);
  const byId = fc.tuple(fc.constantFrom('opportunities', 'events'), segment()).map(([list, id]) => `/api/v1/${list}/${id}`);
  return fc.oneof({ arbitrary: anyPath, weight: 3 }, { arbitrary: byId, weight: 2 });
}

function queryString() {
  const key = fc.oneof(
    fc.constantFrom('limit', 'cursor', 'LIMIT', 'limit[]', 'x', '', 'lim%69t', 'cursor%00'),
    visibleAscii(6).filter((s) => !/[&=#]/.test(s)),
  );
  const value = fc.oneof(
    fc.constantFrom('0', '1', '20', '50', '51', 'abc', '1.5', '-1', '', '%00', '1e1', '020', '%31', '+5', '9'.repeat(30)),
    fc.constantFrom(
      encodeURIComponent(opportunitiesCursor),
      encodeURIComponent(eventsCursor),
      encodeURIComponent(flipChar(opportunitiesCursor, 2)),
      encodeURIComponent(`${eventsCursor}=`),
    ),
    fc.integer({ min: -1_000, max: 1_000 }).map(String),
    encodedUnicode(12),
    visibleAscii(24).filter((s) => !/[&#]/.test(s)),
    longSegment,
  );
  const pairs = fc.array(fc.tuple(key, value), { maxLength: 4 }).map((list) => `?${list.map(([k, v]) => `${k}=${v}`).join('&')}`);
  return fc.oneof(
    fc.constant(''),
    pairs,
    visibleAscii(30).map((s) => `?${s.replace(/#/g, '')}`),
  );
}

function authorization() {
  return fc.oneof(
    fc.constantFrom(
      undefined,
      `Bearer ${stack.demoKey}`,
      `Bearer ${stack.demoKey}`,
      `bearer ${stack.demoKey}`,
      `Bearer ${narrowKey}`,
      `Bearer ${revokedKey}`,
      `Bearer ${expiredKey}`,
      `Bearer ${generateApiKey()}`,
      `Bearer ${flipChar(stack.demoKey, 12)}`,
      `Bearer ${webhookSecret()}`,
      `Bearer ${INTERNAL_TOKEN}`,
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from(`a:${stack.demoKey}`).toString('base64')}`,
      stack.demoKey,
    ),
    visibleAscii(60).map((s) => `Bearer ${s}`),
    visibleAscii(60),
  );
}

const origin = fc.option(fc.constantFrom('https://evil.example', 'null', 'http://localhost:3000', 'chrome-extension://abc'), {
  nil: undefined,
});
const requestId = fc.option(
  fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), visibleAscii(140), fc.constantFrom('', 'x'.repeat(129))),
  { nil: undefined },
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');

// ---- the contract every answer keeps --------------------------------------------------------------

interface Sent {
  method: string;
  target: string;
  headers: Record<string, string>;
}

function send({ method, target, headers }: Sent): Promise<RawAnswer> {
  return rawRequest(stack, method, target, headers);
}

/** Paths the API serves without a key (documentation). */
const isDocumentation = (target: string) => /^\/api\/v1\/(openapi\.json|problems\/[^/?#]*)([?#]|$)/.test(target);

function expectContract(sent: Sent, res: RawAnswer) {
  const where = `${sent.method} ${sent.target.slice(0, 200)} → ${res.status} ${res.body.slice(0, 200)}`;
  expect(res.status, where).toBeGreaterThanOrEqual(200);
  expect(res.status, where).toBeLessThan(500);

  const id = res.headers.get('x-request-id');
  expect(id, where).toMatch(REQUEST_ID);
  const given = sent.headers['x-request-id'];
  if (given !== undefined && REQUEST_ID.test(given)) expect(id, where).toBe(given);
  for (const [name] of res.headers) expect(name.startsWith('access-control-'), where).toBe(false);

  if (sent.method !== 'GET') {
    expect(res.status, where).toBe(405);
    expect(res.headers.get('allow'), where).toBe('GET');
  }

  const type = res.headers.get('content-type') ?? '';
  if (res.status === 200) {
    expect(type, where).toMatch(JSON_TYPE);
    expect(() => JSON.parse(res.body), where).not.toThrow();
    // API data only to a server-side caller with a key; documentation is public.
    if (!isDocumentation(sent.target)) {
      expect(sent.headers.origin, where).toBeUndefined();
      expect(sent.headers.authorization, where).toBeDefined();
    }
    return;
  }

  expect(type, where).toMatch(PROBLEM_TYPE);
  if (sent.method === 'HEAD') return; // no body
  let body: unknown;
  expect(() => (body = JSON.parse(res.body)), where).not.toThrow();
  const problem = checkProblemBody(body, res.status, id);
  if (res.status === 401) expect(res.headers.get('www-authenticate'), where).toBe('Bearer error="invalid_token"');
  if (res.status === 429) expect(res.headers.get('retry-after'), where).toMatch(/^\d+$/);
  if (res.status === 400) expect(['invalid_parameter', 'invalid_cursor'], where).toContain(problem.code);
}

function headersOf(auth: string | undefined, originValue: string | undefined, requestIdValue: string | undefined) {
  const headers: Record<string, string> = {};
  if (auth !== undefined) headers.authorization = auth;
  if (originValue !== undefined) headers.origin = originValue;
  if (requestIdValue !== undefined) headers['x-request-id'] = requestIdValue;
  return headers;
}

describe('any request under /api/v1', () => {
  it('is answered without a 5xx, and every non-200 answer is a problem body', async () => {
    await fc.assert(
      fc.asyncProperty(method, apiPath(), queryString(), authorization(), origin, requestId, async (m, path, query, auth, o, rid) => {
        const sent = { method: m, target: `${path}${query}`, headers: headersOf(auth, o, rid) };
        // Beyond Node's 16 KiB header limit the HTTP parser answers 431 before the service runs.
        fc.pre(sent.target.length <= MAX_TARGET);
        expectContract(sent, await send(sent));
      }),
      RUNS,
    );
  });

  it('by id: any percent-encoded id is 200, 400 or 404, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('opportunities', 'events'),
        fc.oneof(
          encodedUnicode(20),
          encodedControl,
          encodedGraphemes,
          visibleAscii(30).map((s) => s.replace(/[/?#]/g, '_')),
          longSegment,
          brokenPercent,
        ),
        async (list, id) => {
          const sent = { method: 'GET', target: `/api/v1/${list}/${id}`, headers: { authorization: `Bearer ${stack.demoKey}` } };
          const res = await send(sent);
          expect([200, 400, 404], `${sent.target.slice(0, 200)} → ${res.status}`).toContain(res.status);
          expectContract(sent, res);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('lists: any query string is 200 or a 400 naming limit or cursor', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/v1/opportunities', '/api/v1/events'), queryString(), async (path, query) => {
        const sent = { method: 'GET', target: `${path}${query}`, headers: { authorization: `Bearer ${stack.demoKey}` } };
        fc.pre(sent.target.length <= MAX_TARGET);
        const res = await send(sent);
        expectContract(sent, res);
        if (res.status === 200) {
          const body = JSON.parse(res.body) as ListBody;
          expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
          expect(body.data.length).toBeGreaterThanOrEqual(1);
          expect(body.data.length).toBeLessThanOrEqual(50);
        } else {
          expect(res.status).toBe(400);
          expect(['limit', 'cursor']).toContain((JSON.parse(res.body) as { parameter?: string }).parameter);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('any method other than GET is 405 with Allow: GET, whatever the path and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'),
        apiPath(),
        authorization(),
        origin,
        async (m, path, auth, o) => {
          const sent = { method: m, target: path, headers: headersOf(auth, o, undefined) };
          fc.pre(sent.target.length <= MAX_TARGET);
          const res = await send(sent);
          expect(res.status).toBe(405);
          expectContract(sent, res);
        },
      ),
      { numRuns: 100 },
    );
  });
});
