// Control characters in the sign-in and password forms (the fuzzer once found `email=%00`): each
// is answered with a page saying what is wrong, never a server failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, hidden, PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const EMAIL = 'controlled@atelier-nord.example';
const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', `a\u0000b@atelier-nord.example`, `${EMAIL}\u0000`];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  await createMember(stack, EMAIL);
});
afterAll(() => stack?.close());

const errorLines = () => stack.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

describe('control characters in password forms', () => {
  it('the sign-in answers 400 with a clear message for a control character in the email or the password', async () => {
    for (const value of CONTROLS) {
      for (const form of [
        { email: value, password: PASSWORD },
        { email: EMAIL, password: value },
        { email: value, password: value },
      ]) {
        const browser = new TestBrowser(stack);
        const page = await browser.page('/account/login');
        const answer = await browser.request('/account/login', {
          form: { ...form, return_to: '/account/settings', csrf: hidden(page, 'csrf') },
        });
        const body = await answer.text();
        expect(answer.status, JSON.stringify(form)).toBe(400);
        expect(body).toContain('must not contain control characters');
      }
    }
    // The member still signs in afterwards.
    await new TestBrowser(stack).signIn(EMAIL);
    expect(errorLines()).toEqual([]);
  });

  it('the raw %00 of the fuzzer is answered, not failed', async () => {
    const browser = new TestBrowser(stack);
    const page = await browser.page('/account/login');
    const csrf = encodeURIComponent(hidden(page, 'csrf'));
    const cookie = [...['__Host-pl_login'].map((n) => `${n}=${browser.cookie(n) ?? ''}`)].join('; ');
    const res = await fetch(`${stack.origin}/account/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://packline.test', cookie },
      body: `email=%00&password=%00&csrf=${csrf}`,
    });
    expect([200, 400]).toContain(res.status);
    expect(errorLines()).toEqual([]);
  });
});
