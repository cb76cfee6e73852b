import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../mcp/member-client.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { launchBrowser, newPage, signIn, snapshot } from './browser.ts';

// A forgotten password in a real browser: "Forgot password?" from the sign-in page, the mailed
// link (received by a real SMTP server), the new password's errors all at once, and sign-in with
// it; every page checked (axe-core) and photographed at desktop and phone width.

describe('password reset in a browser', () => {
  let stack: Stack;
  let inbox: SmtpInbox;
  let browser: Browser;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await startStack({ localOrigin: true, env: { SMTP_URL: inbox.url } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await inbox?.close();
  });

  it('mails a link from "Forgot password?" and sets the new password with it', async () => {
    const email = 'forgetful@atelier-nord.example';
    await createMember(stack, email);
    const page = await newPage(browser);
    await page.goto(`${stack.config.publicBaseUrl}/account/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    expect(await page.locator('h1').textContent()).toBe('Forgot your password?');
    await snapshot(page, 'forgot');

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('status').textContent()).toContain('If an account exists for that address, we sent a link');
    await snapshot(page, 'forgot-sent');

    const mail = await inbox.next();
    const link = /http:\/\/127\.0\.0\.1:\d+\/account\/password-reset\?token=plw_[A-Za-z0-9]{43}/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    expect(await page.locator('h1').textContent()).toBe('Choose a new password');
    await snapshot(page, 'reset');

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('different');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForLoadState('load');
    const summary = await page.getByRole('alert').textContent();
    expect(summary).toContain('Choose a new password of at least 10 characters.');
    expect(summary).toContain('The two passwords differ');
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await snapshot(page, 'reset-refused');

    await page.getByLabel('New password', { exact: true }).fill('my new long password');
    await page.getByLabel('New password again').fill('my new long password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('h1').textContent()).toBe('Password changed');
    await snapshot(page, 'reset-done');

    await page.getByRole('link', { name: 'Sign in' }).last().click();
    await signIn(page, email, 'my new long password');
    expect(new URL(page.url()).pathname).toBe('/account/settings');
  });
});
