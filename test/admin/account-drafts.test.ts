import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMember, createMember, mcpClient, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

// The member's drafts page: the needs their assistants drafted through the member connector,
// each with its review link, and no one else's.

describe('drafts on the account pages', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('lists the drafts an assistant prepared for the member, with review links, and only theirs', async () => {
    await createMember(stack, 'dr@atelier-nord.example');
    const browser = new TestBrowser(stack);
    const client = await connectMember(stack, 'dr@atelier-nord.example', browser, 'Drafting Assistant');
    const empty = await (await browser.request('/account/drafts')).text();
    expect(empty).toContain('No draft waiting.');
    const mcp = await mcpClient(stack, client);
    const draft = (await mcp.callTool({ name: 'draft_need', arguments: { title: 'Acoustic survey of the reading rooms' } }))
      .structuredContent as { id: string; review_url: string };
    await mcp.close();

    const res = await browser.request('/account/drafts');
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain('Acoustic survey of the reading rooms');
    expect(page).toContain(`href="${new URL(draft.review_url).pathname}"`);
    expect(page).toContain('Atelier Nord');
    expect(await (await browser.request('/account/settings')).text()).toContain('href="/account/drafts"');
    const review = await browser.request(new URL(draft.review_url).pathname);
    expect(review.status).toBe(200);

    // Another member of the same organization does not see it; a visitor is sent to sign in.
    await createMember(stack, 'ot@atelier-nord.example');
    const other = new TestBrowser(stack);
    await other.signIn('ot@atelier-nord.example', undefined, '/account/drafts');
    expect(await (await other.request('/account/drafts')).text()).not.toContain('Acoustic survey');
    const visitor = await new TestBrowser(stack).request('/account/drafts');
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get('location')).toBe(`/account/login?return_to=${encodeURIComponent('/account/drafts')}`);
  });
});
