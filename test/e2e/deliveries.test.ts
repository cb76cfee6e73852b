import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createDestination, deliveries, WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { launchBrowser, newPage, signIn, snapshot } from './browser.ts';

// The deliveries of all an organization's destinations in a real browser: the list and a filtered
// view, each checked with axe-core (no critical or serious finding) and photographed at desktop
// and phone width.

const CLAN = 'atelier-nord';
const ADMIN = 'ada@atelier-nord.example';

describe('the deliveries page in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;
  let receiver: Receiver;

  const sendTest = (id: string) => stack.graphql('mutation ($id: ID!) { sendTestSignal(destinationId: $id) { id } }', { id });

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true, env: { ...WEBHOOK_TEST_ENV, WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0' } });
    origin = stack.config.publicBaseUrl;
    receiver = await new Receiver().start();
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: ADMIN, name: 'ada', password: PASSWORD, organizationId: CLAN, role: 'admin' },
    });
    receiver.plan('/e2e/failing', { status: 500 });
    const ok = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/e2e/ok') });
    const failing = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/e2e/failing') });
    await sendTest(ok.id);
    await sendTest(failing.id);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.close();
  });

  async function deliveriesPage(): Promise<Page> {
    const page = await newPage(browser);
    await page.goto(`${origin}/admin/orgs/${CLAN}/deliveries`);
    await signIn(page, ADMIN);
    await page.waitForURL(`${origin}/admin/orgs/${CLAN}/deliveries`);
    return page;
  }

  it('lists the deliveries of every destination, and filters them by status', async () => {
    const statuses = async () => (await deliveries(stack, CLAN)).map((d) => d.status).sort();
    await expect.poll(statuses, { timeout: 15_000 }).toEqual(['failed', 'succeeded']);
    const page = await deliveriesPage();
    expect(await page.locator('td.status-failed').count()).toBe(1);
    expect(await page.locator('td.status-succeeded').count()).toBe(1);
    await snapshot(page, 'deliveries');

    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/status=failed/);
    expect(await page.locator('td.status-succeeded').count()).toBe(0);
    expect(await page.locator('td.status-failed').count()).toBe(1);
    await snapshot(page, 'deliveries-failed');
  });
});
