import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { launchBrowser, newPage, signIn, snapshot } from './browser.ts';

// The looks of the administration pages in a real browser at phone width: the navigation folded
// into a menu that opens from the keyboard, a success notice, the primary button, and nothing
// wider than the screen; screenshots at desktop and phone width, axe-core clean.

const ORG = 'juniper-green';
const EMAIL = 'phone@juniper-green.example';

describe('administration pages on a phone', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true });
    origin = stack.config.publicBaseUrl;
    browser = await launchBrowser();
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email: EMAIL, name: 'Pia', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('folds the navigation into a keyboard menu and shows a success notice after a form', async () => {
    const page = await newPage(browser, { viewport: 'phone' });
    await page.goto(`${origin}/admin/orgs/${ORG}/webhooks`);
    await signIn(page, EMAIL);
    // The wide list is hidden; the menu is closed until opened from the keyboard.
    const nav = page.getByRole('navigation', { name: 'Administration' });
    expect(await nav.locator('.nav-wide').isVisible()).toBe(false);
    const members = nav.locator('.nav-menu').getByRole('link', { name: 'Members' });
    expect(await members.isVisible()).toBe(false);
    await nav.getByText('Menu').focus();
    await page.keyboard.press('Enter');
    expect(await members.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await members.isVisible()).toBe(false);

    // The main action looks primary; the success notice after the form looks like success.
    const add = page.getByRole('button', { name: 'Add destination' });
    expect(await add.getAttribute('class')).toBe('primary');
    await page.getByLabel('Name').fill('Phone channel');
    await page.locator('select[name=format]').selectOption('team-chat');
    await page.getByLabel('URL', { exact: true }).fill('https://93.184.216.34/a-rather-long/incoming-webhook-path/that-must-wrap');
    await add.click();
    const done = page.getByRole('status').filter({ hasText: 'The destination is added.' });
    await done.waitFor();
    expect(await done.getAttribute('class')).toBe('success');
    expect(await page.locator('h1').textContent()).toBe('Phone channel');
    expect(await done.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
      await page.locator('main').evaluate((el) => getComputedStyle(el).backgroundColor),
    );
    // Nothing wider than the phone's screen: URLs and event names wrap or stay whole, not the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snapshot(page, 'destination-added-folded-navigation');
  });
});
