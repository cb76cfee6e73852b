// A form posted after its session ended: the sign-in says so, leads back to the form's page and
// refills what was typed, never a secret, and never into another page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hidden, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const ORG = 'juniper-green';
const WEBHOOKS = `/admin/orgs/${ORG}/webhooks`;
const EMAIL = 'resumed@juniper-green.example';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
    input: { email: EMAIL, name: 'Rue', password: PASSWORD, organizationId: ORG, role: 'admin' },
  });
});
afterAll(() => stack?.close());

/** An admin whose session ends between loading the form and sending it; answers the POST. */
async function postAfterSessionEnded(browser: TestBrowser, form: Record<string, string>): Promise<Response> {
  await browser.signIn(EMAIL, PASSWORD, WEBHOOKS);
  const list = await browser.page(WEBHOOKS);
  const csrf = hidden(list.slice(list.indexOf(`action="${WEBHOOKS}"`)), 'csrf');
  browser.setCookie(SESSION, 'ended-session');
  return browser.request(WEBHOOKS, { form: { csrf, ...form } });
}

describe('a session that ends mid-form', () => {
  it('signs in again and comes back to the form, refilled without secrets', async () => {
    const browser = new TestBrowser(stack);
    const typed = {
      name: 'Warehouse feed',
      description: 'Typed before lunch',
      format: 'standard-json',
      url: 'https://hooks.example.com/typed',
      scope: 'own',
    };
    const answer = await postAfterSessionEnded(browser, { ...typed, password: 'never-kept-1', secret: 'never-kept-2' });
    expect(answer.status).toBe(303);
    const login = new URL(answer.headers.get('location')!, 'https://packline.test');
    expect(login.pathname).toBe('/account/login');
    const returnTo = login.searchParams.get('return_to')!;
    expect(returnTo.startsWith(`${WEBHOOKS}?resume=`)).toBe(true);
    // What was typed is encrypted in the address, not readable in logs.
    expect(returnTo).not.toContain('Warehouse');
    const page = await browser.page(`${login.pathname}${login.search}`);
    expect(page).toContain('Your session ended; sign in again to continue.');
    expect(hidden(page, 'return_to')).toBe(returnTo);
    const signedIn = await browser.request('/account/login', {
      form: { email: EMAIL, password: PASSWORD, return_to: returnTo, csrf: hidden(page, 'csrf') },
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(returnTo);
    const form = await browser.page(returnTo);
    expect(form).toContain('<p class="notice" role="status">Your session ended; you signed in again to continue.');
    expect(form).toContain('value="Warehouse feed"');
    expect(form).toContain('>Typed before lunch</textarea>');
    expect(form).toContain('value="https://hooks.example.com/typed"');
    expect(form).not.toMatch(/never-kept/);
    // Nothing was added: the member sends the form again.
    expect(form).toContain('up to 10 destinations (0 in use)');
  });

  it('refills only the page the form was typed on, and ignores a forged or foreign value', async () => {
    const browser = new TestBrowser(stack);
    const answer = await postAfterSessionEnded(browser, { name: 'Only here', format: 'standard-json', url: 'https://hooks.example.com/x' });
    const returnTo = new URL(answer.headers.get('location')!, 'https://packline.test').searchParams.get('return_to')!;
    await browser.signIn(EMAIL, PASSWORD, WEBHOOKS);
    const carried = returnTo.slice(returnTo.indexOf('resume='));
    const keys = await browser.page(`/admin/orgs/${ORG}/keys?${carried}`);
    expect(keys).not.toContain('Only here');
    expect(keys).not.toContain('class="notice"');
    const forged = await browser.page(`${WEBHOOKS}?resume=${'A'.repeat(40)}.${'B'.repeat(40)}.${'C'.repeat(22)}`);
    expect(forged).not.toContain('class="notice"');
    expect(await browser.page(returnTo)).toContain('value="Only here"');
  });
});
