// Small helpers shared by the REST API v1 integration tests (test/rest/*.test.ts).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { EventEntity } from '../../core/entities/index.ts';
import type { event, opportunity, organization } from '../../facades/representations/resources.ts';
import type { Stack } from '../support/stack.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

export const ALL_SCOPES = ['organization:read', 'opportunities:read', 'events:read'] as const;
export type Scope = (typeof ALL_SCOPES)[number];
export type Plan = 'base' | 'alpha' | 'clan';

/** The six limit headers every authenticated answer carries (docs/design.md#rate-limits-and-quotas). */
export const LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-monthly-quota-limit',
  'x-monthly-quota-remaining',
  'x-monthly-quota-reset',
] as const;

/** Every problem code of docs/service-contract.md#errors (503 included: the app answers it when a dependency is down). */
export const PROBLEM_CODES = [
  'invalid_key',
  'missing_scope',
  'not_found',
  'rate_limited',
  'quota_exceeded',
  'invalid_parameter',
  'invalid_cursor',
  'method_not_allowed',
  'internal_error',
  'browser_origin_forbidden',
  'service_unavailable',
] as const;

/** ISO 8601 UTC with milliseconds, as every timestamp of the API is written. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const JSON_TYPE = /^application\/json(;|$)/;
export const PROBLEM_TYPE = /^application\/problem\+json(;|$)/;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  parameter?: string;
}

/** The public resources as the API answers them (docs/service-contract.md#resources). */
export type OrganizationBody = ReturnType<typeof organization.json>;
export type OpportunityBody = ReturnType<typeof opportunity.json>;
export type EventBody = ReturnType<typeof event.json>;

export interface ListBody<T = Record<string, unknown>> {
  data: T[];
  meta: { next_cursor: string | null };
}

export const unixNow = () => Math.floor(Date.now() / 1000);
export const DAY_MS = 24 * 3600 * 1000;

/**
 * Checks a parsed problem body against RFC 9457 as docs/service-contract.md#errors fixes it: exactly the members
 * type, title, status, detail, code, request_id (and `parameter` on 400s), `status` equal to the
 * HTTP status and `request_id` equal to the X-Request-Id header.
 */
export function checkProblemBody(body: unknown, httpStatus: number, requestIdHeader: string | null): ProblemBody {
  expect(body, 'problem body is a JSON object').toBeTypeOf('object');
  expect(body).not.toBeNull();
  const p = body as ProblemBody;
  const allowed = ['type', 'title', 'status', 'detail', 'code', 'request_id', ...(httpStatus === 400 ? ['parameter'] : [])];
  for (const key of Object.keys(p)) expect(allowed, `unexpected problem member '${key}'`).toContain(key);
  expect(p.type).toEqual(expect.any(String));
  expect(p.type.length).toBeGreaterThan(0);
  expect(p.title).toEqual(expect.any(String));
  expect(p.title.length).toBeGreaterThan(0);
  expect(p.detail).toEqual(expect.any(String));
  expect(p.status).toBe(httpStatus);
  expect(PROBLEM_CODES as readonly string[]).toContain(p.code);
  expect(p.type.endsWith(p.code), 'type names the code').toBe(true);
  expect(p.request_id).toEqual(expect.any(String));
  expect(p.request_id.length).toBeGreaterThan(0);
  expect(p.request_id).toBe(requestIdHeader);
  return p;
}

