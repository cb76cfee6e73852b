import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../core/demo/canaries.ts';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

// The public profile's edit page over HTTP: preview, save, every error at once, who may use it,
// and a preview that shows nothing outside the public representation.

const ORG = 'atelier-nord';
const PAGE = `/admin/orgs/${ORG}/profile`;
/** The keys of the REST representation of an organization: the only ones a preview may show. */
const PUBLIC_KEYS = [
  'capabilities',
  'description',
  'id',
  'logo_url',
  'name',
  'networks',
  'partner_payment',
  'place',
  'profile_url',
  'proofs',
  'sectors',
  'updated_at',
  'website',
];

const unescapeHtml = (s: string) =>
  s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
/** The sentences of the error summary, in order. */
const summary = (page: string) =>
  [...(/<div class="error-summary"[\s\S]*?<\/div>/.exec(page)?.[0] ?? '').matchAll(/<li>(?:<a [^>]+>)?([^<]+)/g)].map((m) =>
    unescapeHtml(m[1]!),
  );
/** The preview's JSON, parsed from the page. */
const previewOf = (page: string) => JSON.parse(unescapeHtml(/<pre>([\s\S]*?)<\/pre>/.exec(page.slice(page.indexOf('preview-title')))![1]!));

describe('public profile edit page', () => {
  let stack: Stack;
  let admin: TestBrowser;

  async function member(email: string, role: 'admin' | 'member') {
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email, name: email.split('@')[0], password: PASSWORD, organizationId: ORG, role },
    });
    const browser = new TestBrowser(stack);
    await browser.signIn(email, PASSWORD, '/admin');
    return browser;
  }

  const stored = async () =>
    (
      await stack.graphql<{ organization: { name: string; website: string | null; sectors: string[]; plan: string; listed: boolean } }>(
        `{ organization(id: "${ORG}") { name website sectors plan listed } }`,
      )
    ).organization;

  beforeAll(async () => {
    stack = await startStack();
    admin = await member('ed@atelier-nord.example', 'admin');
  });
  afterAll(() => stack?.close());

  it('previews the JSON the API would answer, without saving, and nothing private in it', async () => {
    const before = await stored();
    const form = await admin.page(PAGE);
    expect(form).toContain(`value="${before.name}"`);
    const res = await admin.submit(form, PAGE, { action: 'preview', name: 'Atelier Nord Coop', sectors: 'Textile, Repair', country: 'fr' });
    expect(res.status).toBe(200);
    const page = await res.text();
    const json = previewOf(page);
    expect(json.name).toBe('Atelier Nord Coop');
    expect(json.sectors).toEqual(['Textile', 'Repair']);
    expect(json.place.country).toBe('FR');
    expect(Object.keys(json).sort()).toEqual(PUBLIC_KEYS);
    expect(Object.keys(json.partner_payment).sort()).toEqual(['confirmed_rate_percent', 'partners_count']);
    expect(findCanaries(page)).toEqual([]);
    expect(page).not.toMatch(/"(plan|listed|demo|complete|billing_email|internal_notes|created_at)"/);
    expect(page).toContain('value="Atelier Nord Coop"');
    expect((await stored()).name).toBe(before.name);
  });

  it('saves and goes back to the overview (PRG), which shows the new profile', async () => {
    const form = await admin.page(PAGE);
    const res = await admin.submit(form, PAGE, {
      action: 'save',
      name: 'Atelier Nord',
      website: 'https://atelier-nord.example',
      sectors: 'Textile',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/admin/orgs/${ORG}?done=profile`);
    const overview = await admin.page(res.headers.get('location')!);
    expect(overview).toContain('The public profile is saved');
    expect(overview).toContain('https://atelier-nord.example');
    expect(await stored()).toMatchObject({ name: 'Atelier Nord', website: 'https://atelier-nord.example', sectors: ['Textile'] });
  });

  it('shows every error at once in plain words, beside its field, keeps what was typed and saves nothing', async () => {
    const before = await stored();
    const form = await admin.page(PAGE);
    const fields = {
      action: 'save',
      name: ' ',
      website: 'not a site',
      logo_url: 'ftp://logo.example/x.png',
      country: 'France',
      sectors: `Textile, ${'r'.repeat(81)}`,
      city: 'Lille',
    };
    const res = await admin.submit(form, PAGE, fields);
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(summary(page)).toEqual([
      'Name: Enter the name of the organization.',
      'Website: Enter a website address that starts with https://, such as https://example.org.',
      'Logo URL: Enter a logo address that starts with https:// or http://.',
      'Country: Enter the country as its two-letter code, such as FR or GB.',
      'Sectors: Keep each sector to 80 characters or fewer.',
    ]);
    expect(page).toContain(
      '<p id="f-country-error" class="field-error"><span class="visually-hidden">Error: </span>Enter the country as its two-letter code, such as FR or GB.</p>',
    );
    expect(page.match(/aria-invalid="true"/g)).toHaveLength(5);
    for (const typed of ['not a site', 'ftp://logo.example/x.png', 'France', 'Lille']) expect(page).toContain(`value="${typed}"`);
    expect(page).not.toMatch(/must be|must not|ISO 3166/);
    expect(await stored()).toEqual(before);
  });

  it('answers GraphQL callers with the same plain words', async () => {
    const { organizationProfilePreview } = await stack.graphql<{
      organizationProfilePreview: { problems: { field: string; message: string }[] };
    }>(
      `query ($id: ID!, $input: OrganizationPublicProfileChanges!) { organizationProfilePreview(id: $id, input: $input) { problems { field message } } }`,
      { id: ORG, input: { website: 'not a site', country: 'France' } },
    );
    expect(organizationProfilePreview.problems).toEqual([
      { field: 'website', message: 'Enter a website address that starts with https://, such as https://example.org.' },
      { field: 'country', message: 'Enter the country as its two-letter code, such as FR or GB.' },
    ]);
    // An operator's change is refused in the same words, with the same code as before.
    const operator = stack.graphql(`mutation ($id: ID!) { updateOrganization(id: $id, input: { country: "France" }) { id } }`, { id: ORG });
    await expect(operator).rejects.toMatchObject({
      message: 'Enter the country as its two-letter code, such as FR or GB.',
      codes: ['INVALID_INPUT'],
    });
  });

  it('never changes the plan or the listing, whatever the form sends', async () => {
    const before = await stored();
    const form = await admin.page(PAGE);
    const res = await admin.submit(form, PAGE, { action: 'save', name: 'Atelier Nord', plan: 'base', listed: 'false' });
    expect(res.status).toBe(303);
    expect(await stored()).toMatchObject({ plan: before.plan, listed: before.listed });
  });

  it('refuses a member who is not an admin, and a form without its token', async () => {
    const plain = await member('mo@atelier-nord.example', 'member');
    const refused = await plain.request(PAGE);
    expect(refused.status).toBe(403);
    const forged = await plain.request(PAGE, { form: { action: 'save', name: 'Taken over', csrf: 'x' } });
    expect(forged.status).toBe(403);
    const tokenless = await admin.request(PAGE, { form: { action: 'save', name: 'Taken over' } });
    expect(tokenless.status).toBe(403);
    expect((await stored()).name).toBe('Atelier Nord');
  });
});
