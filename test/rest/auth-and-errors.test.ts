// REST API v1: every status of every endpoint, over real HTTP (docs/service-contract.md#endpoints,
// docs/service-contract.md#authentication, docs/service-contract.md#errors).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../core/api-key-format.ts';
import { CursorCodec } from '../../core/cursor.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';
import {
  ALL_SCOPES,
  allEvents,
  allNeeds,
  cancelEvent,
  checkProblemBody,
  createEvent,
  createKey,
  createNeedDraft,
  createOrganization,
  DAY_MS,
  eventually,
  expectLimitHeaders,
  expectNoLimitHeaders,
  expectOk,
  expectProblem,
  expireKey,
  flipChar,
  JSON_TYPE,
  makeNeedPrivate,
  PROBLEM_TYPE,
  publishNeed,
  rawRequest,
  revokeKey,
  runCli,
  webhookSecret,
  withdrawNeed,
  type CreatedKey,
  type EventBody,
  type ListBody,
  type OpportunityBody,
  type Scope,
} from './helpers.ts';
import type { MutationData } from '../support/graphql-data.ts';

interface Endpoint {
  name: string;
  scope: Scope;
  path: () => string;
}

let stack: Stack;
let opportunityId: string;
let eventId: string;
let clanOrg: string;
let fullKey: CreatedKey;
const scopeKeys = {} as Record<Scope, CreatedKey>;

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /organization', scope: 'organization:read', path: () => '/organization' },
  { name: 'GET /opportunities', scope: 'opportunities:read', path: () => '/opportunities' },
  { name: 'GET /opportunities/{id}', scope: 'opportunities:read', path: () => `/opportunities/${opportunityId}` },
  { name: 'GET /events', scope: 'events:read', path: () => '/events' },
  { name: 'GET /events/{id}', scope: 'events:read', path: () => `/events/${eventId}` },
];

const INVALID_TOKEN = 'Bearer error="invalid_token"';