/** Asserts a fetch Response is a problem answer with this status and code; returns its body. */
export async function expectProblem(res: Response, status: number, code: string): Promise<ProblemBody> {
  const text = await res.text();
  expect({ status: res.status, body: text.slice(0, 300) }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(PROBLEM_TYPE);
  const body = checkProblemBody(JSON.parse(text), status, res.headers.get('x-request-id'));
  expect(body.code).toBe(code);
  return body;
}

/** Asserts a 200 JSON answer and returns its body. */
export async function expectOk<T = unknown>(res: Response): Promise<T> {
  const text = await res.text();
  expect({ status: res.status, body: text.slice(0, 300) }).toMatchObject({ status: 200 });
  expect(res.headers.get('content-type')).toMatch(JSON_TYPE);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  return JSON.parse(text) as T;
}

/** Asserts the six limit headers are present and hold non-negative integers. */
export function expectLimitHeaders(res: { headers: Headers }) {
  for (const name of LIMIT_HEADERS) {
    const value = res.headers.get(name);
    expect(value, `${name} present`).not.toBeNull();
    expect(value, `${name} is an integer`).toMatch(/^\d+$/);
  }
}

export function expectNoLimitHeaders(res: { headers: Headers }) {
  for (const name of LIMIT_HEADERS) expect(res.headers.get(name), `${name} absent`).toBeNull();
}

// ---- administration through internal GraphQL -------------------------------------------------

export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

export async function createOrganization(stack: Stack, plan: Plan, name = `Test ${plan} organization`): Promise<string> {
  const id = uniqueId(`t-${plan}`);
  const data = await stack.graphql<{ createOrganization: { id: string } }>(
    `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`,
    {
      input: {
        id,
        profile: {
          name,
          plan,
          description: 'Created by a test',
          city: 'Ghent',
          country: 'BE',
          sectors: ['testing'],
          capabilities: ['testing'],
        },
      },
    },
  );
  return data.createOrganization.id;
}

export interface CreatedKey {
  id: string;
  key: string;
}

export async function createKey(
  stack: Stack,
  organizationId: string,
  scopes: readonly string[] = ALL_SCOPES,
  expiresAt = new Date(Date.now() + 30 * DAY_MS),
): Promise<CreatedKey> {
  const data = await stack.graphql<{ createApiKey: { key: string; apiKey: { id: string } } }>(
    `mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { id } } }`,
    { input: { organizationId, scopes, expiresAt: expiresAt.toISOString(), name: 'test key' } },
  );
  return { id: data.createApiKey.apiKey.id, key: data.createApiKey.key };
}

export async function revokeKey(stack: Stack, id: string): Promise<void> {
  await stack.graphql<MutationData<'revokeApiKey'>>(`mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, { id });
}

/** A datetime parameter as the database driver stores it: epoch ms on SQLite, a Date on PostgreSQL. */
export const dbDate = (stack: Stack, at: Date): number | Date => (stack.config.databaseUrl ? at : at.getTime());

export async function sql(stack: Stack, query: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return stack.app.core.db.em.fork().getConnection().execute(query, params);
}

/** Moves a key's expiry into the past directly in the database, then drops the caches. */
export async function expireKey(stack: Stack, id: string, at = new Date(Date.now() - 60_000)): Promise<void> {
  await sql(stack, 'update api_keys set expires_at = ? where id = ?', [dbDate(stack, at), id]);
  stack.app.core.feed.changed();
}

export interface NeedInput {
  organizationId: string;
  title: string;
  description?: string;
  requiredExpertise?: string[];
  remoteAllowed?: boolean;
  discreet?: boolean;
  demo?: boolean;
  city?: string;
  country?: string;
  deadline?: string;
}

export async function publishNeed(stack: Stack, input: NeedInput): Promise<string> {
  const data = await stack.graphql<{ publishNeed: { id: string } }>(
    `mutation ($input: NewNeedInput!) { publishNeed(input: $input) { id } }`,
    { input: { description: 'Published by a test.', requiredExpertise: ['testing'], remoteAllowed: true, ...input } },
  );
  return data.publishNeed.id;
}

export async function createNeedDraft(stack: Stack, input: NeedInput): Promise<string> {
  const data = await stack.graphql<{ createNeedDraft: { id: string } }>(
    `mutation ($input: NewNeedInput!) { createNeedDraft(input: $input) { id } }`,
    { input },
  );
  return data.createNeedDraft.id;
}

export async function withdrawNeed(stack: Stack, id: string): Promise<void> {
  await stack.graphql<MutationData<'withdrawNeed'>>(`mutation ($id: ID!) { withdrawNeed(id: $id) { id } }`, { id });
}

export async function makeNeedPrivate(stack: Stack, id: string): Promise<void> {
  await stack.graphql<MutationData<'makeNeedPrivate'>>(`mutation ($id: ID!) { makeNeedPrivate(id: $id) { id } }`, { id });
}

export async function updateNeed(stack: Stack, id: string, input: Record<string, unknown>): Promise<void> {
  await stack.graphql<MutationData<'updateNeed'>>(
    `mutation ($id: ID!, $input: NeedChangesInput!) { updateNeed(id: $id, input: $input) { id } }`,
    { id, input },
  );
}

export interface EventInput {
  organizationId: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  online?: boolean;
  city?: string;
  country?: string;
  timezone?: string;
  description?: string;
  hostContactEmail?: string;
  hostNotes?: string;
}

export async function createEvent(stack: Stack, input: EventInput): Promise<string> {
  const { startsAt, endsAt, ...rest } = input;
  const mode = { online: !input.city };
  const data = await stack.graphql<{ createEvent: { id: string } }>(
    `mutation ($input: NewEventInput!) { createEvent(input: $input) { id } }`,
    {
      input: {
        description: 'Created by a test.',
        timezone: 'Europe/Brussels',
        ...mode,
        ...rest,
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
      },
    },
  );
  return data.createEvent.id;
}

export async function cancelEvent(stack: Stack, id: string): Promise<void> {
  await stack.graphql<MutationData<'cancelEvent'>>(`mutation ($id: ID!) { cancelEvent(id: $id) { id } }`, { id });
}

/** Every need of the platform with its lifecycle facts (internal GraphQL, all states). */
export async function allNeeds(stack: Stack): Promise<{ id: string; title: string; state: string; demo: boolean; discreet: boolean }[]> {
  const out: { id: string; title: string; state: string; demo: boolean; discreet: boolean }[] = [];
  let after: string | null = null;
  for (;;) {
    const data: QueryData<'needs'> = await stack.graphql<QueryData<'needs'>>(
      `query ($after: String) { needs(first: 50, after: $after) { edges { node { id title admin { state demo discreet } } } pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    for (const { node } of data.needs.edges) out.push({ id: node.id, title: node.title, ...node.admin });
    if (!data.needs.pageInfo.hasNextPage) return out;
    after = data.needs.pageInfo.endCursor;
  }
}

/** Every event (any status), straight from the database. */
export async function allEvents(
  stack: Stack,
): Promise<{ id: string; title: string; status: string; demo: boolean; startsAt: Date; endsAt: Date }[]> {
  const rows = await stack.app.core.db.em.fork().find(EventEntity, {});
  return rows.map((e) => ({ id: e.id, title: e.title, status: e.status, demo: e.demo, startsAt: e.startsAt, endsAt: e.endsAt }));
}

// ---- HTTP ---------------------------------------------------------------------------------------

/** Walks a list endpoint to its end; returns every page. */
export async function walk<T = unknown>(
  stack: Stack,
  list: '/opportunities' | '/events',
  limit: number,
  key?: string,
): Promise<ListBody<T>[]> {
  const pages: ListBody<T>[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1_000; i++) {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: ListBody<T> = await expectOk<ListBody<T>>(await stack.get(`${list}${query}`, key === undefined ? {} : { key }));
    pages.push(page);
    cursor = page.meta.next_cursor;
    if (cursor === null) return pages;
  }
  throw new Error(`${list} did not end`);
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * One HTTP request with the path sent exactly as given (fetch would normalize dot segments and
 * percent-encoding).
 */
export function rawRequest(stack: Stack, method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(stack.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A webhook signing secret in the shape docs/design.md#webhook-signing fixes: `whsec_<base64 of 32 random bytes>`. */
export const webhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The string with the character at `index` replaced by a different one of the same alphabet. */
export function flipChar(value: string, index: number): string {
  const c = value[index]!;
  const replacement = c === 'A' ? 'B' : 'A';
  return value.slice(0, index) + replacement + value.slice(index + 1);
}

// ---- another process ----------------------------------------------------------------------------

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the admin CLI (`packline ... --json`) in its own process against the stack's database. */
export async function runCli<T = unknown>(stack: Stack, args: string[]): Promise<T> {
  const env: Record<string, string | undefined> = { ...process.env, ...stack.env, LOG_LEVEL: 'silent' };
  if (!stack.env.DATABASE_URL) delete env.DATABASE_URL;
  const { stdout } = await execFileAsync(process.execPath, ['bin/packline.js', ...args, '--json'], { cwd: ROOT, env, timeout: 30_000 });
  return JSON.parse(stdout) as T;
}

/**
 * Repeats `probe` until it returns true or the deadline passes; for changes made by another
 * process, which this one sees within one change-feed poll.
 */
export async function eventually(probe: () => Promise<boolean>, deadlineMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
