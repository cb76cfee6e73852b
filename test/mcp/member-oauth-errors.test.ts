// The member connector's authorization server when things go wrong: refused consent, replayed
// codes, wrong verifier, redirect or resource, reused refresh tokens, forged forms, and (on a
// second stack with zero lifetimes) expired codes and tokens.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import {
  answerConsent,
  authorizeInBrowser,
  createMember,
  MEMBER_URL,
  rawToolCall,
  REDIRECT_URL,
  SESSION,
  stackFetch,
  TestBrowser,
  TestOAuthClient,
  tokenRequest,
} from './member-client.ts';
import type { QueryData } from '../support/graphql-data.ts';

let stack: Stack;
let email: string;
let browser: TestBrowser;

beforeAll(async () => {
  stack = await startStack();
  email = 'oauth-errors@atelier-nord.example';
  await createMember(stack, email);
  browser = new TestBrowser(stack);
});

afterAll(async () => {
  await stack?.close();
});

async function register(s: Stack, redirect = REDIRECT_URL): Promise<string> {
  const res = await fetch(`${s.origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Manual Client', redirect_uris: [redirect], token_endpoint_auth_method: 'client_secret_post' }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { client_id: string; client_secret?: string; token_endpoint_auth_method: string };
  expect(body.client_secret).toBeUndefined();
  expect(body.token_endpoint_auth_method).toBe('none');
  return body.client_id;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URL,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    ...extra,
  });
  return `https://packline.test/authorize?${query.toString()}`;
}

/** Registration, then the member approves on the pages; the code and its PKCE verifier. */
async function approvedCode(s: Stack, b: TestBrowser, who: string, extra: Record<string, string> = {}) {
  const clientId = await register(s);
  const { verifier, challenge } = pkce();
  const back = await answerConsent(authorizeUrl(clientId, challenge, extra), b, { email: who });
  const code = back.searchParams.get('code');
  expect(code, back.href).toMatch(/^plc_/);
  return { clientId, verifier, code: code! };
}

/** An authorization error shown on Packline's page: 400, HTML, no redirect, nothing for the application. */
async function expectErrorPage(res: Response, error: string): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const page = await res.text();
  expect(page).toContain(`<code>${error}</code>`);
  expect(page).toContain('href="/account/settings"');
  expect(page).not.toContain('127.0.0.1:47321');
}

const exchange = (s: Stack, c: { clientId: string; verifier: string; code: string }, extra: Record<string, string> = {}) =>
  tokenRequest(s, {
    grant_type: 'authorization_code',
    client_id: c.clientId,
    code: c.code,
    code_verifier: c.verifier,
    redirect_uri: REDIRECT_URL,
    resource: MEMBER_URL,
    ...extra,
  });

async function grantsOf(who: string): Promise<{ id: string; active: boolean; revokedReason: string | null }[]> {
  return (
    await stack.graphql<QueryData<'assistantGrants'>>('query($m: String!) { assistantGrants(member: $m) { id active revokedReason } }', {
      m: who,
    })
  ).assistantGrants;
}