async function expectInvalidKey(res: Response) {
  await expectProblem(res, 401, 'invalid_key');
  expect(res.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
  // Nothing is metered for a caller that is not identified.
  expectNoLimitHeaders(res);
}

beforeAll(async () => {
  // A high per-key rate: this file makes many calls with few keys; limits.test.ts covers 429.
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const opportunities = await expectOk<ListBody<{ id: string }>>(await stack.get('/opportunities?limit=1'));
  const events = await expectOk<ListBody<{ id: string }>>(await stack.get('/events?limit=1'));
  opportunityId = opportunities.data[0]!.id;
  eventId = events.data[0]!.id;
  // Clan plan: up to 5 active keys, 4 used here.
  clanOrg = await createOrganization(stack, 'clan');
  fullKey = await createKey(stack, clanOrg, ALL_SCOPES);
  for (const scope of ALL_SCOPES) scopeKeys[scope] = await createKey(stack, clanOrg, [scope]);
});

afterAll(() => stack?.close());

describe('200 with a valid key', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name} answers 200 application/json with X-Request-Id and the six limit headers`, async () => {
      for (const key of [stack.demoKey, fullKey.key, scopeKeys[endpoint.scope].key]) {
        const res = await stack.get(endpoint.path(), { key });
        const body = await expectOk(res);
        expect(body).toBeTypeOf('object');
        expectLimitHeaders(res);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    });
  }

  it('accepts the auth scheme in any letter case (RFC 9110 §11.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await stack.get('/organization', { key: null, headers: { authorization: `${scheme} ${fullKey.key}` } });
      expect(res.status).toBe(200);
    }
  });
});

describe('401 invalid_key', () => {
  const malformedHeaders = () => [
    'Bearer',
    'Bearer ',
    `Basic ${Buffer.from(`user:${stack.demoKey}`).toString('base64')}`,
    `Token ${stack.demoKey}`,
    stack.demoKey,
    `Bearer ${stack.demoKey} extra`,
    `Bearer${stack.demoKey}`,
    `Bearer "${stack.demoKey}"`,
  ];

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: no Authorization header`, async () => {
      await expectInvalidKey(await stack.get(endpoint.path(), { key: null }));
    });

    it(`${endpoint.name}: malformed Authorization headers`, async () => {
      for (const authorization of malformedHeaders()) {
        await expectInvalidKey(await stack.get(endpoint.path(), { key: null, headers: { authorization } }));
      }
    });

    it(`${endpoint.name}: mistyped key (bad checksum), truncated key, unknown well-formed key`, async () => {
      const mistyped = flipChar(stack.demoKey, 10);
      const truncated = stack.demoKey.slice(0, -1);
      const unknown = generateApiKey();
      for (const key of [mistyped, truncated, unknown, `${stack.demoKey}x`, 'live_', 'x']) {
        await expectInvalidKey(await stack.get(endpoint.path(), { key }));
      }
    });

    it(`${endpoint.name}: a whsec_ webhook signing secret presented as a key`, async () => {
      await expectInvalidKey(await stack.get(endpoint.path(), { key: webhookSecret() }));
      await expectInvalidKey(await stack.get(endpoint.path(), { key: `whsec_${stack.demoKey}` }));
    });

    it(`${endpoint.name}: the internal GraphQL token presented as a key`, async () => {
      await expectInvalidKey(await stack.get(endpoint.path(), { key: INTERNAL_TOKEN }));
    });
  }

  it('a revoked key is refused on the very next call, on every endpoint', async () => {
    const org = await createOrganization(stack, 'alpha');
    const key = await createKey(stack, org);
    for (const endpoint of ENDPOINTS) expect((await stack.get(endpoint.path(), { key: key.key })).status).toBe(200);
    await revokeKey(stack, key.id);
    for (const endpoint of ENDPOINTS) await expectInvalidKey(await stack.get(endpoint.path(), { key: key.key }));
  });

  it('a key revoked by another process (the admin CLI) is refused within a change-feed poll', async () => {
    const org = await createOrganization(stack, 'alpha');
    const key = await createKey(stack, org);
    expect((await stack.get('/events', { key: key.key })).status).toBe(200);
    const revoked = await runCli<{ status: string }>(stack, ['keys', 'revoke', key.id]);
    expect(revoked.status).toBe('revoked');
    const refused = await eventually(async () => {
      const res = await stack.get('/events', { key: key.key });
      await res.arrayBuffer();
      return res.status === 401;
    });
    expect(refused).toBe(true);
    await expectInvalidKey(await stack.get('/organization', { key: key.key }));
  }, 60_000);

  it('an expired key is refused on every endpoint', async () => {
    const org = await createOrganization(stack, 'alpha');
    const key = await createKey(stack, org);
    for (const endpoint of ENDPOINTS) expect((await stack.get(endpoint.path(), { key: key.key })).status).toBe(200);
    await expireKey(stack, key.id);
    for (const endpoint of ENDPOINTS) await expectInvalidKey(await stack.get(endpoint.path(), { key: key.key }));
  });

  it('the key is checked before parameters: no key with limit=abc is 401, not 400', async () => {
    await expectInvalidKey(await stack.get('/opportunities?limit=abc', { key: null }));
    await expectInvalidKey(await stack.get(`/events/${'x'.repeat(121)}`, { key: 'nope' }));
  });
});

