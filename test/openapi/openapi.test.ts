import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import { ContractValidator, LIMIT_HEADERS, type OpenApiDocument } from './validator.ts';
import type { MutationData } from '../support/graphql-data.ts';

// The contract of /api/v1 (docs/service-contract.md#endpoints, docs/service-contract.md#errors,
// docs/service-contract.md#versioning): the document itself, Redocly's lint, and every answer the
// service gives, checked against the document with Ajv (JSON Schema 2020-12).

const REDOCLY = resolve(import.meta.dirname, '../../node_modules/.bin/redocly');
const SCOPES = {
  '/organization': 'organization:read',
  '/opportunities': 'opportunities:read',
  '/opportunities/{id}': 'opportunities:read',
  '/events': 'events:read',
  '/events/{id}': 'events:read',
} as const;
type Path = keyof typeof SCOPES;
const PATHS = Object.keys(SCOPES) as Path[];
const LISTS = ['/opportunities', '/events'] as const;
const BY_ID = ['/opportunities/{id}', '/events/{id}'] as const;
const FAR_FUTURE = () => new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();

interface Case {
  label: string;
  /** Path template in the document. */
  path: Path;
  /** Path and query under /api/v1. */
  url: string;
  method?: string;
  /** null: no Authorization header; undefined: the demo key. */
  key?: string | null;
  authorization?: string;
  headers?: Record<string, string>;
  expected: number;
  authenticated: boolean;
  stack?: Stack;
}

interface Answer extends Case {
  status: number;
  response: Response;
  text: string;
}

const ids = (path: Path, id: string) => path.replace('{id}', encodeURIComponent(id));

async function createKey(stack: Stack, organizationId: string, scopes: string[]): Promise<{ id: string; key: string }> {
  const data = await stack.graphql<MutationData<'createApiKey'>>(
    `mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { id } } }`,
    {
      input: { organizationId, name: `contract ${scopes.join(' ')}`, scopes, expiresAt: FAR_FUTURE() },
    },
  );
  return { id: data.createApiKey.apiKey.id, key: data.createApiKey.key };
}