describe('consent', () => {
  it('a refused consent sends access_denied back with the state, and opens no grant', async () => {
    const before = (await grantsOf(email)).length;
    const back = await authorizeInBrowser(stack, new TestOAuthClient('Refused App'), browser, { email, decision: 'refuse' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-123');
    expect(back.searchParams.get('code')).toBeNull();
    expect(await grantsOf(email)).toHaveLength(before);
  });

  it('the consent page shows the name, the redirect address and the abilities, escaped', async () => {
    const clientId = await (async () => {
      const res = await fetch(`${stack.origin}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: '<script>alert(1)</script> Evil & Co', redirect_uris: [REDIRECT_URL] }),
      });
      return ((await res.json()) as { client_id: string }).client_id;
    })();
    const { res } = await browser.follow(authorizeUrl(clientId, pkce().challenge));
    const html = await res.text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Evil &amp; Co');
    expect(html).not.toContain('<script>');
    expect(html).toContain(`<code>${REDIRECT_URL}</code>`);
    expect(html).toContain('Read your pending team invitations');
    expect(html).toContain('It can never publish anything, send a message, sign an agreement or submit an offer for you.');
    expect(html).toMatch(/<button type="submit" name="decision" value="accept" class="primary">Accept<\/button>/);
    expect(html).toMatch(/<button type="submit" name="decision" value="refuse">Refuse<\/button>/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('refuses a consent form with a forged or missing CSRF token, and a sign-in without one', async () => {
    const clientId = await register(stack);
    const { res } = await browser.follow(authorizeUrl(clientId, pkce().challenge));
    const html = await res.text();
    const forged = await browser.submit(html, '/oauth/consent', { decision: 'accept', csrf: 'forged' });
    expect(forged.status).toBe(403);
    const stranger = new TestBrowser(stack);
    const login = await stranger.request('/account/login', {
      form: { email, password: 'whatever-password', return_to: '/account/settings' },
    });
    expect(login.status).toBe(403);
  });

  it('issues session cookies HttpOnly, SameSite=Lax and Secure', async () => {
    const fresh = new TestBrowser(stack);
    const form = await fresh.page('/account/login');
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)![1]!;
    const wrong = await fresh.request('/account/login', {
      form: { email, password: 'not the password', return_to: '/account/settings', csrf },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong email or password.');
    const res = await fresh.request('/account/login', {
      form: { email, password: 'correct horse battery staple', return_to: '/account/settings', csrf },
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
  });
});

describe('sign-in', () => {
  it('pauses an account from this address after five wrong passwords, even for the right one', async () => {
    const target = 'guessed@atelier-nord.example';
    await createMember(stack, target);
    const attacker = new TestBrowser(stack);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await attacker.page('/account/login'))![1]!;
    const attempt = (password: string) =>
      attacker.request('/account/login', { form: { email: target, password, return_to: '/account/settings', csrf } });
    for (let i = 0; i < 5; i += 1) expect((await attempt(`wrong password ${i}`)).status).toBe(401);
    const paused = await attempt('correct horse battery staple');
    expect(paused.status).toBe(429);
    expect(paused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await paused.text()).toContain('Too many sign-in attempts');
  });
});

describe('authorization request', () => {
  it('the sign-in page names Packline and the application asking', async () => {
    const clientId = await register(stack);
    const visitor = new TestBrowser(stack);
    const { res, url } = await visitor.follow(authorizeUrl(clientId, pkce().challenge));
    expect(new URL(url).pathname).toBe('/account/login');
    const html = await res.text();
    expect(html).toContain('<h1>Sign in to Packline</h1>');
    expect(html).toContain('The application <strong>“Manual Client”</strong> asks to connect to your Packline account.');
    expect(html).toContain('at least 10 characters');
  });

  it('an unknown application: a page with navigation for a browser, JSON for a client', async () => {
    const url = authorizeUrl('cli_0000000000zzzz', pkce().challenge);
    const page = await stackFetch(stack)(url, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain('<h1>Unknown application</h1>');
    expect(text).toContain('<code>cli_0000000000zzzz</code>');
    expect(text).toContain('<nav aria-label="Packline">');
    const json = await stackFetch(stack)(url, { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('an unregistered redirect address is refused on the spot, never redirected to', async () => {
    const clientId = await register(stack);
    const res = await browser.request(authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'https://attacker.example/cb' }));
    await expectErrorPage(res, 'invalid_request');
  });

  it('a wrong resource is refused with invalid_target; a missing one means the member connector', async () => {
    const clientId = await register(stack);
    const res = await browser.request(authorizeUrl(clientId, pkce().challenge, { resource: 'https://elsewhere.example/mcp' }));
    await expectErrorPage(res, 'invalid_target');

    const approved = await approvedCode(stack, browser, email);
    const tokens = await tokenRequest(stack, {
      grant_type: 'authorization_code',
      client_id: approved.clientId,
      code: approved.code,
      code_verifier: approved.verifier,
      redirect_uri: REDIRECT_URL,
    });
    expect(tokens.status).toBe(200);
    expect((await rawToolCall(stack, tokens.body.access_token as string, 'my_account')).status).toBe(200);
  });

  it('only S256 is accepted, and unknown abilities are refused', async () => {
    const clientId = await register(stack);
    const plain = await browser.request(authorizeUrl(clientId, 'a'.repeat(43), { code_challenge_method: 'plain' }));
    await expectErrorPage(plain, 'invalid_request');
    const scope = await browser.request(authorizeUrl(clientId, pkce().challenge, { scope: 'account:read needs:publish' }));
    await expectErrorPage(scope, 'invalid_scope');
  });

  it('never redirects an error to the application before the member answered, signed in or not (RFC 9700 §4.11)', async () => {
    const clientId = await register(stack);
    const stranger = new TestBrowser(stack);
    for (const who of [stranger, browser]) {
      const missing = await who.request(authorizeUrl(clientId, pkce().challenge, { response_type: 'token' }));
      await expectErrorPage(missing, 'invalid_request');
      const noChallenge = await who.request(
        `https://packline.test/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URL, state: 'st-1' })}`,
      );
      await expectErrorPage(noChallenge, 'invalid_request');
    }
    // A valid request still hands over to the consent page.
    const valid = await stranger.request(authorizeUrl(clientId, pkce().challenge));
    expect(valid.status).toBe(302);
    expect(valid.headers.get('location')).toMatch(/^\/oauth\/consent\?request=/);
  });
});

describe('token endpoint', () => {
  it('a code works once: a replay is invalid_grant and ends the access it opened', async () => {
    const approved = await approvedCode(stack, browser, email);
    const first = await exchange(stack, approved);
    expect(first.status).toBe(200);
    expect((await rawToolCall(stack, first.body.access_token as string, 'my_account')).status).toBe(200);
    const replay = await exchange(stack, approved);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const after = await rawToolCall(stack, first.body.access_token as string, 'my_account');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://packline.test/.well-known/oauth-protected-resource/mcp/member"',
    );
  });

  it('a wrong code_verifier is invalid_grant, and burns the code', async () => {
    const approved = await approvedCode(stack, browser, email);
    expect(await exchange(stack, { ...approved, verifier: pkce().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await exchange(stack, approved)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a redirect_uri other than the authorization request’s is invalid_grant', async () => {
    const approved = await approvedCode(stack, browser, email);
    expect(await exchange(stack, approved, { redirect_uri: 'http://127.0.0.1:47321/other' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('a wrong resource is invalid_target', async () => {
    const approved = await approvedCode(stack, browser, email);
    expect(await exchange(stack, approved, { resource: 'https://elsewhere.example/mcp' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_target' },
    });
  });

  it('a code of another application is invalid_grant', async () => {
    const approved = await approvedCode(stack, browser, email);
    const other = await register(stack);
    expect(await exchange(stack, { ...approved, clientId: other })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refresh tokens rotate; presenting a spent one ends the grant', async () => {
    const approved = await approvedCode(stack, browser, email);
    const first = await exchange(stack, approved);
    const refresh = (token: string) =>
      tokenRequest(stack, { grant_type: 'refresh_token', client_id: approved.clientId, refresh_token: token });
    const second = await refresh(first.body.refresh_token as string);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await rawToolCall(stack, second.body.access_token as string, 'my_account')).status).toBe(200);

    expect(await refresh(first.body.refresh_token as string)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await rawToolCall(stack, second.body.access_token as string, 'my_account')).status).toBe(401);
    expect(await refresh(second.body.refresh_token as string)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await grantsOf(email)).some((g) => g.revokedReason === 'refresh_token_reused')).toBe(true);
  });

  it('a refresh asking for an ability not approved is refused and leaves the refresh token usable', async () => {
    const approved = await approvedCode(stack, browser, email, { scope: 'account:read' });
    const first = await exchange(stack, approved);
    const ended = async () => (await grantsOf(email)).filter((g) => g.revokedReason === 'refresh_token_reused').length;
    const endedBefore = await ended();
    const refresh = (extra: Record<string, string> = {}) =>
      tokenRequest(stack, {
        grant_type: 'refresh_token',
        client_id: approved.clientId,
        refresh_token: first.body.refresh_token as string,
        ...extra,
      });
    const wider = await refresh({ scope: 'account:read needs:draft' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    const renewed = await refresh();
    expect(renewed.status).toBe(200);
    expect(renewed.body.scope).toBe('account:read');
    expect(await ended()).toBe(endedBefore);
  });

  it('stores codes and tokens only as hashes', async () => {
    const approved = await approvedCode(stack, browser, email);
    const tokens = await exchange(stack, approved);
    const connection = stack.app.core.db.em.getConnection();
    const rows = await connection.execute<{ hash: string }[]>('select hash from assistant_tokens');
    const codes = await connection.execute<{ code_hash: string }[]>('select code_hash from assistant_authorization_codes');
    const stored = JSON.stringify([rows, codes]);
    for (const secret of [approved.code, tokens.body.access_token as string, tokens.body.refresh_token as string]) {
      expect(stored).not.toContain(secret);
      expect(stored).toContain(createHash('sha256').update(secret).digest('hex'));
    }
  });
});

describe('lifetimes', () => {
  let expiring: Stack;

  beforeAll(async () => {
    expiring = await startStack({ env: { MCP_ACCESS_TOKEN_TTL_SECONDS: '0', MCP_AUTHORIZATION_CODE_TTL_SECONDS: '60' } });
    await createMember(expiring, email);
  });

  afterAll(async () => {
    await expiring?.close();
  });

  it('an expired access token is a 401 with a challenge; the refresh token still renews access', async () => {
    const approved = await approvedCode(expiring, new TestBrowser(expiring), email);
    const tokens = await exchange(expiring, approved);
    expect(tokens).toMatchObject({ status: 200, body: { expires_in: 0 } });
    const res = await rawToolCall(expiring, tokens.body.access_token as string, 'my_account');
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain('expired');
    expect(challenge).toContain('resource_metadata=');
    const renewed = await tokenRequest(expiring, {
      grant_type: 'refresh_token',
      client_id: approved.clientId,
      refresh_token: tokens.body.refresh_token as string,
    });
    expect(renewed.status).toBe(200);
  });

  it('an expired authorization code is invalid_grant', async () => {
    const codeless = await startStack({ env: { MCP_AUTHORIZATION_CODE_TTL_SECONDS: '0' } });
    try {
      await createMember(codeless, email);
      const approved = await approvedCode(codeless, new TestBrowser(codeless), email);
      expect(await exchange(codeless, approved)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant', error_description: expect.stringMatching(/expired/) },
      });
    } finally {
      await codeless.close();
    }
  });
});