describe('403 missing_scope', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name} requires ${endpoint.scope}: keys with only another scope get 403, with the six limit headers`, async () => {
      for (const scope of ALL_SCOPES) {
        const res = await stack.get(endpoint.path(), { key: scopeKeys[scope].key });
        if (scope === endpoint.scope) {
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          continue;
        }
        const problem = await expectProblem(res, 403, 'missing_scope');
        expect(problem.detail).toContain(endpoint.scope);
        expectLimitHeaders(res);
      }
    });
  }

  it('a key with two of the three scopes is refused only the third', async () => {
    const org = await createOrganization(stack, 'clan');
    const key = await createKey(stack, org, ['organization:read', 'events:read']);
    expect((await stack.get('/organization', { key: key.key })).status).toBe(200);
    expect((await stack.get('/events', { key: key.key })).status).toBe(200);
    expect((await stack.get(`/events/${eventId}`, { key: key.key })).status).toBe(200);
    await expectProblem(await stack.get('/opportunities', { key: key.key }), 403, 'missing_scope');
    await expectProblem(await stack.get(`/opportunities/${opportunityId}`, { key: key.key }), 403, 'missing_scope');
  });

  it('the scope is checked before parameters and existence', async () => {
    const key = scopeKeys['organization:read'].key;
    await expectProblem(await stack.get('/opportunities?limit=abc', { key }), 403, 'missing_scope');
    await expectProblem(await stack.get('/events/ev_doesnotexist00', { key }), 403, 'missing_scope');
  });
});

describe('404 not_found on the by-id endpoints', () => {
  it('unknown ids, and ids of the other kind', async () => {
    const paths = [
      '/opportunities/n_zzzzzzzzzzzzzz',
      '/opportunities/unknown',
      `/opportunities/${eventId}`,
      `/opportunities/${'x'.repeat(120)}`,
      '/events/ev_zzzzzzzzzzzzzz',
      '/events/unknown',
      `/events/${opportunityId}`,
      `/events/${'y'.repeat(120)}`,
      `/opportunities/${encodeURIComponent("n_' or '1'='1")}`,
      `/events/${encodeURIComponent('ev_"; drop table events; --')}`,
    ];
    for (const path of paths) {
      const res = await stack.get(path);
      const problem = await expectProblem(res, 404, 'not_found');
      expect(problem.parameter).toBeUndefined();
      expectLimitHeaders(res);
    }
    // The data survived the ids above.
    expect((await stack.get(`/events/${eventId}`)).status).toBe(200);
  });

  it('drafts, private, withdrawn and demonstration needs are 404', async () => {
    const needs = await allNeeds(stack);
    const hidden = needs.filter((n) => n.state !== 'public' || n.demo);
    expect(hidden.map((n) => n.state)).toEqual(expect.arrayContaining(['draft', 'private', 'withdrawn']));
    expect(hidden.some((n) => n.demo)).toBe(true);
    for (const need of hidden) await expectProblem(await stack.get(`/opportunities/${need.id}`), 404, 'not_found');
  });

  it('cancelled and demonstration events are 404; a past event that was not cancelled is still readable by id', async () => {
    const events = await allEvents(stack);
    const hidden = events.filter((e) => e.status !== 'public' || e.demo);
    expect(hidden.length).toBeGreaterThanOrEqual(2);
    for (const event of hidden) await expectProblem(await stack.get(`/events/${event.id}`), 404, 'not_found');
    const past = events.find((e) => e.title === 'Accessibility clinic (past)')!;
    expect((await stack.get(`/events/${past.id}`)).status).toBe(200);
  });

  it('a need is 404 after withdrawal', async () => {
    const id = await publishNeed(stack, { organizationId: clanOrg, title: 'Need to be withdrawn' });
    expect((await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`))).id).toBe(id);
    await withdrawNeed(stack, id);
    const res = await stack.get(`/opportunities/${id}`);
    await expectProblem(res, 404, 'not_found');
    expectLimitHeaders(res);
  });

  it('a need is 404 after being made private, and readable again once republished', async () => {
    const id = await publishNeed(stack, { organizationId: clanOrg, title: 'Need to be made private' });
    expect((await stack.get(`/opportunities/${id}`)).status).toBe(200);
    await makeNeedPrivate(stack, id);
    await expectProblem(await stack.get(`/opportunities/${id}`), 404, 'not_found');
    await stack.graphql<MutationData<'publishNeedDraft'>>(`mutation ($id: ID!) { publishNeedDraft(id: $id) { id } }`, { id });
    expect((await stack.get(`/opportunities/${id}`)).status).toBe(200);
  });

  it('a draft is 404 until published', async () => {
    const id = await createNeedDraft(stack, { organizationId: clanOrg, title: 'A draft' });
    await expectProblem(await stack.get(`/opportunities/${id}`), 404, 'not_found');
    await stack.graphql<MutationData<'publishNeedDraft'>>(`mutation ($id: ID!) { publishNeedDraft(id: $id) { id } }`, { id });
    expect((await stack.get(`/opportunities/${id}`)).status).toBe(200);
  });

  it('an event is 404 after cancellation', async () => {
    const id = await createEvent(stack, {
      organizationId: clanOrg,
      title: 'Event to be cancelled',
      startsAt: new Date(Date.now() + 2 * DAY_MS),
      endsAt: new Date(Date.now() + 2 * DAY_MS + 3600_000),
    });
    expect((await expectOk<EventBody>(await stack.get(`/events/${id}`))).id).toBe(id);
    await cancelEvent(stack, id);
    const res = await stack.get(`/events/${id}`);
    await expectProblem(res, 404, 'not_found');
    expectLimitHeaders(res);
  });

  it('ids holding control characters (NUL included) are answered 404 or 400, never 500', async () => {
    for (const id of ['%00', 'n_%00', 'a%00b', '%01', '%1F', '%7F', '%0D%0A']) {
      for (const list of ['opportunities', 'events']) {
        const res = await stack.get(`/${list}/${id}`);
        expect([400, 404], `GET /${list}/${id} answered ${res.status}`).toContain(res.status);
        const body = await res.json();
        checkProblemBody(body, res.status, res.headers.get('x-request-id'));
      }
    }
  });
});

