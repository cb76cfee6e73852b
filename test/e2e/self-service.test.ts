import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, rawToolCall } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import { connectApplication } from './application.ts';
import { launchBrowser, newPage, signIn, snapshot } from './browser.ts';
import type { MutationData } from '../support/graphql-data.ts';

// The self-service administration pages in a real browser: rolling a key, a destination's signing
// secret (reveal, rotate with an overlap), the members' connected applications and the plans,
// each screenshot at desktop and phone width and checked by axe.

const ADMIN = 'sy@cobalt-data.example';
const ORG = '/admin/orgs/cobalt-data';

describe('self-service administration in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;
  let receiver: Receiver;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true, env: WEBHOOK_TEST_ENV });
    origin = stack.config.publicBaseUrl;
    receiver = await new Receiver().start();
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: ADMIN, name: 'Sy', password: PASSWORD, organizationId: 'cobalt-data', role: 'admin' },
    });
    browser = await launchBrowser();
    page = await newPage(browser);
    await page.goto(`${origin}/admin`);
    await signIn(page, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.close();
  });

  it('rolls the Base plan’s only key: the new key shown once, the old one expiring in 1 h', async () => {
    await page.goto(`${origin}${ORG}/keys`);
    await page.getByLabel('Name').fill('Integration');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#secret-value').waitFor();
    const old = (await page.locator('#secret-value').textContent())!.trim();

    await page.getByRole('link', { name: 'Roll Integration' }).click();
    await page.waitForURL(/\/roll$/);
    await snapshot(page, 'key-roll');
    await page.getByRole('radio', { name: 'for 1 hour' }).check();
    await page.getByRole('button', { name: 'Roll the key' }).click();
    await page.locator('#secret-value').waitFor();
    const fresh = (await page.locator('#secret-value').textContent())!.trim();
    expect(fresh).not.toBe(old);
    expect(await page.getByText(/expires in (59 min|1 h)/).isVisible()).toBe(true);
    await snapshot(page, 'key-rolled');
    for (const key of [old, fresh]) {
      const res = await fetch(`${origin}/api/v1/opportunities?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    }
  });

  it('reveals a signing secret after the password and rotates it with a chosen overlap', async () => {
    const { createWebhookDestination } = await stack.graphql<MutationData<'createWebhookDestination'>>(
      'mutation ($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { secret destination { id } } }',
      { input: { organizationId: 'cobalt-data', format: 'standard-json', url: receiver.url('/e2e-self'), scope: 'own' } },
    );
    const path = `${origin}${ORG}/webhooks/${createWebhookDestination.destination.id}`;
    await page.goto(path);
    expect(await page.getByText(receiver.url('/e2e-self')).first().isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Reveal the signing secret' }).click();
    await page.getByLabel('Your password').fill('not my password');
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await page.getByText('That is not your password').waitFor();
    await snapshot(page, 'secret-reveal-refused');
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await page.locator('#secret-value').waitFor();
    expect((await page.locator('#secret-value').textContent())!.trim()).toBe(createWebhookDestination.secret);
    await snapshot(page, 'secret-revealed');

    await page.getByRole('link', { name: 'Rotate the signing secret' }).click();
    await page.getByRole('radio', { name: 'for 3 days' }).check();
    await snapshot(page, 'secret-rotate');
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    await page.locator('#secret-value').waitFor();
    expect(await page.getByText('The old secret keeps signing until').isVisible()).toBe(true);
  });

  it('lists the members’ connected applications and disconnects one', async () => {
    await connectApplication(page, origin, 'Sy’s Planner');
    await page.goto(`${origin}${ORG}/applications`);
    expect(await page.getByRole('button', { name: 'Disconnect Sy’s Planner of Sy' }).isVisible()).toBe(true);
    await snapshot(page, 'applications');
    await page.getByRole('button', { name: /Disconnect/ }).click();
    await page.getByText('The application is disconnected.').waitFor();
    expect(await page.getByRole('button', { name: 'Disconnect Sy’s Planner of Sy' }).count()).toBe(0);
  });

  it('lists the drafts an assistant prepared, with a review link', async () => {
    const app = await connectApplication(page, origin, 'Sy’s Drafter');
    const drafted = await rawToolCall(stack, app.tokens()!.access_token, 'draft_need', { title: 'Survey of the archive rooms' });
    expect(drafted.status).toBe(200);
    await drafted.body?.cancel();
    await page.goto(`${origin}/account/settings`);
    await page.getByRole('link', { name: 'Drafts your assistants prepared' }).click();
    await page.getByRole('cell', { name: 'Survey of the archive rooms', exact: true }).waitFor();
    await snapshot(page, 'drafts');
    await page.getByRole('link', { name: 'Review Survey of the archive rooms' }).click();
    await page.waitForURL(/\/account\/drafts\/.+/);
  });

  it('compares the plans with the organization’s use', async () => {
    await page.goto(`${origin}${ORG}/plans`);
    expect(await page.getByRole('columnheader', { name: 'base (yours)' }).isVisible()).toBe(true);
    await snapshot(page, 'plans');
  });
});
