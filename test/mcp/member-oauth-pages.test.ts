// Every OAuth error a person can land on is a page in Packline's layout, in plain words: no JSON,
// no validation dump, no stack, no redirect. `/register` answers programs in JSON (RFC 7591) with
// an error_description in plain words too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { REDIRECT_URL, stackFetch } from './member-client.ts';

let stack: Stack;
let single: string;
let double: string;

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM';

async function register(body: unknown): Promise<Response> {
  return fetch(`${stack.origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function clientWith(redirectUris: string[]): Promise<string> {
  const res = await register({ client_name: 'Pages Client', redirect_uris: redirectUris });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

beforeAll(async () => {
  stack = await startStack();
  single = await clientWith([REDIRECT_URL]);
  double = await clientWith([REDIRECT_URL, 'http://127.0.0.1:47321/other']);
});

afterAll(async () => {
  await stack?.close();
});

function authorize(params: Record<string, string | string[]>, init: RequestInit = {}): Promise<Response> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const one of [value].flat()) query.append(name, one);
  return stackFetch(stack)(`https://packline.test/authorize?${query}`, {
    redirect: 'manual',
    ...init,
    headers: { accept: BROWSER_ACCEPT, ...init.headers },
  });
}

const valid = (): Record<string, string | string[]> => ({
  response_type: 'code',
  client_id: single,
  redirect_uri: REDIRECT_URL,
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  state: 'st-1',
});

/** A page in the site's layout, 400, with the sentence; nothing a program would read. */
async function expectPlainPage(res: Response, sentence: string, title = 'This connection request cannot continue'): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/);
  const page = await res.text();
  expect(page).toMatch(/^<!doctype html>/);
  expect(page).toContain(`<h1>${title}</h1>`);
  expect(page).toContain('<nav aria-label="Packline">');
  expect(page).toContain(sentence);
  expect(page).not.toMatch(/"error":|"code":|\{"|expected|received|ZodError|\bat [\w.]+ \(/);
  expect(page).not.toContain(REDIRECT_URL);
}

describe('/authorize refusals in a browser', () => {
  it.each([
    ['an unknown client_id', { client_id: 'cli_0000000000zzzz' }, 'is not registered with Packline', 'Unknown application'],
    ['a malformed client_id', { client_id: '{"$ne":1}' }, 'is not registered with Packline', 'Unknown application'],
    ['no client_id', { client_id: [] }, 'does not say which application is asking'],
    ['an unregistered redirect_uri', { redirect_uri: 'https://attacker.example/cb' }, 'never registered with Packline'],
    ['a redirect_uri that is no address', { redirect_uri: 'not an address' }, 'is not a valid address'],
    ['no redirect_uri with two registered', { client_id: 'two-addresses', redirect_uri: [] }, 'several return addresses'],
    ['no PKCE', { code_challenge: [], code_challenge_method: [] }, 'did not protect this request with PKCE'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'code_challenge_method must be S256'],
    ['a token response', { response_type: 'token' }, 'response_type must be code'],
    ['no response_type', { response_type: [] }, 'response_type must be code'],
    ['a repeated state', { state: ['a', 'b'] }, 'The request gives state more than once'],
    ['an unknown ability', { scope: 'account:read needs:publish' }, 'asked for an ability Packline does not have'],
    ['another resource', { resource: 'https://elsewhere.example/mcp' }, 'another service than Packline&#39;s member connector'],
    ['a resource that is no address', { resource: 'nowhere' }, 'The service the application wants to use (resource) is not'],
  ] as const)('%s: a page in plain words, status 400', async (_case, change, sentence, title?: string) => {
    const params = { ...valid(), ...change } as Record<string, string | string[]>;
    // The table is read before the clients are registered.
    if (params.client_id === 'two-addresses') params.client_id = double;
    for (const [name, value] of Object.entries(params)) if (Array.isArray(value) && value.length === 0) delete params[name];
    await expectPlainPage(await authorize(params), sentence, title);
  });

  it('the same for a form posted to /authorize', async () => {
    const { code_challenge: _dropped, ...rest } = valid() as Record<string, string>;
    const res = await stackFetch(stack)('https://packline.test/authorize', {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: BROWSER_ACCEPT, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(rest).toString(),
    });
    await expectPlainPage(res, 'did not protect this request with PKCE');
  });

  it('a program asking for JSON gets the same sentence as error_description', async () => {
    const { code_challenge: _dropped, ...rest } = valid() as Record<string, string>;
    const res = await authorize(rest, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The application did not protect this request with PKCE (code_challenge is missing), so it cannot go on.',
    });
  });

  it('a valid request still hands over to the consent page', async () => {
    const res = await authorize(valid());
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/oauth\/consent\?request=/);
  });
});

describe('/register refusals', () => {
  it.each([
    ['no redirect_uris', { client_name: 'x' }, 'invalid_redirect_uri', /^redirect_uris must list at least one https address/],
    ['an empty list', { redirect_uris: [] }, 'invalid_redirect_uri', /^redirect_uris must list at least one https address/],
    ['a string', { redirect_uris: REDIRECT_URL }, 'invalid_redirect_uri', /^redirect_uris must list at least one https address/],
    ['no address', { redirect_uris: ['not a url'] }, 'invalid_redirect_uri', /^redirect_uris\[0\] is not an absolute address; /],
    ['javascript:', { redirect_uris: [REDIRECT_URL, 'javascript:alert(1)'] }, 'invalid_redirect_uri', /^redirect_uris\[1\] is not/],
    ['plain http', { redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri', /^redirect URIs must be https, /],
    ['a number as name', { redirect_uris: [REDIRECT_URL], client_name: 5 }, 'invalid_client_metadata', /^client_name must be text$/],
    ['contacts as text', { redirect_uris: [REDIRECT_URL], contacts: 'a@b' }, 'invalid_client_metadata', /^contacts must be a list$/],
    ['a bad client_uri', { redirect_uris: [REDIRECT_URL], client_uri: 'x' }, 'invalid_client_metadata', /^client_uri must be an/],
    ['an array body', [REDIRECT_URL], 'invalid_client_metadata', /^The body must be a JSON object of client metadata/],
    ['broken JSON', '{"redirect_uris": [', 'invalid_request', /^The request body is not valid JSON$/],
  ] as const)('%s: JSON with a plain error_description', async (_case, body, error, description) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await res.json()) as { error: string; error_description: string };
    expect(answer.error).toBe(error);
    expect(answer.error_description).toMatch(description);
    expect(answer.error_description).not.toMatch(/[{}\n]|"code"|expected|received|Unexpected token/);
  });
});
