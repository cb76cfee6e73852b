// With an https PUBLIC_BASE_URL every answer tells browsers to come back over https only (HSTS,
// one year unless HSTS_MAX_AGE_SECONDS says otherwise; 0 leaves it to a proxy), and the pages'
// cookies are `__Host-` cookies: Secure, Path=/, no Domain, so no subdomain or plain-http page
// can set or shadow them. Plain http on loopback (development) gets neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/index.ts';
import { createMember, hidden, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';

const HSTS = 'strict-transport-security';

/** One request of every kind the server answers: REST (200, 304, problem), docs, pages, connectors, GraphQL, ops, 404. */
async function everyKind(stack: Stack): Promise<Response[]> {
  const docs = await fetch(`${stack.api}/docs`);
  const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return [
    await stack.get('/opportunities?limit=1'),
    await stack.get('/opportunities?limit=1', { key: null }),
    await fetch(`${stack.api}/openapi.json`),
    docs,
    await fetch(`${stack.api}/docs`, { headers: { 'if-none-match': docs.headers.get('etag')! } }),
    await fetch(`${stack.origin}/account/login`),
    await fetch(`${stack.origin}/admin`, { redirect: 'manual' }),
    await fetch(`${stack.origin}/mcp`, {
      method: 'POST',
      headers: mcp,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }),
    await fetch(`${stack.origin}/mcp/member`, { method: 'POST', headers: mcp, body: '{}' }),
    await fetch(`${stack.origin}/.well-known/oauth-authorization-server`),
    await fetch(`${stack.origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    }),
    await fetch(`${stack.origin}/inbound/e-signature/esc_none`, { method: 'GET' }),
    await fetch(`${stack.origin}/healthz`),
    await fetch(`${stack.origin}/readyz`),
    await fetch(`${stack.origin}/no/such/address`),
  ];
}

describe('an https public address', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('sends HSTS for a year with every answer', async () => {
    const answers = await everyKind(stack);
    expect(answers.map((r) => r.status)).toEqual([200, 401, 200, 200, 304, 200, 303, 200, 401, 200, 200, 405, 200, 200, 404]);
    for (const res of answers) expect(res.headers.get(HSTS), res.url).toBe('max-age=31536000');
  });

  it('names the pages’ cookies __Host-, Secure with Path=/, and honours no cookie without the prefix', async () => {
    const email = 'prefixed@atelier-nord.example';
    await createMember(stack, email);
    const login = await fetch(`${stack.origin}/account/login`);
    const loginCookie = login.headers.getSetCookie()[0]!;
    expect(loginCookie).toMatch(/^__Host-pl_login=[^;]+; Path=\/; Max-Age=1800; HttpOnly; SameSite=Lax; Secure$/);

    const browser = new TestBrowser(stack);
    await browser.signIn(email);
    const token = browser.cookie(SESSION);
    expect(SESSION).toBe('__Host-pl_member');
    expect(token).toBeDefined();
    expect((await browser.request('/account/settings')).status).toBe(200);

    // The same session under the unprefixed name (as a subdomain or an http page could set it): not read.
    const unprefixed = await fetch(`${stack.origin}/account/settings`, { headers: { cookie: `pl_member=${token}` }, redirect: 'manual' });
    expect(unprefixed.status).toBe(303);
    expect(unprefixed.headers.get('location')).toMatch(/^\/account\/login\?/);

    // Nor is an unprefixed sign-in cookie: the form's token is bound to the __Host- one.
    const form = await (await fetch(`${stack.origin}/account/login`)).text();
    const secret = /__Host-pl_login=([^;]+)/.exec(login.headers.getSetCookie()[0]!)![1]!;
    const forged = await fetch(`${stack.origin}/account/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `pl_login=${secret}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: PASSWORD, return_to: '/account/settings', csrf: hidden(form, 'csrf') }).toString(),
    });
    expect(forged.status).toBe(403);
  });
});

describe('HSTS_MAX_AGE_SECONDS=0 (a proxy in front sends it)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { HSTS_MAX_AGE_SECONDS: '0' } });
  });
  afterAll(() => stack?.close());

  it('sends no HSTS, and keeps the __Host- cookies', async () => {
    for (const res of await everyKind(stack)) expect(res.headers.get(HSTS), res.url).toBeNull();
    expect((await fetch(`${stack.origin}/account/login`)).headers.getSetCookie()[0]).toMatch(/^__Host-pl_login=/);
  });
});

describe('plain http on loopback (development)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ localOrigin: true, env: { HSTS_MAX_AGE_SECONDS: '600' } });
  });
  afterAll(() => stack?.close());

  it('sends no HSTS and plain cookie names (a __Host- cookie needs https)', async () => {
    for (const res of await everyKind(stack)) expect(res.headers.get(HSTS), res.url).toBeNull();
    expect((await fetch(`${stack.origin}/account/login`)).headers.getSetCookie()[0]).toMatch(
      /^pl_login=[^;]+; Path=\/account\/login; Max-Age=1800; HttpOnly; SameSite=Lax$/,
    );
  });
});

describe('HSTS_MAX_AGE_SECONDS', () => {
  it('takes 0 to two years, and names the variable when it is anything else', () => {
    expect(loadConfig({ HSTS_MAX_AGE_SECONDS: '600' }, { persistSecrets: false }).http.hstsMaxAgeSeconds).toBe(600);
    expect(loadConfig({}, { persistSecrets: false }).http.hstsMaxAgeSeconds).toBe(31_536_000);
    for (const value of ['-1', 'a year', '63072001', '1e6']) {
      expect(() => loadConfig({ HSTS_MAX_AGE_SECONDS: value }, { persistSecrets: false }), value).toThrow(ConfigError);
      expect(() => loadConfig({ HSTS_MAX_AGE_SECONDS: value }, { persistSecrets: false }), value).toThrow(/HSTS_MAX_AGE_SECONDS/);
    }
  });
});
