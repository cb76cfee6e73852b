// The address a sign-in leads back to (`return_to`): only a path of this site in printable ASCII
// is followed; CR/LF, characters a header cannot carry, other sites and other pages fall back to
// the account settings. Never a 500, and never a session created by an answer that then fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, hidden, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const HOSTILE = [
  '/admin\r\nSet-Cookie: __Host-pl_member=forged',
  '/account/settings\nLocation: https://evil.example/',
  '/admin/\u4e2d\u6587',
  '/account/caf\u00e9',
  '/admin/\ud83d\ude00',
  '//evil.example/admin',
  'https://evil.example/admin',
  '/admin/../../api/v1/organization',
];

describe('return_to', () => {
  let stack: Stack;
  const email = 'returning@atelier-nord.example';
  beforeAll(async () => {
    stack = await startStack();
    await createMember(stack, email);
  });
  afterAll(() => stack?.close());

  const errorLines = () => stack.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

  it('a sign-in with a hostile return_to signs in and leads to the account settings, never a 500', async () => {
    for (const returnTo of HOSTILE) {
      const browser = new TestBrowser(stack);
      const form = await browser.page(`/account/login?return_to=${encodeURIComponent(returnTo)}`);
      // The form carries the fallback, not the value given.
      expect(hidden(form, 'return_to'), JSON.stringify(returnTo)).toBe('/account/settings');
      // A form posted with the hostile value itself.
      const answer = await browser.request('/account/login', {
        form: { email, password: PASSWORD, return_to: returnTo, csrf: hidden(form, 'csrf') },
      });
      expect(answer.status, JSON.stringify(returnTo)).toBe(303);
      expect(answer.headers.get('location')).toBe('/account/settings');
      expect(browser.cookie(SESSION)).toBeDefined();
      // The session works: the settings page answers for it.
      expect(await browser.page('/account/settings')).toContain(email);
    }
    expect(errorLines()).toEqual([]);
  });

  it('a signed-in member sent to the sign-in page with a hostile return_to goes to the account settings', async () => {
    const browser = new TestBrowser(stack);
    await browser.signIn(email);
    for (const returnTo of HOSTILE) {
      const answer = await browser.request(`/account/login?return_to=${encodeURIComponent(returnTo)}`);
      expect(answer.status, JSON.stringify(returnTo)).toBe(303);
      expect(answer.headers.get('location')).toBe('/account/settings');
    }
    // A path of this site is still followed, normalized.
    const kept = await browser.request(`/account/login?return_to=${encodeURIComponent('/admin/orgs/atelier-nord/../atelier-nord/keys')}`);
    expect(kept.headers.get('location')).toBe('/admin/orgs/atelier-nord/keys');
    expect(errorLines()).toEqual([]);
  });
});
