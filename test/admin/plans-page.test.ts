import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_ALLOWANCES, PLANS } from '../../core/index.ts';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

// The plans page: the three plans from core/plans.ts side by side with the organization's use,
// how a change is made, and the link every limit message carries to it.

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
const csrfFor = (html: string, action: string) => hidden(html.slice(html.indexOf(`action="${action}"`)), 'csrf');

describe('the plans page', () => {
  let stack: Stack;
  let admin: TestBrowser;

  beforeAll(async () => {
    stack = await startStack();
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'pa@cobalt-data.example', name: 'Pa', password: PASSWORD, organizationId: 'cobalt-data', role: 'admin' },
    });
    admin = new TestBrowser(stack);
    await admin.signIn('pa@cobalt-data.example', PASSWORD, '/admin');
  });
  afterAll(() => stack?.close());

  it('compares every plan’s allowances with the current use and says how a change is made', async () => {
    const res = await admin.request('/admin/orgs/cobalt-data/plans');
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain('<h1>Plans</h1>');
    for (const plan of PLANS) {
      const a = PLAN_ALLOWANCES[plan];
      expect(page).toContain(`<td data-label="${plan}">${a.monthlyQuota.toLocaleString('en')}</td>`);
      expect(page).toContain(`<td data-label="${plan}">the newest ${a.retainedDeliveries}</td>`);
    }
    expect(page).toContain('base (yours)');
    expect(page).toContain('packline orgs update YOUR_ORG --plan clan');
    expect(page).toMatch(/API calls per month<\/th>.*<td data-label="You use now">\d+<\/td>/);
    expect(page).toContain('href="/admin/orgs/cobalt-data/plans" aria-current="page"');
  });

  it('links to it from the key list’s limit message', async () => {
    const keys = '/admin/orgs/cobalt-data/keys';
    const form = await (await admin.request(keys)).text();
    const created = await admin.request(keys, {
      form: {
        csrf: csrfFor(form, keys),
        name: 'One',
        scopes: 'events:read',
        expires_on: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      },
    });
    expect(created.status).toBe(303);
    const full = await (await admin.request(keys)).text();
    expect(full).toMatch(
      /Revoke one before creating another, or move to a larger plan\. <a href="\/admin\/orgs\/cobalt-data\/plans">Compare the plans<\/a>/,
    );
  });
});