describe('400 invalid_parameter and invalid_cursor', () => {
  const badLimits = ['0', '51', 'abc', '1.5', '-1', '', '1e1', '0x10', ' 5', '5 ', '100', '9999999999', 'null'];

  for (const list of ['/opportunities', '/events']) {
    it(`${list}: limit outside 1..50 or not an integer is 400 invalid_parameter naming limit`, async () => {
      for (const limit of badLimits) {
        const res = await stack.get(`${list}?limit=${encodeURIComponent(limit)}`);
        const problem = await expectProblem(res, 400, 'invalid_parameter');
        expect(problem.parameter).toBe('limit');
        expectLimitHeaders(res);
      }
    });

    it(`${list}: a repeated limit is 400`, async () => {
      const problem = await expectProblem(await stack.get(`${list}?limit=5&limit=5`), 400, 'invalid_parameter');
      expect(problem.parameter).toBe('limit');
      await expectProblem(await stack.get(`${list}?limit=5&limit=6`), 400, 'invalid_parameter');
    });

    it(`${list}: limit 1, 50 and the default are accepted`, async () => {
      expect((await expectOk<ListBody>(await stack.get(`${list}?limit=1`))).data).toHaveLength(1);
      expect((await expectOk<ListBody>(await stack.get(`${list}?limit=50`))).data.length).toBeLessThanOrEqual(50);
      expect((await expectOk<ListBody>(await stack.get(list))).data.length).toBeLessThanOrEqual(20);
    });
  }

  it('an id longer than 120 characters is 400 invalid_parameter naming id; 120 is accepted (404)', async () => {
    for (const list of ['/opportunities', '/events']) {
      for (const id of ['x'.repeat(121), 'n_'.repeat(100), encodeURIComponent('é'.repeat(121))]) {
        const res = await stack.get(`${list}/${id}`);
        const problem = await expectProblem(res, 400, 'invalid_parameter');
        expect(problem.parameter).toBe('id');
        expectLimitHeaders(res);
      }
      await expectProblem(await stack.get(`${list}/${'x'.repeat(120)}`), 404, 'not_found');
    }
  });

  it('an empty id is 400', async () => {
    for (const list of ['/opportunities/', '/events/']) {
      const problem = await expectProblem(await stack.get(list), 400, 'invalid_parameter');
      expect(problem.parameter).toBe('id');
    }
  });

  it('a malformed percent-encoding in the id is 400', async () => {
    for (const raw of ['%', '%zz', '%E2%82', '%ED%A0%80']) {
      const res = await rawRequest(stack, 'GET', `/api/v1/opportunities/${raw}`, { authorization: `Bearer ${stack.demoKey}` });
      expect(res.status).toBe(400);
      const problem = checkProblemBody(JSON.parse(res.body), 400, res.headers.get('x-request-id'));
      expect(problem.code).toBe('invalid_parameter');
    }
  });

  it('cursors: another list, altered, forged, garbage, empty, repeated or oversized are 400 invalid_cursor naming cursor', async () => {
    const opportunitiesCursor = (await expectOk<ListBody>(await stack.get('/opportunities?limit=2'))).meta.next_cursor!;
    const eventsCursor = (await expectOk<ListBody>(await stack.get('/events?limit=2'))).meta.next_cursor!;
    expect(opportunitiesCursor).toEqual(expect.any(String));
    expect(eventsCursor).toEqual(expect.any(String));
    // Sanity: each works on its own list.
    expect((await stack.get(`/opportunities?limit=2&cursor=${encodeURIComponent(opportunitiesCursor)}`)).status).toBe(200);
    expect((await stack.get(`/events?limit=2&cursor=${encodeURIComponent(eventsCursor)}`)).status).toBe(200);

    const forged = new CursorCodec('not-the-server-secret').encode('opportunities', { at: Date.now(), id: 'n_zzzzzzzzzzzzzz' });
    const cases: [string, string][] = [
      ['/opportunities', eventsCursor],
      ['/events', opportunitiesCursor],
      ['/opportunities', forged],
      ['/opportunities', flipChar(opportunitiesCursor, 0)],
      ['/opportunities', flipChar(opportunitiesCursor, Math.floor(opportunitiesCursor.indexOf('.') / 2))],
      ['/opportunities', flipChar(opportunitiesCursor, opportunitiesCursor.indexOf('.') + 1)],
      ['/opportunities', flipChar(opportunitiesCursor, opportunitiesCursor.length - 1)],
      ['/events', flipChar(eventsCursor, 3)],
      ['/events', eventsCursor.slice(0, -2)],
      ['/events', eventsCursor.replace('.', '')],
      ['/opportunities', `${opportunitiesCursor.split('.')[0]}.`],
      ['/opportunities', `.${opportunitiesCursor.split('.')[1]}`],
      ['/opportunities', 'garbage'],
      ['/opportunities', 'a.b'],
      ['/opportunities', '.'],
      ['/events', Buffer.from(JSON.stringify({ l: 'events', t: 0, i: 'ev_0' })).toString('base64url')],
      ['/events', `${Buffer.from(JSON.stringify({ l: 'events', t: 0, i: 'ev_0' })).toString('base64url')}.${eventsCursor.split('.')[1]}`],
      ['/opportunities', ''],
      ['/opportunities', 'x'.repeat(600)],
      ['/events', '\u0000'],
    ];
    for (const [list, cursor] of cases) {
      const res = await stack.get(`${list}?cursor=${encodeURIComponent(cursor)}`);
      const problem = await expectProblem(res, 400, 'invalid_cursor');
      expect(problem.parameter).toBe('cursor');
      expectLimitHeaders(res);
    }
    const repeated = await stack.get(
      `/opportunities?cursor=${encodeURIComponent(opportunitiesCursor)}&cursor=${encodeURIComponent(opportunitiesCursor)}`,
    );
    expect((await expectProblem(repeated, 400, 'invalid_cursor')).parameter).toBe('cursor');
  });
});

