import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../core/index.ts';
import { connectMember, createMember, hidden, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { startStack, type Stack } from '../support/stack.ts';

// "Forgot password?" over HTTP with a real SMTP server receiving the link: the same answer for
// every address, the sign-in budgets, the reset form's errors all at once, one use, and every
// session and connected application ended.

const SENT = 'If an account exists for that address, we sent a link to it.';

describe('password reset pages', () => {
  let stack: Stack;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await startStack({ env: { SMTP_URL: inbox.url, MAIL_FROM: 'Packline <no-reply@packline.test>' } });
    await createMember(stack, 'reset-ines@atelier-nord.example');
  });
  afterAll(async () => {
    await stack?.close();
    await inbox?.close();
  });

  /** Asks for a link on the "Forgot password?" page; the answer page's text. */
  async function ask(browser: TestBrowser, email: string): Promise<{ status: number; text: string }> {
    const form = await browser.page('/account/password-reset/request');
    const res = await browser.request('/account/password-reset/request', { form: { email, csrf: hidden(form, 'csrf') } });
    if (res.status !== 303) return { status: res.status, text: await res.text() };
    const { res: answer } = await browser.follow(res.headers.get('location')!);
    return { status: answer.status, text: await answer.text() };
  }

  it('links "Forgot password?" from the sign-in page', async () => {
    const login = await new TestBrowser(stack).page('/account/login');
    expect(login).toContain('<a href="/account/password-reset/request">Forgot password?</a>');
  });

  it('answers the same for an unknown address, and mails a working link only to a member', async () => {
    const browser = new TestBrowser(stack);
    const unknown = await ask(browser, 'nobody@atelier-nord.example');
    const known = await ask(browser, 'Reset-INES@atelier-nord.example');
    expect(unknown).toEqual(known);
    expect(known.status).toBe(200);
    expect(known.text).toContain(SENT);
    const mail = await inbox.next();
    expect(mail.to).toEqual(['reset-ines@atelier-nord.example']);
    expect(mail.from).toBe('no-reply@packline.test');
    expect(inbox.received).toHaveLength(1);
    const link = /https:\/\/packline\.test\/account\/password-reset\?token=plw_[A-Za-z0-9]{43}/.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    const session = new TestBrowser(stack);
    await session.signIn('reset-ines@atelier-nord.example');
    const client = await connectMember(stack, 'reset-ines@atelier-nord.example');
    expect(client.tokens()?.access_token).toMatch(/^pla_/);

    const page = await browser.page(link!);
    expect(page).toContain('<h1>Choose a new password</h1>');
    expect(page).toContain('<strong>reset-ines@atelier-nord.example</strong>');
    const token = hidden(page, 'token');

    // Every error at once, and nothing used up.
    const refused = await browser.request('/account/password-reset', {
      form: { token, new_password: 'short-pw', confirm_password: 'other-pw' },
    });
    expect(refused.status).toBe(400);
    const errors = await refused.text();
    expect(errors).toContain('<a href="#f-new_password">New password: Choose a new password of at least 10 characters.</a>');
    expect(errors).toContain('<a href="#f-confirm_password">New password again: The two passwords differ. Type the same one twice.</a>');
    expect(errors).toContain('<p id="f-confirm_password-error" class="field-error">');
    expect(errors).not.toMatch(/short-pw|other-pw/);

    const done = await browser.request('/account/password-reset', {
      form: { token, new_password: 'a brand new password', confirm_password: 'a brand new password' },
    });
    expect(done.status).toBe(303);
    expect(await browser.page(done.headers.get('location')!)).toContain('Your password is changed.');

    // The session and the connected application ended; only the new password signs in.
    const settings = await session.request('/account/settings');
    expect(settings.status).toBe(303);
    expect(settings.headers.get('location')).toMatch(/^\/account\/login/);
    const grants = await stack.graphql<{ assistantGrants: { active: boolean; revokedReason: string }[] }>(
      'query { assistantGrants(member: "reset-ines@atelier-nord.example") { active revokedReason } }',
    );
    expect(grants.assistantGrants).toEqual([{ active: false, revokedReason: 'password_changed' }]);
    const fresh = new TestBrowser(stack);
    await fresh.signIn('reset-ines@atelier-nord.example', 'a brand new password');
    expect(fresh.cookie(SESSION)).toBeDefined();

    const again = await browser.request(link!);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('does not work any more');
  });

  it('refuses a malformed address on the form, and spends the sign-in budgets of the address', async () => {
    const browser = new TestBrowser(stack);
    const bad = await ask(browser, 'not an address');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<a href="#f-email">Email: Enter an email address, like name@example.org.</a>');
    expect(bad.text).toContain('value="not an address"');
    const before = inbox.received.length;
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points; i++) {
      expect((await ask(browser, 'bo@atelier-nord.example')).status).toBe(200);
    }
    const refused = await ask(browser, 'bo@atelier-nord.example');
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many attempts');
    expect(inbox.received.length).toBe(before);
  });

  it('refuses a form posted from another site', async () => {
    const res = await new TestBrowser(stack).request('/account/password-reset/request', {
      form: { email: 'reset-ines@atelier-nord.example' },
    });
    expect(res.status).toBe(403);
  });
});
