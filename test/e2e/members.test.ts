import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../mcp/member-client.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createOrganization } from '../support/webhooks.ts';
import { launchBrowser, newPage, signIn, snapshot } from './browser.ts';

// The members page and an invitation in a real browser: an admin invites by mail (received by a
// real SMTP server), the new person creates an account from the link and joins, the admin changes
// a role and removes a member. Every page checked (axe-core) and photographed at desktop and phone width.

const ORG = 'team-org';

describe('members page and invitations in a browser', () => {
  let stack: Stack;
  let inbox: SmtpInbox;
  let browser: Browser;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await startStack({ localOrigin: true, demo: false, env: { SMTP_URL: inbox.url } });
    browser = await launchBrowser();
    await createOrganization(stack, ORG);
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'ada@team.example', name: 'Ada Admin', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await inbox?.close();
  });

  it('invites by mail; the new person creates an account and joins; the admin changes the role and removes them', async () => {
    const origin = stack.config.publicBaseUrl;
    const page = await newPage(browser);
    await page.goto(`${origin}/admin/orgs/${ORG}/members`);
    await signIn(page, 'ada@team.example');
    expect(await page.locator('h1').textContent()).toBe('Members');
    await snapshot(page, 'members');

    await page.getByLabel('Email').fill('nia@team.example');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('status').textContent()).toContain('The invitation was sent.');
    await snapshot(page, 'members-invited');

    const mail = await inbox.next();
    const link = /http:\/\/127\.0\.0\.1:\d+\/account\/invitation\?token=pli_[A-Za-z0-9]{43}/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const invited = await newPage(browser, { viewport: 'phone' });
    await invited.goto(link!);
    expect(await invited.locator('h1').textContent()).toBe(`Join Org ${ORG}`);
    await snapshot(invited, 'invitation');

    await invited.getByLabel('Password', { exact: true }).fill('short');
    await invited.getByRole('button', { name: 'Create my account and join' }).click();
    await invited.waitForLoadState('load');
    const summary = await invited.getByRole('alert').textContent();
    expect(summary).toContain('Enter your name.');
    expect(summary).toContain('Choose a password of at least 10 characters.');
    expect(summary).toContain('The two passwords differ.');
    await snapshot(invited, 'invitation-refused');

    await invited.getByLabel('Your name').fill('Nia Newcomer');
    await invited.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invited.getByLabel('Password again').fill(PASSWORD);
    await invited.getByRole('button', { name: 'Create my account and join' }).click();
    await invited.waitForLoadState('load');
    expect(await invited.getByRole('status').textContent()).toContain('You joined the organization.');
    await snapshot(invited, 'invitation-joined');

    await page.reload();
    expect(await page.locator('main').textContent()).toContain('nia@team.example');
    await page.getByRole('button', { name: 'Make admin Nia Newcomer' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('status').textContent()).toContain('The role was changed.');

    await page.getByRole('link', { name: /^Remove\s*Nia Newcomer/ }).click();
    expect(await page.locator('h1').textContent()).toBe('Remove Nia Newcomer?');
    await snapshot(page, 'member-remove');
    await page.getByRole('button', { name: 'Remove Nia Newcomer' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('status').textContent()).toContain('The member was removed.');
    expect(await page.locator('main').textContent()).not.toContain('nia@team.example');

    // The only admin left is told why they cannot step down.
    await page.getByRole('button', { name: 'Make member Ada Admin' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toContain('Ada Admin is the last admin of this organization');
    await snapshot(page, 'members-last-admin');

    // Nia's session ended with the removal.
    await invited.goto(`${origin}/account/settings`);
    expect(new URL(invited.url()).pathname).toBe('/account/login');
  });
});
