import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../core/demo/canaries.ts';
import { PASSWORD, rawToolCall } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { connectApplication } from './application.ts';
import { cookieHeader, launchBrowser, newPage, signIn, snapshot } from './browser.ts';

// The administration pages in a real browser (Debian's Chromium): what an organization's admin
// does there, end to end, with screenshots of every page at desktop and phone width.

const CLAN_ADMIN = 'ada@atelier-nord.example';
const BASE_ADMIN = 'bo@cobalt-data.example';

describe('administration pages in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;
  let receiver: Receiver;
  const seen: string[] = [];

  async function admin(email: string): Promise<Page> {
    const page = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.goto(`${origin}/admin`);
    await signIn(page, email);
    return page;
  }

  /** Keeps every page's text for the privacy check at the end. */
  async function keep(page: Page) {
    seen.push(await page.content());
  }

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true, env: { ...WEBHOOK_TEST_ENV, WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0' } });
    origin = stack.config.publicBaseUrl;
    receiver = await new Receiver().start();
    for (const [email, organizationId] of [
      [CLAN_ADMIN, 'atelier-nord'],
      [BASE_ADMIN, 'cobalt-data'],
    ] as const) {
      await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
        input: { email, name: email.split('@')[0], password: PASSWORD, organizationId, role: 'admin' },
      });
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.close();
  });

  it('signs in, creates a key shown once, copies it, and the key works against the REST API', async () => {
    const page = await admin(CLAN_ADMIN);
    expect(new URL(page.url()).pathname).toBe('/admin/orgs/atelier-nord');
    expect(await page.locator('h1').textContent()).toBe('Atelier Nord');
    await snapshot(page, 'organization');
    await keep(page);

    await page.getByRole('navigation').getByRole('link', { name: 'API keys', exact: true }).click();
    await page.waitForURL(`${origin}/admin/orgs/atelier-nord/keys`);
    await snapshot(page, 'keys');
    await page.getByLabel('Name').fill('Browser key');
    await page.getByRole('checkbox', { name: /events:read/ }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#secret-value').waitFor();
    const key = (await page.locator('#secret-value').textContent())!.trim();
    expect(key).toMatch(/^live_/);
    expect(await page.getByText('never shown again').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('[data-copy-status]').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await snapshot(page, 'key-created');

    const res = await fetch(`${origin}/api/v1/opportunities?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect((await fetch(`${origin}/api/v1/events?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(403);

    await page.goto(`${origin}/admin/orgs/atelier-nord/keys`);
    expect(await page.content()).not.toContain(key);
    expect(await page.getByRole('cell', { name: 'Browser key', exact: true }).count()).toBe(1);
    await keep(page);
  });

  it('reloading after a create changes nothing; a refused form keeps what was typed', async () => {
    const page = await admin(CLAN_ADMIN);
    await page.goto(`${origin}/admin/orgs/atelier-nord/keys`);
    await page.getByLabel('Name').fill('Reload key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#secret-value').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    expect(await page.locator('#secret-value').count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'Reload key', exact: true }).count()).toBe(1);

    await page.goto(`${origin}/admin/orgs/atelier-nord/webhooks`);
    const rows = await page.locator('table.list tbody tr').count();
    await page.getByLabel('Name').fill('Keep me');
    await page.getByLabel('Description').fill('Typed once');
    await page.getByLabel('URL', { exact: true }).fill(receiver.url('/kept'));
    for (const box of await page.getByRole('group', { name: 'Event kinds' }).getByRole('checkbox').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('Keep me');
    expect(await page.getByLabel('Description').inputValue()).toBe('Typed once');
    expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe(receiver.url('/kept'));
    expect(await page.locator('.error-summary a').first().textContent()).toMatch(/Event kinds: Choose at least one event kind\./);
    await snapshot(page, 'webhooks-refused');
    await page.getByRole('checkbox', { name: /need\.created/ }).check();
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.locator('#secret-value').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Destination added');
    await page.reload();
    expect(await page.locator('#secret-value').count()).toBe(0);
    await page.goto(`${origin}/admin/orgs/atelier-nord/webhooks`);
    expect(await page.locator('table.list tbody tr').count()).toBe(rows + 1);
    await keep(page);
  });

  it('edits, pauses and resumes a destination', async () => {
    const page = await admin(CLAN_ADMIN);
    await page.goto(await addDestination(page, 'atelier-nord', receiver.url('/editable')));
    await page.getByRole('link', { name: /^Edit/ }).click();
    await page.waitForURL(/\/edit$/);
    await snapshot(page, 'destination-edit');
    await page.getByLabel('Name').fill('Renamed in the browser');
    await page.getByLabel('Language of the messages').selectOption('fr');
    await Promise.all([page.waitForURL(/done=updated/), page.getByRole('button', { name: 'Save' }).click()]);
    expect(await page.locator('dl').textContent()).toContain('Renamed in the browser');
    await Promise.all([page.waitForURL(/done=paused/), page.getByRole('button', { name: 'Pause' }).click()]);
    expect(await page.locator('.status-paused').textContent()).toBe('paused');
    expect(await page.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);
    await snapshot(page, 'destination-paused');
    await Promise.all([page.waitForURL(/done=enabled/), page.getByRole('button', { name: 'Resume' }).click()]);
    expect(await page.locator('dd.status-active').textContent()).toBe('active');
    await keep(page);
  });

  it('adds a standard JSON destination, sends a test signal, and sees it arrive and listed as delivered', async () => {
    const page = await admin(CLAN_ADMIN);
    await page.goto(`${origin}/admin/orgs/atelier-nord/webhooks`);
    await snapshot(page, 'webhooks');
    await page.getByLabel('Name').fill('Browser receiver');
    await page.getByLabel('Format').selectOption('standard-json');
    await page.getByLabel('URL', { exact: true }).fill(receiver.url('/browser'));
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.locator('#secret-value').waitFor();
    const secret = (await page.locator('#secret-value').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await snapshot(page, 'destination-created');
    await page.goto(await destinationPageOf(page));
    await Promise.all([page.waitForURL(/done=/), page.getByRole('button', { name: 'Send a test event' }).click()]);
    await receiver.waitFor((all) => all.some((r) => r.path === '/browser' && r.headers['x-service-test'] === '1'), 'the test signal');
    // The list updates by itself (the page's script fetches it again while a delivery is pending).
    await page
      .locator('#deliveries tbody tr')
      .first()
      .getByText(/succeeded/)
      .waitFor();
    expect(await page.locator('[data-refresh-status]').textContent()).toMatch(/updated|^$/);
    await snapshot(page, 'destination');
    // Filters by status and event kind.
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await Promise.all([page.waitForURL(/status=failed/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await page.locator('#deliveries tbody tr').count()).toBe(0);
    await page.getByLabel('Status', { exact: true }).selectOption('succeeded');
    await Promise.all([page.waitForURL(/status=succeeded/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(await page.locator('#deliveries tbody tr').count()).toBe(1);
    // The attempt as sent (the signature the receiver got, the body sized) and as answered.
    await Promise.all([
      page.waitForURL(/\/deliveries\//),
      page
        .getByRole('link', { name: /^Attempts/ })
        .first()
        .click(),
    ]);
    const sent = receiver.on('/browser').find((r) => r.headers['x-service-test'] === '1')!;
    const attempt = page.locator('#attempt-1');
    expect(await attempt.getAttribute('open')).not.toBeNull();
    expect(await attempt.getByRole('cell', { name: String(sent.headers['x-service-signature']) }).count()).toBe(1);
    expect(await page.locator('#body-size').textContent()).toBe(`${Buffer.byteLength(sent.body).toLocaleString('en')} bytes`);
    expect(
      await attempt.getByRole('table', { name: 'Headers received at attempt 1' }).getByRole('cell', { name: 'text/plain' }).count(),
    ).toBe(1);
    await snapshot(page, 'delivery-succeeded');
    await keep(page);
  });

  it('retries a failed delivery on the Clan plan; the Base plan shows no retry button', async () => {
    receiver.plan('/failing', { status: 500 });
    const clan = await admin(CLAN_ADMIN);
    await clan.goto(await addDestination(clan, 'atelier-nord', receiver.url('/failing')));
    await Promise.all([clan.waitForURL(/done=/), clan.getByRole('button', { name: 'Send a test event' }).click()]);
    await expect
      .poll(
        async () => {
          await clan.reload();
          return clan.locator('tbody tr').first().textContent();
        },
        { timeout: 30_000 },
      )
      .toMatch(/failed/);
    await snapshot(clan, 'destination-failed');
    await clan
      .getByRole('link', { name: /^Attempts/ })
      .first()
      .click();
    await clan.waitForURL(/\/deliveries\//);
    // The attempt's request (headers, signature) and response (status, excerpt) are shown.
    expect(await clan.getByRole('heading', { name: 'Request', exact: true }).count()).toBe(1);
    expect(await clan.getByRole('cell', { name: 'x-service-signature' }).count()).toBeGreaterThanOrEqual(1);
    expect(
      await clan
        .locator('#attempt-8')
        .getByRole('cell', { name: /^t=\d+,v1=[0-9a-f]{64}$/ })
        .count(),
    ).toBe(1);
    expect(await clan.locator('td[data-label="Status code"]').first().textContent()).toBe('500');
    expect(await clan.locator('dd.status-failed').textContent()).toBe('failed after 8 attempts');
    await snapshot(clan, 'delivery');
    await clan.goBack();

    const before = receiver.on('/failing').length;
    receiver.plan('/failing', { status: 200 });
    await Promise.all([
      clan.waitForURL(/done=/),
      clan
        .getByRole('button', { name: /^Retry/ })
        .first()
        .click(),
    ]);
    await receiver.waitFor(() => receiver.on('/failing').length > before, 'the retried delivery');
    // Retry leads back to the delivery, whose status turns to succeeded.
    expect(clan.url()).toMatch(/\/deliveries\//);
    await expect
      .poll(async () => {
        await clan.reload();
        return clan.locator('dd[class^="status-"]').first().textContent();
      })
      .toMatch(/succeeded/);

    receiver.plan('/base-failing', { status: 500 });
    const base = await admin(BASE_ADMIN);
    await base.goto(await addDestination(base, 'cobalt-data', receiver.url('/base-failing')));
    await Promise.all([base.waitForURL(/done=/), base.getByRole('button', { name: 'Send a test event' }).click()]);
    await expect
      .poll(
        async () => {
          await base.reload();
          return base.locator('tbody tr').first().textContent();
        },
        { timeout: 30_000 },
      )
      .toMatch(/failed/);
    expect(await base.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    await snapshot(base, 'destination-base');
    await keep(base);
  });

  it('shows usage: this month’s quota, the minute window and the chart', async () => {
    const page = await admin(CLAN_ADMIN);
    await page.getByRole('navigation').getByRole('link', { name: 'Usage', exact: true }).click();
    await page.waitForURL(/\/usage$/);
    expect(await page.locator('svg[role=img]').count()).toBe(1);
    expect(await page.getByText(/calls used/).textContent()).toMatch(/of 100,000 calls used/);
    await snapshot(page, 'usage');
    await keep(page);
  });

  it('revokes a connected application, and its next MCP call fails', async () => {
    const page = await admin(CLAN_ADMIN);
    const app = await connectApplication(page, origin, 'Browser Assistant', { onConsent: (consent) => snapshot(consent, 'consent') });
    const token = app.tokens()!.access_token;
    expect((await rawToolCall(stack, token, 'my_account')).status).toBe(200);

    await page.goto(`${origin}/account/settings`);
    // Listed once as connected, once in the log of what it did (its my_account call).
    expect(await page.getByRole('cell', { name: 'Browser Assistant', exact: true }).count()).toBe(2);
    await snapshot(page, 'account-settings');
    await keep(page);
    await Promise.all([page.waitForURL(/done=revoked/), page.getByRole('button', { name: 'Revoke' }).click()]);
    expect((await rawToolCall(stack, token, 'my_account')).status).toBe(401);
  });

  it('answers 403 on another organization’s pages, and refuses a form posted without its token', async () => {
    const page = await admin(BASE_ADMIN);
    const answer = await page.goto(`${origin}/admin/orgs/atelier-nord/keys`);
    expect(answer!.status()).toBe(403);
    await snapshot(page, 'forbidden');

    const forged = await fetch(`${origin}/admin/orgs/cobalt-data/keys`, {
      method: 'POST',
      headers: { cookie: await cookieHeader(page, origin), 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ name: 'No token', scopes: 'events:read', expires_on: '2030-01-01' }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    await page.goto(`${origin}/admin/orgs/cobalt-data/keys`);
    expect(await page.content()).not.toContain('No token');
  });

  it('showed no private value on any page', () => {
    expect(seen.length).toBeGreaterThan(5);
    expect(findCanaries(seen.join('\n'))).toEqual([]);
  });

  /** Adds a standard JSON destination through the form; resolves with its page's address. */
  async function addDestination(page: Page, org: string, url: string): Promise<string> {
    await page.goto(`${origin}/admin/orgs/${org}/webhooks`);
    await page.getByLabel('Name').fill(`Receiver ${new URL(url).pathname}`);
    await page.getByLabel('Format').selectOption('standard-json');
    await page.getByLabel('URL', { exact: true }).fill(url);
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.locator('#secret-value').waitFor();
    expect(await page.locator('#secret-value').count()).toBe(1);
    return destinationPageOf(page);
  }

  /** The page of the destination just added: the answer to the form carries its actions. */
  async function destinationPageOf(page: Page): Promise<string> {
    const action = await page.locator('form[action$="/test"]').getAttribute('action');
    expect(action, 'the test signal form of the new destination').toMatch(/\/webhooks\/[^/]+\/test$/);
    return new URL(action!.replace(/\/test$/, ''), origin).href;
  }
});
