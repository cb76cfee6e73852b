// Every kind of link Packline hands out answers: collected from the real answers (the REST API,
// both assistant connectors, GraphQL), each is requested from the running app. Public pages answer
// 200 HTML with the link's anchor on them; a member's own pages ask for sign-in, and answer once
// the member is signed in.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainServiceOutput } from '../../facades/mcp/public/explain-service.tool.ts';
import type { SearchOrganizationsOutput } from '../../facades/mcp/public/search-organizations.tool.ts';
import type { SearchOutput } from '../../facades/mcp/public/search.tool.ts';
import { connectMember, mcpClient, setPassword, TestBrowser } from '../mcp/member-client.ts';
import { call, connectPublic, ok } from '../mcp/public-client.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';

const TOM = 'tom@atelier-nord.example';

/** A link and where it came from, for the failure message. */
interface HandedOut {
  kind: string;
  link: string;
}

type List<T> = { data: T[] };

describe('links Packline hands out', () => {
  let stack: Stack;
  let publicMcp: Client;
  let memberMcp: Client;
  let browser: TestBrowser;
  const links: HandedOut[] = [];
  const add = (kind: string, ...found: string[]) => {
    for (const link of found) links.push({ kind, link });
  };

  beforeAll(async () => {
    stack = await startStack();
    publicMcp = await connectPublic(stack);
    await setPassword(stack, TOM);
    browser = new TestBrowser(stack);
    memberMcp = await mcpClient(stack, await connectMember(stack, TOM, browser));

    const rest = async <T>(path: string) => {
      const res = await stack.get(path);
      expect(res.status, `GET ${path}`).toBe(200);
      return (await res.json()) as T;
    };
    add('REST organization profile_url', (await rest<{ profile_url: string }>('/organization')).profile_url);
    add('REST opportunity url', ...(await rest<List<{ url: string }>>('/opportunities?limit=50')).data.map((o) => o.url));
    add('REST event url', ...(await rest<List<{ url: string }>>('/events?limit=50')).data.map((e) => e.url));

    const directory = ok<SearchOrganizationsOutput>(await call(publicMcp, 'search_organizations', { limit: 50 }));
    add('MCP organization profile_url', ...directory.organizations.map((o) => o.profile_url));
    for (const query of ['webhook signature', 'atelier']) {
      add('MCP search url', ...ok<SearchOutput>(await call(publicMcp, 'search', { query })).results.map((r) => r.url));
    }
    const explained = ok<ExplainServiceOutput>(await call(publicMcp, 'explain_service', { question: 'How do I page through results?' }));
    add('MCP FAQ url', ...explained.answers.flatMap((a) => [a.url, a.faq_url]));

    const faq = await stack.graphql<{ faqEntries: { url: string; faqUrl: string }[] }>('{ faqEntries { url faqUrl } }');
    add('FAQ entry url', ...faq.faqEntries.map((e) => e.url));
    add('FAQ entry faqUrl', ...faq.faqEntries.map((e) => e.faqUrl));

    const account = await memberMcp.callTool({ name: 'my_account', arguments: {} });
    const me = account.structuredContent as { profile_url: string; organizations: { profile_url: string }[] };
    add('member profile_url', me.profile_url);
    add('member organization profile_url', ...me.organizations.map((o) => o.profile_url));
    const invitations = await memberMcp.callTool({ name: 'my_invitations', arguments: {} });
    const pending = (invitations.structuredContent as { invitations: { url: string; opportunity: { url: string } | null }[] }).invitations;
    expect(pending.length, 'the demo data invites Tom to a team').toBeGreaterThan(0);
    add('member team invitation url', ...pending.map((i) => i.url));
    add('member team invitation opportunity url', ...pending.flatMap((i) => (i.opportunity ? [i.opportunity.url] : [])));
  }, 120_000);

  afterAll(async () => {
    await memberMcp?.close();
    await publicMcp?.close();
    await stack?.close();
  });

  /** The answer at a link, from this stack, without following redirects and without a session. */
  const open = (url: URL) => fetch(`${stack.origin}${url.pathname}${url.search}`, { redirect: 'manual' });

  it('collects every kind, each on the public base address', () => {
    const kinds = new Set(links.map((l) => l.kind));
    expect([...kinds].sort()).toEqual(
      [
        'FAQ entry faqUrl',
        'FAQ entry url',
        'MCP FAQ url',
        'MCP organization profile_url',
        'MCP search url',
        'REST event url',
        'REST opportunity url',
        'REST organization profile_url',
        'member organization profile_url',
        'member profile_url',
        'member team invitation opportunity url',
        'member team invitation url',
      ].sort(),
    );
    for (const { kind, link } of links) expect(new URL(link).origin, `${kind}: ${link}`).toBe(PUBLIC_BASE_URL);
  });

  it('answers every public link with its page, and the anchor is on it', async () => {
    const docsAnchors = await referenceAnchors();
    for (const { kind, link } of links) {
      const url = new URL(link);
      if (url.pathname.startsWith('/account/')) continue;
      const page = await pageAt(url);
      const what = `${kind}: ${link}`;
      expect(page.status, what).toBe(200);
      expect(page.type, what).toMatch(url.pathname.endsWith('.json') ? /^application\/json/ : /^text\/html/);
      if (url.hash === '') continue;
      const anchor = decodeURIComponent(url.hash.slice(1));
      // The reference's headings get their ids in the browser, from the OpenAPI description.
      if (url.pathname === '/api/v1/docs') expect(docsAnchors, what).toContain(anchor);
      else expect(page.text, what).toContain(` id="${anchor}"`);
    }
  });

  it("sends a member's own links to sign-in, and shows them to the member once signed in", async () => {
    const own = links.filter((l) => new URL(l.link).pathname.startsWith('/account/'));
    expect(own.map((l) => l.kind)).toEqual(expect.arrayContaining(['member profile_url', 'member team invitation url']));
    for (const { kind, link } of own) {
      const url = new URL(link);
      const anonymous = await open(url);
      expect(anonymous.status, `${kind}: ${link}`).toBe(303);
      expect(anonymous.headers.get('location'), `${kind}: ${link}`).toMatch(/^\/account\/login\?return_to=/);
      expect(await browser.page(link)).toContain('Tom Lefèvre');
    }
  });

  /** Each address's answer, requested once however many links lead there. */
  const pages = new Map<string, Promise<{ status: number; type: string; text: string }>>();
  function pageAt(url: URL) {
    const key = `${url.pathname}${url.search}`;
    let page = pages.get(key);
    if (!page) {
      page = open(url).then(async (r) => ({ status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() }));
      pages.set(key, page);
    }
    return page;
  }

  /** The anchors of the API reference: its description's headings, as the page gives them ids. */
  async function referenceAnchors(): Promise<string[]> {
    const doc = (await (await fetch(`${stack.api}/openapi.json`)).json()) as { info: { description: string } };
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replaceAll(' ', '-');
    return [...doc.info.description.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!));
  }
});
