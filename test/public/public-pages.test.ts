// The public pages behind the links Packline hands out: what they show (public fields only, with
// Open Graph tags and JSON-LD), what they hide (a missing or non-public resource is an HTML 404),
// and how they stay fresh (the REST API's cache tags).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import {
  cancelEvent,
  createEvent,
  createKey,
  createNeedDraft,
  createOrganization,
  DAY_MS,
  expectOk,
  makeNeedPrivate,
  publishNeed,
  updateNeed,
  withdrawNeed,
  type OpportunityBody,
} from '../rest/helpers.ts';

/** Every key a page's JSON-LD may carry: schema.org terms for the REST representation's public fields. */
const JSON_LD_KEYS = new Set([
  '@context',
  '@type',
  '@id',
  '@reverse',
  'url',
  'name',
  'description',
  'sameAs',
  'logo',
  'address',
  'knowsAbout',
  'validFrom',
  'validThrough',
  'areaServed',
  'itemOffered',
  'serviceType',
  'seeks',
  'addressLocality',
  'addressRegion',
  'addressCountry',
  'startDate',
  'endDate',
  'eventStatus',
  'eventAttendanceMode',
  'location',
  'organizer',
]);

type JsonLd = { [key: string]: unknown } & { address?: unknown };

interface Page {
  status: number;
  headers: Headers;
  text: string;
}

