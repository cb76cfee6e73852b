// A headless member-connector client for the tests: the SDK's OAuth client helper for discovery,
// registration, PKCE, token exchange and refresh; a cookie-carrying "browser" that drives the
// sign-in and consent pages with fetch, following redirects by hand; raw JSON-RPC calls to see
// the HTTP status and challenge of a refused call.
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';
import { cookieName, FLASH_COOKIE, SESSION_COOKIE } from '../../facades/kit/browser.ts';
import { PUBLIC_BASE_URL, type Stack } from '../support/stack.ts';

export const MEMBER_URL = `${PUBLIC_BASE_URL}/mcp/member`;
export const REDIRECT_URL = 'http://127.0.0.1:47321/callback';
export const PASSWORD = 'correct horse battery staple';
/** The pages' cookies as the test server names them: its public address is https, so `__Host-` prefixed. */
export const SESSION = cookieName(SESSION_COOKIE, PUBLIC_BASE_URL);
export const FLASH = cookieName(FLASH_COOKIE, PUBLIC_BASE_URL);

/** fetch for the service's public addresses: https://packline.test/... goes to the test server. */
export function stackFetch(stack: Pick<Stack, 'origin'>): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const local = url.startsWith(PUBLIC_BASE_URL) ? stack.origin + url.slice(PUBLIC_BASE_URL.length) : url;
    return fetch(local, init);
  };
}

/** An OAuthClientProvider that keeps everything in memory and records where it was sent. */
export class TestOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  private readonly name: string;
  private readonly redirect: string;

  constructor(name = 'Test Assistant', redirect = REDIRECT_URL) {
    this.name = name;
    this.redirect = redirect;
  }

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'state-123';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  get clientId(): string {
    return this.info!.client_id;
  }
}

/**
 * A browser: a cookie jar, and page fetches that never follow redirects by themselves. Requests go
 * to the server at `stack.origin` as it is when each one is sent.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  private readonly stack: Pick<Stack, 'origin'>;

  constructor(stack: Pick<Stack, 'origin'>) {
    this.stack = stack;
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const absolute = new URL(url, PUBLIC_BASE_URL).href;
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await stackFetch(this.stack)(absolute, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      redirect: 'manual',
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || attributes.some((a) => /max-age=0\b/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** Follows redirects inside the service (never to the application's redirect address). */
  async follow(url: string, init: { form?: Record<string, string> } = {}): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, init);
    let at = new URL(url, PUBLIC_BASE_URL).href;
    while (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, at).href;
      if (!next.startsWith(PUBLIC_BASE_URL)) return { res, url: at };
      await res.body?.cancel();
      at = next;
      res = await this.request(next);
    }
    return { res, url: at };
  }

  /** GETs a page, expecting 200, and returns its HTML. */
  async page(url: string): Promise<string> {
    const { res } = await this.follow(url);
    expect(res.status, `GET ${url}`).toBe(200);
    return res.text();
  }

  async signIn(email: string, password = PASSWORD, returnTo = '/account/settings'): Promise<void> {
    const form = await this.page(`/account/login?return_to=${encodeURIComponent(returnTo)}`);
    const res = await this.request('/account/login', { form: { email, password, return_to: returnTo, csrf: hidden(form, 'csrf') } });
    expect(res.status, 'sign-in answer').toBe(303);
    await res.body?.cancel();
  }

  /** Submits a form found in `html` (by its action), with its hidden fields and `extra`. */
  async submit(html: string, action: string, extra: Record<string, string> = {}): Promise<Response> {
    const form = formHtml(html, action);
    const fields: Record<string, string> = {};
    for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = unescapeHtml(match[2]!);
    return this.request(unescapeHtml(action), { form: { ...fields, ...extra } });
  }
}

export function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  if (!match) throw new Error(`no hidden field ${name} in:\n${html}`);
  return unescapeHtml(match[1]!);
}

