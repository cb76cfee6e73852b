import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, rawToolCall, setPassword } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { connectApplication, memberMcpClient } from './application.ts';
import { cookieHeader, launchBrowser, newPage, signIn, snapshot, type ViewportName } from './browser.ts';

// The member's account pages in a real browser (Debian's Chromium): sign-in, connected
// applications and their revocation, forms without their token, and sign-out everywhere, with
// screenshots of every page at desktop and phone width.

describe('member account pages in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true });
    origin = stack.config.publicBaseUrl;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** A new member with a password, signed in on a fresh browser profile, on the settings page. */
  async function member(local: string, viewport: ViewportName = 'desktop'): Promise<{ email: string; page: Page }> {
    const email = `${local}@atelier-nord.example`;
    await createMember(stack, email);
    return { email, page: await signedIn(email, viewport) };
  }

  async function signedIn(email: string, viewport: ViewportName = 'desktop'): Promise<Page> {
    const page = await newPage(browser, { viewport });
    await page.goto(`${origin}/account/settings`);
    await signIn(page, email);
    expect(new URL(page.url()).pathname).toBe('/account/settings');
    return page;
  }

  async function expectTokenRefused(token: string): Promise<void> {
    const res = await rawToolCall(stack, token, 'my_account');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    await res.body?.cancel();
  }

  it('sends a visitor to sign in, refuses a wrong password, and shows the settings after the form', async () => {
    const email = 'signin@atelier-nord.example';
    await createMember(stack, email);
    const page = await newPage(browser);
    await page.goto(`${origin}/account/settings`);
    expect(new URL(page.url()).pathname).toBe('/account/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe('/account/settings');
    await snapshot(page, 'login');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    await page.waitForLoadState('load');
    expect(await page.locator('.error').textContent()).toBe('Wrong email or password.');
    expect(await page.locator('h1').textContent()).toBe('Sign in to Packline');
    expect(await page.getByLabel('Email').inputValue(), 'the email is kept').toBe(email);
    expect(await page.getByText('at least 10 characters').isVisible()).toBe(true);
    await snapshot(page, 'login-refused');

    await signIn(page, email);
    expect(new URL(page.url()).pathname).toBe('/account/settings');
    expect(await page.locator('h1').textContent()).toBe('Account settings');
    expect(await page.getByText('Signed in as').textContent()).toContain(`(${email})`);
    expect(await page.getByText('No application can act for you.').isVisible()).toBe(true);
    const cookie = (await page.context().cookies(origin)).find((c) => c.name === 'pl_member');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
    await snapshot(page, 'settings');
    // One application: the account pages carry the site's header, with sign-out, and its one stylesheet.
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Sign out' }).count()).toBe(1);
    const stylesheet = await page.locator('link[rel=stylesheet]').getAttribute('href');
    expect(stylesheet).toMatch(/^\/admin\/assets\/packline-[0-9a-f]{12}\.css$/);
    const css = await fetch(`${origin}${stylesheet}`);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await css.body?.cancel();
    const missing = await page.goto(`${origin}/account/no-such-page`);
    expect(missing!.status()).toBe(404);
    expect(await page.getByRole('link', { name: 'Your organizations' }).count()).toBe(1);
    await snapshot(page, 'not-found');
    const json = await fetch(`${origin}/account/no-such-page`, { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toBe('application/problem+json');
    expect(await json.json()).toMatchObject({ status: 404, title: 'Page not found' });
    await page.goto(`${origin}/account/settings`);
  });

  it('shows an authorization request that cannot go on as a page in plain words, never a redirect', async () => {
    const registered = await fetch(`${origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Refused Assistant', redirect_uris: ['http://127.0.0.1:47321/callback'] }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const query = (params: Record<string, string>) =>
      new URLSearchParams({ response_type: 'code', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM', ...params });
    const page = await newPage(browser);
    const unregistered = await page.goto(
      `${origin}/authorize?${query({ client_id: clientId, code_challenge_method: 'S256', redirect_uri: 'https://attacker.example/cb' })}`,
    );
    expect(unregistered!.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(origin);
    expect(await page.locator('h1').textContent()).toBe('This connection request cannot continue');
    expect(await page.locator('p.error').textContent()).toContain('never registered with Packline');
    await snapshot(page, 'oauth-refused');

    const unknown = await page.goto(`${origin}/authorize?${query({ client_id: 'cli_0000000000zzzz', code_challenge_method: 'S256' })}`);
    expect(unknown!.status()).toBe(400);
    expect(await page.locator('h1').textContent()).toBe('Unknown application');
    await snapshot(page, 'oauth-unknown-application');

    const noPkce = await page.goto(`${origin}/authorize?${query({ client_id: clientId, code_challenge_method: 'plain' })}`);
    expect(noPkce!.status()).toBe(400);
    expect(await page.locator('p.error').textContent()).toContain('code_challenge_method must be S256');
    expect(await page.getByRole('link', { name: 'Your account' }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it('connects an application through OAuth, lists it, and after Revoke its next MCP call is 401', async () => {
    const { page } = await member('revoke');
    const app = await connectApplication(page, origin, 'Browser Assistant', { onConsent: (consent) => snapshot(consent, 'consent') });
    const token = app.tokens()!.access_token;
    const mcp = await memberMcpClient(origin, app);
    const before = await mcp.callTool({ name: 'my_account', arguments: {} });
    expect(before.isError).toBeFalsy();
    expect(JSON.stringify(before.content)).toContain('Member revoke');

    await page.goto(`${origin}/account/settings`);
    const connected = page.locator('table', { has: page.getByRole('columnheader', { name: 'Redirect address' }) });
    const row = connected.getByRole('row').filter({ hasText: 'Browser Assistant' });
    expect(await row.count()).toBe(1);
    const log = page.locator('table', { has: page.getByRole('columnheader', { name: 'Tool' }) });
    expect(await log.getByRole('row').filter({ hasText: 'my_account' }).count()).toBeGreaterThan(0);
    await snapshot(page, 'settings-connected');

    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === 'revoked'),
      row.getByRole('button', { name: 'Revoke' }).click(),
    ]);
    expect(await page.getByText('The application was disconnected.').isVisible()).toBe(true);
    expect(await page.getByText('No application can act for you.').isVisible()).toBe(true);
    await snapshot(page, 'settings-revoked');

    await expectTokenRefused(token);
    // The SDK client gets the 401 too, and its refresh token died with the grant: all it can do
    // is send the member to consent again.
    await expect(mcp.callTool({ name: 'my_account', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(app.tokens()).toBeUndefined();
    await mcp.close();
  });

  it('refuses a form posted without its token (403) and keeps the session', async () => {
    const { page } = await member('csrf');
    const cookie = await cookieHeader(page, origin);
    const post = (fields: Record<string, string>) =>
      fetch(`${origin}/account/password`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ current_password: 'not my password', new_password: 'a brand new password', ...fields }).toString(),
        redirect: 'manual',
      });
    const token = (form: string) => page.locator(`form[action="${form}"] input[name="csrf"]`).inputValue();

    const missing = await post({});
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain('This form has expired');
    await page.goto(`${origin}/account/sign-out-everywhere`);
    const another = await post({ csrf: await token('/account/sign-out-everywhere') });
    await page.goto(`${origin}/account/settings`);
    expect(another.status, 'the token of another form').toBe(403);
    await another.body?.cancel();
    // The same post with its own token gets through to the password check.
    const genuine = await post({ csrf: await token('/account/password') });
    expect(genuine.status).toBe(303);
    expect(genuine.headers.get('location')).toBe('/account/settings?error=current_password');

    // And in the browser itself: the page's own form with its token removed.
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('a brand new password');
    await page.locator('form[action="/account/password"] input[name="csrf"]').evaluate((input) => input.remove());
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Change password' }).click(),
    ]);
    expect(refused.status()).toBe(403);
    await page.waitForLoadState('load');
    expect(await page.locator('h1').textContent()).toBe('This form has expired');
    await snapshot(page, 'form-refused');

    await page.goto(`${origin}/account/settings`);
    expect(new URL(page.url()).pathname, 'still signed in').toBe('/account/settings');
  });

  it('signs out everywhere: every browser and every application loses its access', async () => {
    const { email, page: laptop } = await member('everywhere');
    const phone = await signedIn(email, 'phone');
    const app = await connectApplication(laptop, origin, 'Everywhere Assistant');
    expect((await rawToolCall(stack, app.tokens()!.access_token, 'my_account')).status).toBe(200);
    const laptopCookie = await cookieHeader(laptop, origin);

    await phone.goto(`${origin}/account/settings`);
    // It asks first: Cancel changes nothing.
    await phone.getByRole('link', { name: 'Sign out everywhere…' }).click();
    await phone.waitForURL(`${origin}/account/sign-out-everywhere`);
    await snapshot(phone, 'sign-out-everywhere-confirm');
    await phone.getByRole('link', { name: 'Cancel' }).click();
    await phone.waitForURL(`${origin}/account/settings`);
    await phone.getByRole('link', { name: 'Sign out everywhere…' }).click();
    await Promise.all([
      phone.waitForURL((url) => url.pathname === '/account/login' && url.searchParams.get('done') === 'signed_out_everywhere'),
      phone.getByRole('button', { name: 'Sign out everywhere' }).click(),
    ]);
    expect(await phone.getByText('You are signed out everywhere.').isVisible()).toBe(true);
    expect((await phone.context().cookies(origin)).map((c) => c.name)).not.toContain('pl_member');
    await snapshot(phone, 'signed-out-everywhere');

    await laptop.goto(`${origin}/account/settings`);
    expect(new URL(laptop.url()).pathname, 'the other browser is signed out').toBe('/account/login');
    const replayed = await fetch(`${origin}/account/settings`, { headers: { cookie: laptopCookie }, redirect: 'manual' });
    expect(replayed.status, 'the old session cookie').toBe(303);
    expect(replayed.headers.get('location')).toMatch(/^\/account\/login\?/);
    await expectTokenRefused(app.tokens()!.access_token);
  });

  it('reviews a draft: Publish and Discard side by side; Discard goes back to the account with a notice', async () => {
    const { page } = await member('drafts', 'phone');
    const draft = await stack.graphql<{ createNeedDraft: { id: string } }>(
      `mutation ($input: NewNeedInput!) { createNeedDraft(input: $input) { id } }`,
      {
        input: { organizationId: 'atelier-nord', title: 'Attic insulation survey' },
      },
    );
    const id = draft.createNeedDraft.id;
    await page.goto(`${origin}/account/drafts/${id}`);
    expect(await page.getByRole('button', { name: 'Publish' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Discard draft' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Back to your account' }).isVisible()).toBe(true);
    await snapshot(page, 'draft-review');
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account/settings' && url.searchParams.get('done') === 'discarded'),
      page.getByRole('button', { name: 'Discard draft' }).click(),
    ]);
    expect(await page.getByText('The draft was discarded.').isVisible()).toBe(true);
    await snapshot(page, 'draft-discarded');
    const gone = await page.goto(`${origin}/account/drafts/${id}`);
    expect(gone?.status()).toBe(404);
  });

  it('opens the team invitation my_invitations links to, after sign-in, and accepts it once', async () => {
    const email = 'tom@atelier-nord.example';
    await setPassword(stack, email);
    const app = await connectApplication(await signedIn(email), origin, 'Invitations Assistant');
    const mcp = await memberMcpClient(origin, app);
    const listed = await mcp.callTool({ name: 'my_invitations', arguments: {} });
    await mcp.close();
    const [invitation] = (listed.structuredContent as { invitations: { url: string; team_name: string }[] }).invitations;
    expect(invitation!.url).toMatch(new RegExp(`^${origin}/account/team-invitations/`));

    // A browser that is not signed in is asked to sign in, then lands on the invitation.
    const page = await newPage(browser, { viewport: 'phone' });
    await page.goto(invitation!.url);
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(new URL(invitation!.url).pathname);
    await signIn(page, email);
    expect(page.url()).toBe(invitation!.url);
    expect(await page.locator('h1').textContent()).toBe('Team invitation');
    expect(await page.getByText(invitation!.team_name).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Refuse' }).isVisible()).toBe(true);
    await snapshot(page, 'team-invitation');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === 'accepted'),
      page.getByRole('button', { name: 'Accept' }).click(),
    ]);
    expect(await page.getByText('You accepted the invitation.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    await snapshot(page, 'team-invitation-accepted');
  });
});
