import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../core/demo/canaries.ts';
import { FLASH, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

// The administration pages over HTTP, as a browser without script uses them: sign-in, who may
// see what, API keys (created, used against the API, limited by plan, revoked), usage, and no
// private value on any page.

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
/** Each form's CSRF token, by its action. */
const csrfFor = (html: string, action: string) => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `a form posting to ${action}`).toBeGreaterThan(-1);
  return hidden(html.slice(at), 'csrf');
};

describe('administration pages', () => {
  let stack: Stack;
  const pages: string[] = [];

  async function member(email: string, organizationId: string, role: 'admin' | 'member') {
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email, name: email.split('@')[0], password: PASSWORD, organizationId, role },
    });
    const browser = new TestBrowser(stack);
    await browser.signIn(email, PASSWORD, '/admin');
    return browser;
  }

  /** GET a page and keep its HTML for the privacy check. */
  async function page(browser: TestBrowser, url: string, status = 200): Promise<string> {
    const { res } = await browser.follow(url);
    const text = await res.text();
    expect(res.status, `GET ${url}: ${text.slice(0, 400)}`).toBe(status);
    pages.push(text);
    return text;
  }

  let clanAdmin: TestBrowser;
  let baseAdmin: TestBrowser;

  beforeAll(async () => {
    stack = await startStack();
    clanAdmin = await member('ada@atelier-nord.example', 'atelier-nord', 'admin');
    baseAdmin = await member('bo@cobalt-data.example', 'cobalt-data', 'admin');
  });
  afterAll(() => stack?.close());

  it('sends a visitor to sign in, then back to the page asked for', async () => {
    const visitor = new TestBrowser(stack);
    const res = await visitor.request('/admin/orgs/atelier-nord/keys');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/login?return_to=${encodeURIComponent('/admin/orgs/atelier-nord/keys')}`);
    await stack.graphql(
      `mutation { createMember(input: { email: "vi@atelier-nord.example", name: "Vi", password: "${PASSWORD}", organizationId: "atelier-nord", role: admin }) { id } }`,
    );
    await visitor.signIn('vi@atelier-nord.example', PASSWORD, '/admin/orgs/atelier-nord/keys');
    const keys = await page(visitor, '/admin/orgs/atelier-nord/keys');
    expect(keys).toContain('<h1>API keys</h1>');
  });

  it('renews the session at sign-in and sets it HttpOnly and SameSite', async () => {
    const browser = new TestBrowser(stack);
    browser.setCookie(SESSION, 'planted-by-someone-else');
    const form = await (await browser.request('/account/login?return_to=/admin')).text();
    const res = await browser.request('/account/login', {
      form: { email: 'ada@atelier-nord.example', password: PASSWORD, return_to: '/admin', csrf: hidden(form, 'csrf') },
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    expect(browser.cookie(SESSION)).not.toBe('planted-by-someone-else');
  });

  it('takes an admin of one organization straight to it', async () => {
    const res = await clanAdmin.request('/admin');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/orgs/atelier-nord');
  });

  it('shows the public profile exactly as the public API does, with the plan and its allowances', async () => {
    const html = await page(clanAdmin, '/admin/orgs/atelier-nord');
    const api = (await (await stack.get('/organization')).json()) as Record<string, unknown>;
    const json = /<pre>([\s\S]*?)<\/pre>/.exec(html)![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&#39;', "'");
    expect(JSON.parse(json)).toEqual(api);
    expect(html).toContain('Plan: clan');
    expect(html).toMatch(/API calls per month<\/th><td>100,000/);
    expect(html).toMatch(/Partner payment<\/dt><dd>\d+ % confirmed · \d+ partners/);
  });

  it('answers 403 to an admin of another organization and to a member who is not an admin', async () => {
    for (const path of ['', '/keys', '/webhooks', '/usage']) {
      const html = await page(baseAdmin, `/admin/orgs/atelier-nord${path}`, 403);
      expect(html).toContain('Only the admins of organization');
    }
    // Whether it exists or not, the answer is the same.
    await page(baseAdmin, '/admin/orgs/no-such-org', 403);
    const plainMember = await member('mo@atelier-nord.example', 'atelier-nord', 'member');
    await page(plainMember, '/admin/orgs/atelier-nord/keys', 403);
    await page(plainMember, '/admin', 403);
  });

  it('creates a key shown once that works against the API, lists it, and revokes it after confirmation', async () => {
    const before = await page(clanAdmin, '/admin/orgs/atelier-nord/keys');
    const posted = await clanAdmin.request('/admin/orgs/atelier-nord/keys', {
      form: {
        csrf: csrfFor(before, '/admin/orgs/atelier-nord/keys'),
        name: 'Partner portal',
        scopes: 'opportunities:read',
        expires_on: nextYear(),
      },
    });
    // POST → 303 → GET: the key is carried by a short-lived cookie, never by the address.
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/admin/orgs/atelier-nord/keys');
    expect(posted.headers.get('set-cookie')).toMatch(/^__Host-pl_flash=[^;]+; Path=\/; Max-Age=120; HttpOnly; SameSite=Lax; Secure$/);
    const flash = clanAdmin.cookie(FLASH)!;
    expect(flash).not.toContain('live_');
    const created = await clanAdmin.request('/admin/orgs/atelier-nord/keys');
    const shown = await created.text();
    // Shown once: the answer clears the cookie, and the same cookie replayed shows nothing.
    expect(created.headers.get('set-cookie')).toMatch(/^__Host-pl_flash=; Path=\/; Max-Age=0/);
    expect(clanAdmin.cookie(FLASH)).toBeUndefined();
    clanAdmin.setCookie(FLASH, flash);
    expect(await page(clanAdmin, '/admin/orgs/atelier-nord/keys')).not.toContain('id="secret-value"');
    // Nor does it show in another session.
    baseAdmin.setCookie(FLASH, flash);
    expect(await page(baseAdmin, '/admin/orgs/cobalt-data/keys')).not.toContain('id="secret-value"');
    expect(created.status, shown).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = /<code id="secret-value">([^<]+)<\/code>/.exec(shown)![1]!;
    expect(shown).toContain('never shown again');
    expect(shown).toContain('/admin/assets/copy.js');

    const used = await stack.get('/opportunities?limit=1', { key });
    expect(used.status).toBe(200);
    expect((await stack.get('/organization', { key })).status).toBe(403);

    const list = await page(clanAdmin, '/admin/orgs/atelier-nord/keys');
    expect(list).not.toContain(key);
    expect(list).toContain('Partner portal');
    expect(list).toContain(`<code>${key.slice(0, 11)}`);

    const keyId = /\/admin\/orgs\/atelier-nord\/keys\/([^/"]+)\/revoke/.exec(list.slice(list.indexOf('Partner portal')))![1]!;
    const confirm = await page(clanAdmin, `/admin/orgs/atelier-nord/keys/${keyId}/revoke`);
    expect(confirm).toContain('cannot be undone');
    const action = `/admin/orgs/atelier-nord/keys/${keyId}/revoke`;
    const revoked = await clanAdmin.follow(action, { form: { csrf: csrfFor(confirm, action) } });
    expect(await revoked.res.text()).toContain('The key is revoked');
    expect((await stack.get('/opportunities?limit=1', { key })).status).toBe(401);
  });

  it('refuses a form without its CSRF token, or with the token of another form', async () => {
    const before = await page(clanAdmin, '/admin/orgs/atelier-nord/keys');
    const none = await clanAdmin.request('/admin/orgs/atelier-nord/keys', {
      form: { name: 'x', scopes: 'events:read', expires_on: nextYear() },
    });
    expect(none.status).toBe(403);
    const list = await page(clanAdmin, '/admin/orgs/atelier-nord/keys');
    const keyId = /\/keys\/([^/"]+)\/revoke/.exec(list)![1]!;
    const borrowed = await clanAdmin.request(`/admin/orgs/atelier-nord/keys/${keyId}/revoke`, {
      form: { csrf: csrfFor(before, '/admin/orgs/atelier-nord/keys') },
    });
    expect(borrowed.status).toBe(403);
    expect(await page(clanAdmin, '/admin/orgs/atelier-nord/keys')).toContain(`/keys/${keyId}/revoke`);
  });

  it('refuses a form of one admin posted with the session of another', async () => {
    const base = await page(baseAdmin, '/admin/orgs/cobalt-data/keys');
    const res = await clanAdmin.request('/admin/orgs/atelier-nord/keys', {
      form: { csrf: csrfFor(base, '/admin/orgs/cobalt-data/keys'), name: 'x', scopes: 'events:read', expires_on: nextYear() },
    });
    expect(res.status).toBe(403);
  });

  it('shows the plan’s active-key limit and enforces it with a clear message', async () => {
    const first = await page(baseAdmin, '/admin/orgs/cobalt-data/keys');
    expect(first).toContain('The base plan allows up to 1 active key (0 in use)');
    const token = csrfFor(first, '/admin/orgs/cobalt-data/keys');
    const ok = await baseAdmin.follow('/admin/orgs/cobalt-data/keys', {
      form: { csrf: token, name: 'Only one', scopes: 'events:read', expires_on: nextYear() },
    });
    expect(ok.res.status).toBe(200);
    const full = await page(baseAdmin, '/admin/orgs/cobalt-data/keys');
    expect(full).toContain('up to 1 active key (1 in use)');
    expect(full).toContain('The base plan allows 1 active key. Revoke one before creating another');
    expect(full).not.toContain('Create key</button>');
    // The server refuses too, with the same token (the form is only hidden).
    const refused = await baseAdmin.request('/admin/orgs/cobalt-data/keys', {
      form: { csrf: token, name: 'Second', scopes: 'events:read', expires_on: nextYear() },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('allows 1 active API key');
  });

  it('explains bad key input instead of failing', async () => {
    const form = await page(baseAdmin, '/admin/orgs/cobalt-data/keys');
    const token = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
    const cases = [
      { expires_on: 'tomorrow', scopes: 'events:read' },
      { expires_on: '2020-01-01', scopes: 'events:read' },
      { expires_on: nextYear(), scopes: 'payouts:read' },
    ];
    for (const fields of cases) {
      const res = await clanAdmin.request('/admin/orgs/atelier-nord/keys', { form: { csrf: token, name: 'x', ...fields } });
      expect(res.status).toBeLessThan(500);
    }
    const clanForm = await page(clanAdmin, '/admin/orgs/atelier-nord/keys');
    const clanToken = csrfFor(clanForm, '/admin/orgs/atelier-nord/keys');
    for (const [fields, message] of [
      [{ expires_on: 'tomorrow', scopes: 'events:read' }, 'calendar date'],
      [{ expires_on: '2020-01-01', scopes: 'events:read' }, 'Choose an expiry date after today.'],
      [{ expires_on: nextYear(), scopes: 'payouts:read' }, 'Choose scopes from the list.'],
      [{ expires_on: nextYear() }, 'Choose at least one scope'],
    ] as const) {
      const res = await clanAdmin.request('/admin/orgs/atelier-nord/keys', { form: { csrf: clanToken, name: 'x', ...fields } });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
  });

  it('shows this month’s quota, each key’s minute window and a chart of calls per day', async () => {
    const keys = await page(clanAdmin, '/admin/orgs/atelier-nord/keys');
    const { res } = await clanAdmin.follow('/admin/orgs/atelier-nord/keys', {
      form: { csrf: csrfFor(keys, '/admin/orgs/atelier-nord/keys'), name: 'Usage probe', scopes: 'events:read', expires_on: nextYear() },
    });
    const key = /<code id="secret-value">([^<]+)<\/code>/.exec(await res.text())![1]!;
    for (let i = 0; i < 3; i++) expect((await stack.get('/events?limit=1', { key })).status).toBe(200);

    const usage = await page(clanAdmin, '/admin/orgs/atelier-nord/usage');
    const used = Number(/<strong>([\d,]+)<\/strong> of 100,000 calls used/.exec(usage)![1]!.replaceAll(',', ''));
    expect(used).toBeGreaterThanOrEqual(3);
    expect(usage).toMatch(/Usage probe <code>[^<]+<\/code><\/td><td data-label="Used this minute">3 of 120<\/td>/);
    expect(usage).toContain('<svg viewBox=');
    const today = new Date().toISOString().slice(0, 10);
    expect(usage).toMatch(new RegExp(`<title>${today}: (\\d+) calls</title>`));
    expect(Number(new RegExp(`<title>${today}: (\\d+) calls</title>`).exec(usage)![1])).toBeGreaterThanOrEqual(3);
  });

  it('serves the copy script as a file of its own, the only script the pages allow', async () => {
    const res = await clanAdmin.request('/admin/assets/copy.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const keys = await clanAdmin.request('/admin/orgs/atelier-nord/keys');
    expect(keys.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(keys.headers.get('content-security-policy')).not.toMatch(/script-src/);
  });

  it('shows no private value on any page', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(findCanaries(pages.join('\n'))).toEqual([]);
  });
});

function nextYear(): string {
  return new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
}