async function call(stack: Stack, c: Case): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  const key = c.key === undefined ? stack.demoKey : c.key;
  if (c.authorization !== undefined) headers.authorization = c.authorization;
  else if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${stack.api}${c.url}`, { method: c.method ?? 'GET', headers });
  return { ...c, status: response.status, response, text: await response.text() };
}

describe('OpenAPI contract of /api/v1', () => {
  let stack: Stack;
  let limited: Stack;
  let doc: OpenApiDocument;
  let served: Response;
  let validator: ContractValidator;
  const answers: Answer[] = [];

  beforeAll(async () => {
    [stack, limited] = await Promise.all([startStack(), startStack({ env: { RATE_LIMIT_PER_MINUTE: '2' } })]);
    served = await fetch(`${stack.api}/openapi.json`);
    doc = (await served.clone().json()) as OpenApiDocument;
    validator = new ContractValidator(doc);
    await exercise();
  });
  afterAll(async () => {
    await Promise.all([stack?.close(), limited?.close()]);
  });

  /** Provokes every status of every operation and keeps the answers. */
  async function exercise() {
    const run = async (cases: Case[]) => {
      for (const c of cases) answers.push(await call(c.stack ?? stack, c));
    };
    const authed = (c: Omit<Case, 'authenticated'>): Case => ({ ...c, authenticated: true });
    const anonymous = (c: Omit<Case, 'authenticated'>): Case => ({ ...c, authenticated: false });

    // 200: every operation, with and without paging.
    const opportunities = JSON.parse(await (await stack.get('/opportunities?limit=2')).text());
    const events = JSON.parse(await (await stack.get('/events?limit=2')).text());
    const allEvents = JSON.parse(await (await stack.get('/events?limit=50')).text()).data as { id: string; online: boolean }[];
    const online = allEvents.find((e) => e.online)!;
    const inPerson = allEvents.find((e) => !e.online)!;
    await run([
      authed({ label: 'profile', path: '/organization', url: '/organization', expected: 200 }),
      authed({ label: 'first page', path: '/opportunities', url: '/opportunities', expected: 200 }),
      authed({ label: 'largest page', path: '/opportunities', url: '/opportunities?limit=50', expected: 200 }),
      authed({
        label: 'next page',
        path: '/opportunities',
        url: `/opportunities?limit=2&cursor=${encodeURIComponent(opportunities.meta.next_cursor)}`,
        expected: 200,
      }),
      authed({ label: 'one', path: '/opportunities/{id}', url: ids('/opportunities/{id}', opportunities.data[0].id), expected: 200 }),
      authed({ label: 'first page', path: '/events', url: '/events', expected: 200 }),
      authed({ label: 'largest page', path: '/events', url: '/events?limit=50', expected: 200 }),
      authed({
        label: 'next page',
        path: '/events',
        url: `/events?limit=2&cursor=${encodeURIComponent(events.meta.next_cursor)}`,
        expected: 200,
      }),
      authed({ label: 'online', path: '/events/{id}', url: ids('/events/{id}', online.id), expected: 200 }),
      authed({ label: 'in person', path: '/events/{id}', url: ids('/events/{id}', inPerson.id), expected: 200 }),
    ]);
    // Profiles of other plans and shapes (incomplete: empty description, no payment due yet).
    for (const org of ['cobalt-data', 'granite-coop', 'ember-comms']) {
      const { key } = await createKey(stack, org, ['organization:read']);
      await run([authed({ label: `profile of ${org}`, path: '/organization', url: '/organization', key, expected: 200 })]);
    }

    // 400: bad limit, bad cursor, cursor of the other list, repeated parameter, bad ids.
    const otherCursor = { '/opportunities': events.meta.next_cursor, '/events': opportunities.meta.next_cursor };
    // 304: the ETag of the answer just served, sent back.
    for (const c of answers.filter((a) => a.expected === 200 && a.key === undefined && a.status === 200)) {
      const etag = c.response.headers.get('etag')!;
      const headers = { 'if-none-match': etag };
      await run([authed({ label: `${c.label}, not modified`, path: c.path, url: c.url, headers, expected: 304 })]);
    }

    const ownCursor = { '/opportunities': opportunities.meta.next_cursor as string, '/events': events.meta.next_cursor as string };
    for (const path of LISTS) {
      const tampered = `${ownCursor[path].slice(0, -2)}${ownCursor[path].endsWith('AA') ? 'BB' : 'AA'}`;
      await run([
        authed({ label: 'limit=0', path, url: `${path}?limit=0`, expected: 400 }),
        authed({ label: 'limit=51', path, url: `${path}?limit=51`, expected: 400 }),
        authed({ label: 'limit=abc', path, url: `${path}?limit=abc`, expected: 400 }),
        authed({ label: 'limit twice', path, url: `${path}?limit=1&limit=2`, expected: 400 }),
        authed({ label: 'empty cursor', path, url: `${path}?cursor=`, expected: 400 }),
        authed({ label: 'tampered cursor', path, url: `${path}?cursor=${encodeURIComponent(tampered)}`, expected: 400 }),
        authed({ label: 'cursor of the other list', path, url: `${path}?cursor=${encodeURIComponent(otherCursor[path])}`, expected: 400 }),
        authed({ label: 'cursor too long', path, url: `${path}?cursor=${'a'.repeat(513)}`, expected: 400 }),
      ]);
    }
    for (const path of BY_ID) {
      await run([
        authed({ label: 'id of 121 characters', path, url: ids(path, 'x'.repeat(121)), expected: 400 }),
        authed({ label: 'empty id', path, url: path.replace('{id}', ''), expected: 400 }),
      ]);
    }

    // 401: no key, malformed, unknown, wrong scheme, a webhook secret, a revoked key.
    const revoked = await createKey(stack, 'delta-forge', ['organization:read', 'opportunities:read', 'events:read']);
    await stack.graphql<MutationData<'revokeApiKey'>>(`mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: revoked.id });
    const wellFormedUnknown = (await createKey(limited, 'juniper-green', ['events:read'])).key; // a key of another deployment
    for (const path of PATHS) {
      const url = ids(path, 'n_anything');
      await run([
        anonymous({ label: 'no key', path, url, key: null, expected: 401 }),
        anonymous({ label: 'malformed key', path, url, key: 'live_nope', expected: 401 }),
        anonymous({ label: 'unknown key', path, url, key: wellFormedUnknown, expected: 401 }),
        anonymous({ label: 'basic scheme', path, url, authorization: `Basic ${Buffer.from('a:b').toString('base64')}`, expected: 401 }),
        anonymous({ label: 'webhook secret', path, url, key: 'whsec_0123456789abcdefghijklmnopqrstuv', expected: 401 }),
        anonymous({ label: 'revoked key', path, url, key: revoked.key, expected: 401 }),
      ]);
    }

    // 403: a key without the scope; a browser Origin.
    const onlyEvents = (await createKey(stack, 'atelier-nord', ['events:read'])).key;
    const onlyOrganization = (await createKey(stack, 'atelier-nord', ['organization:read'])).key;
    for (const path of PATHS) {
      const key = SCOPES[path] === 'events:read' ? onlyOrganization : onlyEvents;
      await run([
        authed({ label: 'missing scope', path, url: ids(path, 'n_anything'), key, expected: 403 }),
        anonymous({
          label: 'browser origin',
          path,
          url: ids(path, 'n_anything'),
          headers: { origin: 'https://app.example' },
          expected: 403,
        }),
      ]);
    }

    // 404: absent, no longer public, demonstration content.
    const withdrawn = await stack.graphql<{ n: { id: string } }>(
      `mutation { n: publishNeed(input: { organizationId: "atelier-nord", title: "Contract test need" }) { id } }`,
    );
    await stack.graphql<MutationData<'withdrawNeed'>>(`mutation ($id: ID!) { withdrawNeed(id: $id) { id } }`, { id: withdrawn.n.id });
    const demoNeed = await stack.graphql<{ n: { id: string } }>(
      `mutation { n: publishNeed(input: { organizationId: "iris-demo", title: "Demo contract need" }) { id } }`,
    );
    const cancelled = await stack.graphql<{ e: { id: string } }>(
      `mutation { e: createEvent(input: { organizationId: "atelier-nord", title: "Contract test event", online: true, startsAt: "${FAR_FUTURE()}", endsAt: "${new Date(Date.now() + 31 * 24 * 3600 * 1000).toISOString()}" }) { id } }`,
    );
    await stack.graphql<MutationData<'cancelEvent'>>(`mutation ($id: ID!) { cancelEvent(id: $id) { id } }`, { id: cancelled.e.id });
    await run([
      authed({ label: 'absent', path: '/opportunities/{id}', url: '/opportunities/n_doesnotexist00', expected: 404 }),
      authed({ label: 'withdrawn', path: '/opportunities/{id}', url: ids('/opportunities/{id}', withdrawn.n.id), expected: 404 }),
      authed({ label: 'demonstration', path: '/opportunities/{id}', url: ids('/opportunities/{id}', demoNeed.n.id), expected: 404 }),
      authed({
        label: 'id of 120 characters',
        path: '/opportunities/{id}',
        url: ids('/opportunities/{id}', 'x'.repeat(120)),
        expected: 404,
      }),
      authed({ label: 'absent', path: '/events/{id}', url: '/events/ev_doesnotexist0', expected: 404 }),
      authed({ label: 'cancelled', path: '/events/{id}', url: ids('/events/{id}', cancelled.e.id), expected: 404 }),
      authed({ label: 'unicode id', path: '/events/{id}', url: ids('/events/{id}', 'événement-é'), expected: 404 }),
    ]);

    // 405: anything but GET.
    for (const path of PATHS) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        await run([anonymous({ label: method, path, url: ids(path, 'n_anything'), method, expected: 405 })]);
      }
    }

    // 429: a stack allowing two requests a minute per key.
    const { key: busyKey } = await createKey(limited, 'juniper-green', ['organization:read', 'opportunities:read', 'events:read']);
    for (let i = 0; i < 2; i++)
      await run([authed({ label: 'within the rate', path: '/events', url: '/events', key: busyKey, stack: limited, expected: 200 })]);
    for (const path of PATHS) {
      await run([authed({ label: 'over the rate', path, url: ids(path, 'n_anything'), key: busyKey, stack: limited, expected: 429 })]);
    }

    // 500: an unexpected failure in the core (injected), after which the service recovers.
    type Reads = Record<string, () => Promise<unknown>>;
    const core = stack.app.core as unknown as {
      services: () => { organizations: Reads; needs: Reads; events: Reads };
      feed: { changed(): void };
    };
    const services = core.services;
    const fail = async () => {
      throw new Error('injected failure: SECRET-INTERNAL-DETAIL at /srv/core/need.service.ts:42');
    };
    core.services = () => {
      const s = services();
      for (const name of ['getProfile']) s.organizations[name] = fail;
      for (const name of ['getPublic', 'listPublic']) s.needs[name] = s.events[name] = fail;
      return s;
    };
    core.feed.changed(); // retire cached pages
    try {
      for (const path of PATHS) await run([authed({ label: 'injected failure', path, url: ids(path, 'n_anything'), expected: 500 })]);
    } finally {
      core.services = services;
    }
  }

  const problemsOf = (selected: Answer[]) =>
    selected.flatMap((a) => [
      ...(a.status === a.expected
        ? []
        : [`${a.method ?? 'GET'} ${a.url} (${a.label}): expected ${a.expected}, got ${a.status}: ${a.text.slice(0, 200)}`]),
      ...validator.check({
        path: a.path,
        method: (a.method ?? 'GET').toLowerCase(),
        response: a.response,
        text: a.text,
        authenticated: a.authenticated,
      }),
    ]);

  describe('the document', () => {
    it('is served without a key, as JSON', () => {
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^application\/json/);
      expect(served.headers.get('x-request-id')).toBeTruthy();
    });

    it('is OpenAPI 3.1 titled "Public API", version 2026-07-25, with bearer authentication', () => {
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.title).toBe('Public API');
      expect(doc.info.version).toBe('2026-07-25');
      const schemes = doc.components.securitySchemes!;
      expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.servers).toEqual([expect.objectContaining({ url: `${PUBLIC_BASE_URL}/api/v1` })]);
    });

    it('has exactly the five read-only operations', () => {
      expect(Object.keys(doc.paths).sort()).toEqual([...PATHS].sort());
      for (const path of PATHS) expect(Object.keys(doc.paths[path]!), path).toEqual(['get']);
      const operationIds = PATHS.map((p) => doc.paths[p]!.get.operationId);
      expect(new Set(operationIds).size).toBe(5);
    });

    it.each(PATHS)('%s declares its scope and its error responses', (path) => {
      const op = doc.paths[path]!.get;
      expect(op.security).toEqual([{ bearerAuth: [SCOPES[path]] }]);
      const statuses = Object.keys(op.responses);
      expect(statuses).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
      const byId = path.endsWith('{id}');
      const parameters = (op.parameters ?? []).map((p) => validator.resolve(p, '')[0]).filter((p) => p.in !== 'header');
      if (byId) expect(statuses).toContain('404');
      else expect(statuses).not.toContain('404');
      if (parameters.length > 0) expect(statuses).toContain('400');
      else expect(statuses).not.toContain('400');
      // Every response has a description and a problem body for errors.
      for (const status of statuses) {
        const [response] = validator.resolve(op.responses[status]!, '');
        expect(response.description, `${path} ${status}`).toEqual(expect.any(String));
        const types = status === '200' ? ['application/json'] : status === '304' ? [] : ['application/problem+json'];
        expect(Object.keys(response.content ?? {}), `${path} ${status}`).toEqual(types);
      }
    });

    it('describes the parameters as the service checks them (limit 1–50, default 20; id 1–120)', () => {
      for (const path of LISTS) {
        const params = (doc.paths[path]!.get.parameters ?? []).map((p) => validator.resolve(p, '')[0]);
        expect(params.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['header:If-None-Match', 'query:cursor', 'query:limit']);
        const limit = params.find((p) => p.name === 'limit');
        expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 20 });
        expect(limit?.required ?? false).toBe(false);
      }
      for (const path of BY_ID) {
        const params = (doc.paths[path]!.get.parameters ?? []).map((p) => validator.resolve(p, '')[0]);
        expect(params).toEqual([
          expect.objectContaining({ name: 'id', in: 'path', required: true }),
          expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
        ]);
        expect(params[0]?.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 120 });
      }
    });

    it('documents the rate and quota headers on success', () => {
      for (const path of PATHS) {
        const [ok] = validator.resolve(doc.paths[path]!.get.responses['200']!, '');
        const headers = Object.keys(ok.headers ?? {});
        expect(headers, path).toEqual(expect.arrayContaining([...LIMIT_HEADERS, 'X-Request-Id']));
      }
      const [tooMany] = validator.resolve(doc.paths['/events']!.get.responses['429']!, '');
      expect(Object.keys(tooMany.headers ?? {})).toEqual(expect.arrayContaining([...LIMIT_HEADERS, 'Retry-After']));
    });

    it('passes Redocly lint (recommended rules) without errors', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'packline-redocly-'));
      try {
        const file = join(dir, 'openapi.json');
        writeFileSync(file, JSON.stringify(doc, null, 2));
        const { code, stdout, stderr } = await runRedocly(['lint', file, '--format=json', '--extends=recommended'], dir);
        let report: {
          totals: { errors: number; warnings: number };
          problems: { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] }[];
        };
        try {
          report = JSON.parse(stdout);
        } catch {
          throw new Error(`redocly did not print a JSON report (exit ${code}):\n${stdout}\n${stderr}`);
        }
        const show = (p: (typeof report.problems)[number]) =>
          `${p.severity} ${p.ruleId} at ${p.location?.[0]?.pointer ?? '?'}: ${p.message}`;
        const errors = report.problems.filter((p) => p.severity === 'error');
        const warnings = report.problems.filter((p) => p.severity !== 'error');
        expect(errors.map(show), `Redocly errors (warnings: ${warnings.map(show).join('; ') || 'none'})`).toEqual([]);
        expect(report.totals.errors).toBe(0);
        expect(code, stderr).toBe(0);

        // The same run on a broken copy reports an error: the lint can fail.
        const broken = structuredClone(doc);
        const eventsOk = broken.paths['/events']!.get.responses['200'];
        if (!eventsOk || '$ref' in eventsOk) throw new Error('GET /events is expected to declare its 200 answer inline');
        eventsOk.content!['application/json']!.schema = { $ref: '#/components/schemas/Missing' };
        writeFileSync(file, JSON.stringify(broken));
        const refused = await runRedocly(['lint', file, '--format=json', '--extends=recommended'], dir);
        expect(JSON.parse(refused.stdout).problems).toContainEqual(
          expect.objectContaining({ ruleId: 'no-unresolved-refs', severity: 'error' }),
        );
        expect(refused.code).not.toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('live answers match the document', () => {
    const statuses = [200, 304, 400, 401, 403, 404, 405, 429, 500];
    it.each(statuses)('every %i answer has a documented status, content type, body and headers', (status) => {
      const selected = answers.filter((a) => a.expected === status);
      expect(selected.length).toBeGreaterThan(0);
      expect(problemsOf(selected)).toEqual([]);
    });

    it('every operation produced exactly the statuses it documents', () => {
      for (const path of PATHS) {
        const produced = new Set(answers.filter((a) => a.path === path).map((a) => a.status));
        const documented = Object.keys(doc.paths[path]!.get.responses).map(Number);
        expect(
          [...produced].filter((s) => !documented.includes(s)),
          `${path}: produced but undocumented`,
        ).toEqual([]);
        expect(
          documented.filter((s) => !produced.has(s)),
          `${path}: documented but never produced`,
        ).toEqual([]);
      }
    });

    it('answers to an accepted key carry the rate and quota windows; refusals name the limit', () => {
      const accepted = answers.filter((a) => a.authenticated && a.expected !== 500);
      expect(accepted.length).toBeGreaterThan(50);
      for (const a of accepted) {
        for (const name of LIMIT_HEADERS) expect(a.response.headers.get(name), `${a.url} (${a.label}) ${name}`).toMatch(/^\d+$/);
      }
      const refused = answers.filter((a) => a.expected === 429);
      for (const a of refused) {
        expect(a.response.headers.get('x-ratelimit-limit')).toBe('2');
        expect(a.response.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(a.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(JSON.parse(a.text)).toMatchObject({ status: 429, code: 'rate_limited' });
      }
    });

    it('every answer carries X-Request-Id, and problems quote it', () => {
      for (const a of answers) {
        const requestId = a.response.headers.get('x-request-id');
        expect(requestId, `${a.url} (${a.label})`).toBeTruthy();
        if (a.status >= 400) expect(JSON.parse(a.text).request_id).toBe(requestId);
      }
    });

    it('error answers use the problem code of their cause (docs/service-contract.md#errors)', () => {
      const code = (a: Answer) => (JSON.parse(a.text) as { code: string }).code;
      const byLabel = (label: string) => answers.filter((a) => a.label === label);
      for (const a of answers.filter((x) => x.expected === 401)) {
        expect(code(a)).toBe('invalid_key');
        expect(a.response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      }
      for (const a of byLabel('missing scope')) {
        expect(code(a)).toBe('missing_scope');
        expect(JSON.parse(a.text).detail).toContain(SCOPES[a.path]);
      }
      for (const a of byLabel('browser origin')) expect(code(a)).toBe('browser_origin_forbidden');
      for (const a of answers.filter((x) => x.expected === 405)) {
        expect(code(a)).toBe('method_not_allowed');
        expect(a.response.headers.get('allow')).toBe('GET');
      }
      for (const a of answers.filter((x) => x.expected === 404)) expect(code(a)).toBe('not_found');
      for (const a of answers.filter((x) => x.expected === 400)) {
        const body = JSON.parse(a.text);
        expect(['invalid_parameter', 'invalid_cursor']).toContain(body.code);
        expect(['limit', 'cursor', 'id']).toContain(body.parameter);
      }
      for (const a of answers.filter((x) => x.expected === 500)) {
        expect(code(a)).toBe('internal_error');
        expect(a.text).not.toContain('SECRET-INTERNAL-DETAIL');
        expect(a.text).not.toMatch(/\.ts:\d+|\bat \S+ \(/);
      }
    });

    it('the checker itself refuses answers that break the document', () => {
      const problem = {
        type: '/api/v1/problems/not_found',
        title: 'Not found',
        status: 404,
        detail: 'x',
        code: 'not_found',
        request_id: 'r',
      };
      const answer = (status: number, body: unknown, headers: Record<string, string>) => {
        const text = JSON.stringify(body);
        return { response: new Response(text, { status, headers }), text };
      };
      const json = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r' };
      const problemJson = { ...json, 'content-type': 'application/problem+json' };
      const limits = Object.fromEntries(LIMIT_HEADERS.map((h) => [h, '1']));
      const check = (path: string, a: ReturnType<typeof answer>, authenticated = true) => validator.check({ path, ...a, authenticated });
      expect(check('/events/{id}', answer(404, problem, { ...problemJson, ...limits }))).toEqual([]);
      // Undocumented status, wrong media type, extra property, wrong type, missing headers.
      expect(check('/organization', answer(404, problem, problemJson)).join()).toMatch(/status not documented/);
      expect(check('/events/{id}', answer(404, problem, { ...json, ...limits })).join()).toMatch(
        /content type 'application\/json' not documented/,
      );
      expect(check('/events/{id}', answer(404, { ...problem, stack: 'at x' }, { ...problemJson, ...limits })).join()).toMatch(
        /additional properties/,
      );
      expect(check('/events/{id}', answer(404, { ...problem, status: '404' }, { ...problemJson, ...limits })).join()).toMatch(
        /must be integer/,
      );
      expect(check('/events/{id}', answer(404, problem, problemJson)).join()).toMatch(/X-RateLimit-Limit is missing/);
      expect(check('/events/{id}', answer(404, problem, { ...problemJson, ...limits, 'X-RateLimit-Reset': 'soon' })).join()).toMatch(
        /X-RateLimit-Reset: 'soon'/,
      );
      expect(check('/events', answer(200, { data: [{ id: 'e' }], meta: { next_cursor: null } }, { ...json, ...limits })).join()).toMatch(
        /must have required property 'title'/,
      );
    });

    it('recovers after the injected failure', async () => {
      const res = await stack.get('/opportunities?limit=1');
      expect(res.status).toBe(200);
      expect(validator.check({ path: '/opportunities', response: res, text: await res.text(), authenticated: true })).toEqual([]);
    });
  });

  // docs/design.md#order-of-checks: key (401) → rate (429) → scope (403) → quota (429) → handler. Path ids are
  // input of the handler, so a request without a key is a 401 whatever its id, and a refused
  // id with an accepted key is metered like any other answer.
  it('checks the key before decoding the path id', async () => {
    const anonymous = await stack.get('/opportunities/%E0%A4%A', { key: null });
    expect(anonymous.status).toBe(401);
    const accepted = await stack.get('/opportunities/%E0%A4%A');
    expect(accepted.status).toBe(400);
    expect(validator.check({ path: '/opportunities/{id}', response: accepted, text: await accepted.text(), authenticated: true })).toEqual(
      [],
    );
  });
});

function runRedocly(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(REDOCLY, args, {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}
