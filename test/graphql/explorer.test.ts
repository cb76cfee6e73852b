import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORER_CSP } from '../../facades/graphql/explorer-page.ts';
import { INTERNAL_TOKEN, PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';

// /graphql for a browser (the explorer) and for API clients, over HTTP, at an https public
// address: the cookies are __Host- prefixed and Secure. The browser flow itself runs in
// test/e2e/explorer.test.ts.

const HTML = { accept: 'text/html,application/xhtml+xml' };
const INTROSPECTION = '{ __schema { types { name description fields { name description } } } }';

describe('GraphQL explorer over HTTP', () => {
  let stack: Stack;
  let origin: string;

  beforeAll(async () => {
    stack = await startStack();
    origin = stack.origin;
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** `name=value` of a Set-Cookie of the response, and the whole line. */
  function setCookie(res: Response, name: string): { pair: string; line: string } | undefined {
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
    return line ? { pair: line.split(';', 1)[0]!, line } : undefined;
  }

  /** The sign-in form: its login cookie and form token. */
  async function signInForm(): Promise<{ cookie: string; csrf: string }> {
    const res = await fetch(`${origin}/graphql`, { headers: HTML });
    const body = await res.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(body)?.[1];
    const cookie = setCookie(res, '__Host-pl_explorer_login')?.pair;
    expect(csrf).toBeTruthy();
    expect(cookie).toBeTruthy();
    return { cookie: cookie!, csrf: csrf! };
  }

  function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${origin}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_BASE_URL, ...headers },
      body: new URLSearchParams(fields),
    });
  }

  /** Signed in: the session cookie and the explorer page's request token. */
  async function signedIn(): Promise<{ session: string; token: string; page: string }> {
    const form = await signInForm();
    const res = await postForm('/graphql/sign-in', { csrf: form.csrf, token: INTERNAL_TOKEN }, { cookie: form.cookie });
    expect(res.status).toBe(303);
    const session = setCookie(res, '__Host-pl_explorer')!.pair;
    const page = await (await fetch(`${origin}/graphql`, { headers: { ...HTML, cookie: session } })).text();
    const token = /name="packline-explorer-token" content="([^"]+)"/.exec(page)?.[1];
    expect(token).toBeTruthy();
    return { session, token: token!, page };
  }

  function graphql(headers: Record<string, string>, query = '{ __typename }'): Promise<Response> {
    return fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
  }

  it('shows a browser without the token the sign-in form, not JSON', async () => {
    const res = await fetch(`${origin}/graphql`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('script-src');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.text();
    expect(body).toContain('<form method="post" action="/graphql/sign-in">');
    expect(body).toContain('type="password" name="token"');
    expect(setCookie(res, '__Host-pl_explorer_login')?.line).toMatch(/; Path=\/; Max-Age=1800; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('keeps API clients exactly as before: the bearer token, or a 401 in JSON', async () => {
    const refused = await graphql({});
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await refused.json()).toEqual({
      errors: [{ message: 'Send the internal API token as Authorization: Bearer <token>', extensions: { code: 'UNAUTHENTICATED' } }],
    });
    const wrong = await fetch(`${origin}/graphql`, { headers: { ...HTML, authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toMatch(/^application\/json/);
    const answered = await graphql({ authorization: `Bearer ${INTERNAL_TOKEN}` });
    expect(await answered.json()).toEqual({ data: { __typename: 'Query' } });
    // A bearer client asking for HTML still talks to the API, never to the explorer.
    const html = await fetch(`${origin}/graphql`, { headers: { ...HTML, authorization: `Bearer ${INTERNAL_TOKEN}` } });
    expect(html.status, "yoga's answer to a GET that accepts no GraphQL response").toBe(406);
    expect(html.headers.get('content-type')).toBeNull();
    await html.body?.cancel();
  });

  it('refuses a sign-in without its form token, from another site, or with a wrong token', async () => {
    const form = await signInForm();
    expect((await postForm('/graphql/sign-in', { token: INTERNAL_TOKEN }, { cookie: form.cookie })).status).toBe(403);
    expect((await postForm('/graphql/sign-in', { csrf: form.csrf, token: INTERNAL_TOKEN })).status).toBe(403);
    const foreign = await postForm(
      '/graphql/sign-in',
      { csrf: form.csrf, token: INTERNAL_TOKEN },
      { cookie: form.cookie, origin: 'https://elsewhere.example' },
    );
    expect(foreign.status).toBe(403);
    const wrong = await postForm('/graphql/sign-in', { csrf: form.csrf, token: 'not-the-token' }, { cookie: form.cookie });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('That is not the internal API token.');
    expect(setCookie(wrong, '__Host-pl_explorer')).toBeUndefined();
  });

  it('signs in into an HttpOnly, SameSite=Strict, Secure cookie that does not carry the token in clear', async () => {
    const form = await signInForm();
    const res = await postForm('/graphql/sign-in', { csrf: form.csrf, token: INTERNAL_TOKEN }, { cookie: form.cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/graphql');
    const session = setCookie(res, '__Host-pl_explorer');
    expect(session?.line).toMatch(/; Path=\/; Max-Age=28800; HttpOnly; SameSite=Strict; Secure$/);
    expect(session?.line).not.toContain(INTERNAL_TOKEN);
    expect(Buffer.from(session!.pair.split('=')[1]!.replace(/\./g, ''), 'base64url').toString('latin1')).not.toContain(INTERNAL_TOKEN);
    expect(setCookie(res, '__Host-pl_explorer_login')?.line).toContain('Max-Age=0');
  });

  it('serves GraphiQL under its own CSP, with every script, style and worker from this origin', async () => {
    const { session, page } = await signedIn();
    const res = await fetch(`${origin}/graphql`, { headers: { ...HTML, cookie: session } });
    expect(res.headers.get('content-security-policy')).toBe(EXPLORER_CSP);
    expect(EXPLORER_CSP).toContain("script-src 'self';");
    expect(EXPLORER_CSP).toContain("connect-src 'self';");
    expect(EXPLORER_CSP).not.toMatch(/https?:|\*|unsafe-eval|blob:/);
    await res.body?.cancel();
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    const assets = [...page.matchAll(/(?:src|href)="(\/graphql\/explorer\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(3);
    const start = assets.find((a) => a.startsWith('/graphql/explorer/start.js'))!;
    const startScript = await (await fetch(`${origin}${start}`)).text();
    const workers = [...startScript.matchAll(/"(\/graphql\/explorer\/[^"]+\.worker\.js\?v=[^"]+)"/g)].map((m) => m[1]!);
    expect(workers).toHaveLength(3);
    for (const path of [...assets, ...workers]) {
      const asset = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'identity' } });
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type'), path).toMatch(path.includes('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(asset.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('x-content-type-options'), path).toBe('nosniff');
      await asset.body?.cancel();
    }
    expect((await fetch(`${origin}/graphql/explorer/nothing.js`)).status).toBe(404);
  });

  it('opens /graphql to the session only with the page token, from this origin, and without Authorization', async () => {
    const { session, token } = await signedIn();
    const other = await signedIn();
    const ok = await graphql({ cookie: session, 'x-packline-explorer': token });
    expect(await ok.json()).toEqual({ data: { __typename: 'Query' } });
    expect((await graphql({ cookie: session })).status).toBe(401);
    expect((await graphql({ cookie: session, 'x-packline-explorer': other.token })).status).toBe(401);
    expect((await graphql({ cookie: session, 'x-packline-explorer': token, origin: 'https://elsewhere.example' })).status).toBe(401);
    expect((await graphql({ cookie: session, 'x-packline-explorer': token, authorization: 'Bearer not-the-token' })).status).toBe(401);
    expect((await graphql({ 'x-packline-explorer': token })).status).toBe(401);
  });

  it('shows through the explorer exactly the schema the bearer token reads, no more', async () => {
    const { session, token } = await signedIn();
    const viaExplorer = await (await graphql({ cookie: session, 'x-packline-explorer': token }, INTROSPECTION)).json();
    const viaBearer = await (await graphql({ authorization: `Bearer ${INTERNAL_TOKEN}` }, INTROSPECTION)).json();
    expect(viaExplorer).toEqual(viaBearer);
    expect(JSON.stringify(viaExplorer)).not.toMatch(/hostNotes|internalNotes|billing|payout/i);
  });

  it('signs out with its form token only', async () => {
    const { session, page } = await signedIn();
    const csrf = /action="\/graphql\/sign-out"><input type="hidden" name="csrf" value="([^"]+)"/.exec(page)?.[1];
    expect(csrf).toBeTruthy();
    expect((await postForm('/graphql/sign-out', { csrf: 'forged' }, { cookie: session })).status).toBe(403);
    const out = await postForm('/graphql/sign-out', { csrf: csrf! }, { cookie: session });
    expect(out.status).toBe(303);
    expect(setCookie(out, '__Host-pl_explorer')?.line).toContain('Max-Age=0');
  });

  it('ends every session when the internal token changes', async () => {
    const { session, token } = await signedIn();
    const rotated = await startStack({ over: stack, env: { INTERNAL_API_TOKEN: 'rotated-internal-token-0123456789' } });
    try {
      const res = await fetch(`${rotated.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: session, 'x-packline-explorer': token },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.status).toBe(401);
      const page = await (await fetch(`${rotated.origin}/graphql`, { headers: { ...HTML, cookie: session } })).text();
      expect(page).toContain('Sign in to the GraphQL explorer');
    } finally {
      await rotated.close();
    }
  });
});