function formHtml(html: string, action: string): string {
  const start = html.indexOf(`action="${action}"`);
  if (start === -1) throw new Error(`no form posting to ${action} in:\n${html}`);
  return html.slice(start, html.indexOf('</form>', start));
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Discovery, registration and the authorization request with the SDK's `auth()`; the member
 * then answers on the real pages. Resolves with where the service sent the browser back.
 */
export async function authorizeInBrowser(
  stack: Stack,
  client: TestOAuthClient,
  browser: TestBrowser,
  { email, decision = 'accept', password = PASSWORD }: { email: string; decision?: 'accept' | 'refuse'; password?: string },
): Promise<URL> {
  expect(await auth(client, { serverUrl: MEMBER_URL, fetchFn: stackFetch(stack) })).toBe('REDIRECT');
  return answerConsent(client.authorizationUrl!.href, browser, { email, decision, password });
}

/** Opens an authorization URL in the browser, signs in when asked, and answers the consent page. */
export async function answerConsent(
  authorizationUrl: string,
  browser: TestBrowser,
  { email, decision = 'accept', password = PASSWORD }: { email: string; decision?: 'accept' | 'refuse'; password?: string },
): Promise<URL> {
  let { res, url } = await browser.follow(authorizationUrl);
  if (new URL(url).pathname === '/account/login') {
    const html = await res.text();
    const returnTo = hidden(html, 'return_to');
    const signedIn = await browser.request('/account/login', {
      form: { email, password, return_to: returnTo, csrf: hidden(html, 'csrf') },
    });
    expect(signedIn.status, 'sign-in answer').toBe(303);
    ({ res, url } = await browser.follow(signedIn.headers.get('location')!));
  }
  expect(new URL(url).pathname, 'consent page').toBe('/oauth/consent');
  expect(res.status).toBe(200);
  const consent = await res.text();
  const answer = await browser.submit(consent, '/oauth/consent', { decision });
  expect(answer.status, 'consent answer').toBe(303);
  const back = new URL(answer.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URL);
  return back;
}

/** The whole flow: register, approve, exchange the code. Resolves with the client holding tokens. */
export async function connectMember(
  stack: Stack,
  email: string,
  browser = new TestBrowser(stack),
  name = 'Test Assistant',
): Promise<TestOAuthClient> {
  const client = new TestOAuthClient(name);
  const back = await authorizeInBrowser(stack, client, browser, { email });
  expect(back.searchParams.get('state')).toBe('state-123');
  const code = back.searchParams.get('code');
  expect(code).toMatch(/^plc_/);
  expect(await auth(client, { serverUrl: MEMBER_URL, authorizationCode: code!, fetchFn: stackFetch(stack) })).toBe('AUTHORIZED');
  return client;
}

/** An MCP client over Streamable HTTP with the SDK's auth provider. */
export async function mcpClient(stack: Stack, provider: TestOAuthClient): Promise<Client> {
  const client = new Client({ name: 'member-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(MEMBER_URL), { authProvider: provider, fetch: stackFetch(stack) }));
  return client;
}

/** One tools/call as raw JSON-RPC, to see the HTTP answer itself. */
export function rawToolCall(stack: Stack, token: string | undefined, name: string, args: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${stack.origin}/mcp/member`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

/** Posts to the token endpoint directly, to see OAuth errors as the wire carries them. */
export async function tokenRequest(stack: Stack, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Creates a member with a password through internal GraphQL. */
export async function createMember(stack: Stack, email: string, organizationId = 'atelier-nord'): Promise<string> {
  const data = await stack.graphql<{ createMember: { id: string } }>(
    'mutation($input: NewMemberInput!) { createMember(input: $input) { id } }',
    { input: { email, name: `Member ${email.split('@')[0]}`, password: PASSWORD, organizationId } },
  );
  return data.createMember.id;
}

/** Gives an existing (demo) member a password. */
export async function setPassword(stack: Stack, email: string, password = PASSWORD): Promise<void> {
  await stack.graphql('mutation($m: String!, $p: String!) { setMemberPassword(member: $m, password: $p) { memberId } }', {
    m: email,
    p: password,
  });
}