describe('405 method_not_allowed', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: POST, PUT, DELETE, PATCH are 405 with Allow: GET`, async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await fetch(`${stack.api}${endpoint.path()}`, {
          method,
          headers: { authorization: `Bearer ${stack.demoKey}`, 'content-type': 'application/json' },
          body: method === 'DELETE' ? undefined : '{}',
        });
        await expectProblem(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('GET');
      }
    });
  }

  it('a write attempt changes nothing', async () => {
    const before = await expectOk<OpportunityBody>(await stack.get(`/opportunities/${opportunityId}`));
    const res = await fetch(`${stack.api}/opportunities/${opportunityId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${stack.demoKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Changed by PATCH' }),
    });
    expect(res.status).toBe(405);
    await res.arrayBuffer();
    expect(await expectOk<OpportunityBody>(await stack.get(`/opportunities/${opportunityId}`))).toEqual(before);
  });
});

describe('403 browser_origin_forbidden', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: a request with an Origin header is refused, with no CORS headers`, async () => {
      for (const origin of ['https://example.com', 'null', 'http://127.0.0.1:3000']) {
        const res = await stack.get(endpoint.path(), { headers: { origin } });
        await expectProblem(res, 403, 'browser_origin_forbidden');
        for (const [name] of res.headers) expect(name.startsWith('access-control-')).toBe(false);
      }
    });
  }

  it('a CORS preflight gets no CORS grant', async () => {
    const res = await fetch(`${stack.api}/opportunities`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    checkProblemBody(await res.json(), res.status, res.headers.get('x-request-id'));
  });
});

describe('unknown paths under /api/v1', () => {
  it('are 404 not_found problems', async () => {
    for (const path of [
      '',
      '/',
      '/nope',
      '/organizations',
      '/organization/atelier-nord',
      '/opportunities/x/y',
      '/events/x/y',
      '/opportunity',
      '/Events',
      '/v2/events',
    ]) {
      const res = await stack.get(path);
      await expectProblem(res, 404, 'not_found');
    }
  });

  it('dot segments are not resolved into other routes', async () => {
    const res = await rawRequest(stack, 'GET', '/api/v1/../graphql', { authorization: `Bearer ${INTERNAL_TOKEN}` });
    expect(res.status).toBe(404);
    expect(checkProblemBody(JSON.parse(res.body), 404, res.headers.get('x-request-id')).code).toBe('not_found');
  });
});

describe('X-Request-Id and content types', () => {
  it('every answer carries a distinct X-Request-Id', async () => {
    const answers = await Promise.all([
      stack.get('/organization'),
      stack.get('/organization', { key: null }),
      stack.get('/nope'),
      stack.get('/opportunities?limit=0'),
      stack.get('/events/ev_zzzzzzzzzzzzzz'),
      stack.get('/events', { headers: { origin: 'https://example.com' } }),
      fetch(`${stack.api}/events`, { method: 'DELETE' }),
    ]);
    const ids = answers.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(new Set(ids).size).toBe(ids.length);
    await Promise.all(answers.map((r) => r.arrayBuffer()));
  });

  it('a valid incoming X-Request-Id is echoed in the header and in problem bodies', async () => {
    const ok = await stack.get('/organization', { headers: { 'x-request-id': 'client-req.42:a_b-c' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('client-req.42:a_b-c');
    await ok.arrayBuffer();
    const failed = await stack.get('/events/ev_zzzzzzzzzzzzzz', { headers: { 'x-request-id': 'trace-0001' } });
    expect((await expectProblem(failed, 404, 'not_found')).request_id).toBe('trace-0001');
    const unauth = await stack.get('/events', { key: null, headers: { 'x-request-id': 'trace-0002' } });
    expect((await expectProblem(unauth, 401, 'invalid_key')).request_id).toBe('trace-0002');
  });

  it('an invalid incoming X-Request-Id is replaced', async () => {
    for (const given of ['has space', 'x'.repeat(129), 'semi;colon', '<script>', 'a/b', '"quoted"']) {
      const res = await stack.get('/events/ev_zzzzzzzzzzzzzz', { headers: { 'x-request-id': given } });
      const problem = await expectProblem(res, 404, 'not_found');
      expect(problem.request_id).not.toBe(given);
      expect(problem.request_id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    }
  });

  it('success is application/json, every failure application/problem+json', async () => {
    const ok = await stack.get('/events');
    expect(ok.headers.get('content-type')).toMatch(JSON_TYPE);
    await ok.arrayBuffer();
    for (const res of [await stack.get('/events', { key: null }), await stack.get('/events?limit=0'), await stack.get('/nope')]) {
      expect(res.headers.get('content-type')).toMatch(PROBLEM_TYPE);
      await res.arrayBuffer();
    }
  });

  it('problem types resolve to their explanation', async () => {
    const problem = await expectProblem(await stack.get('/events', { key: null }), 401, 'invalid_key');
    const res = await fetch(new URL(problem.type, stack.origin));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: 'invalid_key', status: 401 });
  });

  it('an unknown problem type page is a 404 problem too', async () => {
    const res = await stack.get('/problems/no_such_problem', { key: null });
    await expectProblem(res, 404, 'not_found');
  });
});

describe('active keys per plan (docs/service-contract.md#authentication)', () => {
  const tryCreate = async (org: string) => {
    try {
      return { ok: true as const, key: await createKey(stack, org) };
    } catch (error) {
      return { ok: false as const, codes: (error as { codes?: string[] }).codes ?? [] };
    }
  };

  for (const [plan, limit] of [
    ['base', 1],
    ['alpha', 1],
    ['clan', 5],
  ] as const) {
    it(`${plan}: ${limit} active key${limit > 1 ? 's' : ''}; one more is PLAN_LIMIT; revoking or expiring one frees a place`, async () => {
      const org = await createOrganization(stack, plan);
      const keys: CreatedKey[] = [];
      for (let i = 0; i < limit; i++) keys.push(await createKey(stack, org));
      const refused = await tryCreate(org);
      expect(refused).toEqual({ ok: false, codes: ['PLAN_LIMIT'] });
      // Every created key works.
      for (const key of keys) expect((await stack.get('/organization', { key: key.key })).status).toBe(200);

      await revokeKey(stack, keys[0]!.id);
      const replacement = await tryCreate(org);
      expect(replacement.ok).toBe(true);
      expect(await tryCreate(org)).toEqual({ ok: false, codes: ['PLAN_LIMIT'] });
      if (!replacement.ok) return;
      expect((await stack.get('/organization', { key: replacement.key.key })).status).toBe(200);

      // An expired key no longer counts as active.
      await expireKey(stack, replacement.key.id);
      const afterExpiry = await tryCreate(org);
      expect(afterExpiry.ok).toBe(true);
      expect(await tryCreate(org)).toEqual({ ok: false, codes: ['PLAN_LIMIT'] });
    });
  }

  it('concurrent creations cannot exceed the plan limit', async () => {
    const base = await createOrganization(stack, 'base');
    const clan = await createOrganization(stack, 'clan');
    const [baseResults, clanResults] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => tryCreate(base))),
      Promise.all(Array.from({ length: 9 }, () => tryCreate(clan))),
    ]);
    expect(baseResults.filter((r) => r.ok)).toHaveLength(1);
    expect(clanResults.filter((r) => r.ok)).toHaveLength(5);
    for (const r of [...baseResults, ...clanResults]) if (!r.ok) expect(r.codes).toEqual(['PLAN_LIMIT']);
  });
});
