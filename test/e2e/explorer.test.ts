import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectNoSeriousAxeViolation, launchBrowser, newPage, screenshot } from './browser.ts';

// The GraphQL explorer in a real browser: an internal team member opens /graphql, signs in with
// the internal token, runs a query in GraphiQL, and signs out; every request the page makes stays
// on Packline's own origin, and the page keeps its CSP, with screenshots at desktop and phone width.

describe('GraphQL explorer in a browser', () => {
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

  /** Every request of the page leaving the origin (data: and blob: are the page's own), and every CSP report or page error. */
  function watch(page: Page): { outside: string[]; problems: string[] } {
    const outside: string[] = [];
    const problems: string[] = [];
    // The whole browser context: the editor's workers included.
    page.context().on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) outside.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { outside, problems };
  }

  async function signInForm(page: Page, token: string): Promise<number> {
    await page.getByLabel('Internal API token').fill(token);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/graphql/sign-in'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.waitForLoadState('load');
    return answer.status();
  }

  it('signs in with the internal token, runs a query in GraphiQL, and no request leaves the origin', async () => {
    const page = await newPage(browser);
    const { outside, problems } = watch(page);

    const opened = await page.goto(`${origin}/graphql`);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').textContent()).toBe('Sign in to the GraphQL explorer');
    await expectAccessible(page, 'explorer-sign-in');
    await expectNoSeriousAxeViolation(page, 'explorer-sign-in');
    await screenshot(page, 'explorer-sign-in');

    expect(await signInForm(page, 'not-the-internal-token')).toBe(401);
    expect(await page.locator('.error').textContent()).toBe('That is not the internal API token.');
    expect(await page.getByLabel('Internal API token').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'explorer-sign-in-refused');

    expect(await signInForm(page, INTERNAL_TOKEN)).toBe(303);
    expect(new URL(page.url()).pathname).toBe('/graphql');
    const cookies = await page.context().cookies(`${origin}/graphql`);
    const session = cookies.find((c) => c.name === 'pl_explorer');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false, path: '/graphql' });
    expect(session?.value).not.toContain(INTERNAL_TOKEN);
    expect(cookies.map((c) => c.name)).not.toContain('pl_explorer_login');

    // GraphiQL loads the schema (introspection) with the session cookie and the page's header.
    const run = page.getByRole('button', { name: /Execute query/ });
    await run.waitFor({ state: 'visible' });
    const [request, response] = await Promise.all([
      page.waitForRequest(
        (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/graphql' && /opportunities/.test(r.postData() ?? ''),
      ),
      page.waitForResponse((r) => r.request().method() === 'POST' && /opportunities/.test(r.request().postData() ?? '')),
      run.click(),
    ]);
    expect(request.headers().authorization, 'no token in the browser').toBeUndefined();
    expect(request.headers()['x-packline-explorer']).toMatch(/^[\w-]{20,}$/);
    expect(response.status()).toBe(200);
    const result = (await response.json()) as { data?: { opportunities: { edges: { node: { id: string } }[] } } };
    expect(result.data?.opportunities.edges.length).toBeGreaterThan(0);
    const shown = result.data!.opportunities.edges[0]!.node.id;
    // Monaco renders spaces as no-break spaces.
    const answer = async () => ((await page.locator('.graphiql-response').textContent()) ?? '').replace(/\s+/g, ' ');
    await expect.poll(answer).toContain(`"id": "${shown}"`);

    await expectAccessible(page, 'explorer');
    await expectNoSeriousAxeViolation(page, 'explorer');
    await screenshot(page, 'explorer');

    // The documentation explorer shows the schema's descriptions.
    await page.getByRole('button', { name: /Show Documentation Explorer/ }).click();
    const docs = page.locator('.graphiql-doc-explorer');
    await docs.getByText('Query', { exact: true }).click();
    await expect.poll(() => docs.textContent()).toMatch(/Reads\. Each field states who may call it/);
    await expectNoSeriousAxeViolation(page, 'explorer-docs');
    await screenshot(page, 'explorer-docs');
    expect(outside, 'requests that left the origin').toEqual([]);
    expect(problems, 'CSP reports and page errors').toEqual([]);

    await Promise.all([page.waitForURL(`${origin}/graphql`), page.getByRole('button', { name: 'Sign out' }).click()]);
    expect(await page.locator('h1').textContent()).toBe('Sign in to the GraphQL explorer');
    expect((await page.context().cookies(`${origin}/graphql`)).map((c) => c.name)).not.toContain('pl_explorer');
  });
});