describe('public pages', () => {
  let stack: Stack;
  let orgId: string;

  beforeAll(async () => {
    stack = await startStack({ demo: false });
    orgId = await createOrganization(stack, 'clan', 'Atelier Public');
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** The page at a link the service handed out (on PUBLIC_BASE_URL), fetched from this stack. */
  async function open(link: string, headers: Record<string, string> = {}): Promise<Page> {
    const path = link.startsWith(PUBLIC_BASE_URL) ? link.slice(PUBLIC_BASE_URL.length) : link;
    const res = await fetch(`${stack.origin}${path}`, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  const meta = (page: Page, property: string) =>
    new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)">`).exec(page.text)?.[1];

  function jsonLd(page: Page): JsonLd {
    const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page.text);
    expect(match, 'a JSON-LD block').not.toBeNull();
    const value = JSON.parse(match![1]!) as JsonLd;
    const keys = (v: unknown): string[] =>
      v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [...(Array.isArray(v) ? [] : [k]), ...keys(x)]) : [];
    expect(keys(value).filter((k) => !JSON_LD_KEYS.has(k))).toEqual([]);
    return value;
  }

  function expectNotFound(page: Page) {
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Page not found</h1>');
    expect(page.text).not.toContain('application/ld+json');
  }

  async function restOpportunity(id: string) {
    const { key } = await createKey(stack, orgId, ['opportunities:read']);
    return expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`, { key }));
  }

  it('serves a home page that says what this is and links to the API reference, the connectors and sign-in', async () => {
    const page = await open('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const link of ['href="/api/v1/docs"', 'href="/faq"', 'href="/account/login"', `${PUBLIC_BASE_URL}/mcp`])
      expect(page.text).toContain(link);
    expect(meta(page, 'og:url')).toBe(`${PUBLIC_BASE_URL}/`);
  });

  it("serves an organization's profile_url with its public fields, Open Graph tags and Organization JSON-LD", async () => {
    const page = await open(`${PUBLIC_BASE_URL}/organizations/${orgId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Atelier Public</h1>');
    expect(meta(page, 'og:title')).toBe('Atelier Public');
    expect(meta(page, 'og:url')).toBe(`${PUBLIC_BASE_URL}/organizations/${orgId}`);
    const ld = jsonLd(page);
    expect(ld).toMatchObject({ '@type': 'Organization', name: 'Atelier Public', url: `${PUBLIC_BASE_URL}/organizations/${orgId}` });
    expect(ld.address).toEqual({ '@type': 'PostalAddress', addressLocality: 'Ghent', addressCountry: 'BE' });
    // The plan is administrative: never on the page.
    expect(page.text.replaceAll(orgId, '')).not.toMatch(/\bclan\b/i);
  });

  it('answers an HTML 404 for an unknown, unlisted or malformed organization', async () => {
    expectNotFound(await open('/organizations/nobody-here'));
    const unlisted = await createOrganization(stack, 'base', 'Hidden Studio');
    await stack.graphql(`mutation ($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { id } }`, {
      id: unlisted,
      input: { listed: false },
    });
    const page = await open(`/organizations/${unlisted}`);
    expectNotFound(page);
    expect(page.text).not.toContain('Hidden Studio');
    expectNotFound(await open('/organizations/%E0%A4%A'));
    expect((await open('/organizations/')).status).toBe(404);
  });

  it("serves an opportunity's url as a Demand, the same link the REST API hands out", async () => {
    const id = await publishNeed(stack, {
      organizationId: orgId,
      title: 'Timber survey <b>team</b>',
      requiredExpertise: ['surveying', 'timber'],
      city: 'Lille',
      country: 'FR',
    });
    const api = await restOpportunity(id);
    const page = await open(api.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Timber survey &lt;b&gt;team&lt;/b&gt;</h1>');
    expect(meta(page, 'og:url')).toBe(api.url);
    const ld = jsonLd(page);
    expect(ld).toMatchObject({
      '@type': 'Demand',
      url: api.url,
      name: 'Timber survey <b>team</b>',
      validFrom: api.published_at,
      itemOffered: { '@type': 'Service', serviceType: ['surveying', 'timber'] },
      '@reverse': { seeks: { '@type': 'Organization', name: 'Atelier Public' } },
    });
    expect(page.text).not.toContain('<b>team');
  });

  it('hides drafts, private and withdrawn needs behind the same 404', async () => {
    const draft = await createNeedDraft(stack, { organizationId: orgId, title: 'Draft need' });
    expectNotFound(await open(`/opportunities/${draft}`));
    const hidden = await publishNeed(stack, { organizationId: orgId, title: 'Soon private' });
    expect((await open(`/opportunities/${hidden}`)).status).toBe(200);
    await makeNeedPrivate(stack, hidden);
    expectNotFound(await open(`/opportunities/${hidden}`));
    const gone = await publishNeed(stack, { organizationId: orgId, title: 'Soon withdrawn' });
    expect((await open(`/opportunities/${gone}`)).status).toBe(200);
    await withdrawNeed(stack, gone);
    expectNotFound(await open(`/opportunities/${gone}`));
  });

  it('is retired from the cache by the changes that retire the REST answer, and revalidates with its ETag', async () => {
    const id = await publishNeed(stack, { organizationId: orgId, title: 'Before the change' });
    const first = await open(`/opportunities/${id}`);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect((await open(`/opportunities/${id}`, { 'if-none-match': etag })).status).toBe(304);
    await updateNeed(stack, id, { title: 'After the change' });
    const changed = await open(`/opportunities/${id}`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('<h1>After the change</h1>');
    // The organization's name is on the page: renaming it retires the page too.
    await stack.graphql(`mutation ($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { id } }`, {
      id: orgId,
      input: { name: 'Atelier Renamed' },
    });
    expect((await open(`/opportunities/${id}`)).text).toContain('<strong>Atelier Renamed</strong>');
    await stack.graphql(`mutation ($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { id } }`, {
      id: orgId,
      input: { name: 'Atelier Public' },
    });
  });

  it("serves an event's url as an Event, without its host's internal fields, and a 404 once cancelled", async () => {
    const startsAt = new Date(Date.now() + 7 * DAY_MS);
    const id = await createEvent(stack, {
      organizationId: orgId,
      title: 'Open studio',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      city: 'Ghent',
      country: 'BE',
      hostContactEmail: 'host-secret@example.org',
      hostNotes: 'internal-note-7f3a',
    });
    const page = await open(`${PUBLIC_BASE_URL}/events/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('host-secret@example.org');
    expect(page.text).not.toContain('internal-note-7f3a');
    expect(jsonLd(page)).toMatchObject({
      '@type': 'Event',
      name: 'Open studio',
      startDate: startsAt.toISOString(),
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', address: { addressLocality: 'Ghent', addressCountry: 'BE' } },
      organizer: { '@type': 'Organization', name: 'Atelier Public' },
    });
    expect(meta(page, 'og:title')).toBe('Open studio');
    await cancelEvent(stack, id);
    expectNotFound(await open(`/events/${id}`));
    expectNotFound(await open('/events/ev_none'));
  });

  it('answers only GET and HEAD', async () => {
    const res = await fetch(`${stack.origin}/`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${stack.origin}/organizations/${orgId}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('public pages with PUBLIC_SITE_URL', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ demo: false, env: { PUBLIC_SITE_URL: 'https://www.platform.example/' } });
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('redirects every public address to the same path on the platform site', async () => {
    for (const path of ['/', '/organizations/atelier-nord', '/opportunities/n_1', '/events/ev_1']) {
      const res = await fetch(`${stack.origin}${path}?utm=x`, { redirect: 'manual' });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(`https://www.platform.example${path}`);
    }
  });
});
