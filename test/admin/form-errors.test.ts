// Every mistake of a form at once, each worded for a person: the webhook destination form, the
// API key form and the password-change form, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hidden, PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const ORG = 'juniper-green';
const WEBHOOKS = `/admin/orgs/${ORG}/webhooks`;
const KEYS = `/admin/orgs/${ORG}/keys`;

let stack: Stack;
let browser: TestBrowser;

const csrfFor = (html: string, action: string) => hidden(html.slice(html.indexOf(`action="${action}"`)), 'csrf');
/** The sentences of the error summary, in order. */
const summary = (html: string) =>
  [...(/<div class="error-summary"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '').matchAll(/<li>(?:<a [^>]+>)?([^<]+)/g)].map((m) =>
    m[1]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"'),
  );

beforeAll(async () => {
  stack = await startStack();
  const email = 'form-errors@juniper-green.example';
  await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
    input: { email, name: 'Fern', password: PASSWORD, organizationId: ORG, role: 'admin' },
  });
  browser = new TestBrowser(stack);
  await browser.signIn(email, PASSWORD, '/admin');
});
afterAll(() => stack?.close());

describe('forms report every error at once, in plain words', () => {
  it('the webhook destination form', async () => {
    const list = await browser.page(WEBHOOKS);
    const res = await browser.request(WEBHOOKS, {
      form: { csrf: csrfFor(list, WEBHOOKS), name: 'n'.repeat(120), format: 'xml', url: 'hooks.example.com', language: 'en', scope: 'own' },
    });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(summary(html)).toEqual([
      'Name: Keep the name to 100 characters or fewer (it has 120).',
      'Format: Choose one of the formats.',
      'URL: Enter the full address of the receiver, starting with https://, such as https://hooks.example.com/packline.',
      'Event kinds: Choose at least one event kind.',
    ]);
    // Each error beside its field too, and what was typed kept.
    expect(html).toContain(
      '<p id="f-kinds-error" class="field-error"><span class="visually-hidden">Error: </span>Choose at least one event kind.</p>',
    );
    expect(html).toContain('value="hooks.example.com"');
    expect(html).not.toMatch(/must be one of|must name at least one/);
  });

  it('the API key form', async () => {
    const list = await browser.page(KEYS);
    const res = await browser.request(KEYS, { form: { csrf: csrfFor(list, KEYS), name: '  ', expires_on: '2020-01-01' } });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(summary(html)).toEqual([
      'Name: Enter a name for the key, such as the system that uses it.',
      'Scopes: Choose at least one scope.',
      'Expires on: Choose an expiry date after today.',
    ]);
    expect(html).not.toMatch(/expires_at|must be in the future/);
    // Nothing was created.
    expect(await browser.page(KEYS)).toContain('No key yet.');
  });

  it('the password-change form, never refilling a password', async () => {
    const settings = await browser.page('/account/settings');
    const res = await browser.request('/account/password', {
      form: { csrf: csrfFor(settings, '/account/password'), current_password: '', new_password: 'short-pw' },
    });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(summary(html)).toEqual([
      'Current password: Enter your current password.',
      'New password: Choose a new password of at least 10 characters.',
    ]);
    expect(html).toContain('aria-invalid="true"');
    expect(html).not.toContain('short-pw');
    // A wrong current password, refused by the service after the form's own check, in plain words.
    const again = await browser.follow('/account/password', {
      form: { csrf: csrfFor(settings, '/account/password'), current_password: 'not the password', new_password: 'long enough now' },
    });
    expect(summary(await again.res.text())).toEqual(['Current password: The current password is not right. Nothing changed.']);
  });
});
