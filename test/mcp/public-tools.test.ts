import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NEEDS } from '../../core/demo/demo-data.ts';
import type { ComposeTeamOutput } from '../../facades/mcp/public/compose-team.tool.ts';
import type { ExplainServiceOutput } from '../../facades/mcp/public/explain-service.tool.ts';
import type { FetchOutput } from '../../facades/mcp/public/fetch.tool.ts';
import type { OrganizationJson } from '../../facades/mcp/public/organization-json.ts';
import type { SearchOrganizationsOutput } from '../../facades/mcp/public/search-organizations.tool.ts';
import type { SearchOutput } from '../../facades/mcp/public/search.tool.ts';
import type { QueryData } from '../support/graphql-data.ts';
import { runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import { call, connectPublic, failure, ok, raw, rpcResult, textOf, toolCall } from './public-client.ts';

// Every tool of the public connector over real HTTP with the SDK's own client, against the demo
// data. Each successful structuredContent is also checked against the output schema the tool
// declares (the SDK client checks it as well). Limits are raised: they have their own file.

const TOOLS = ['search_organizations', 'get_organization', 'compose_team', 'explain_service', 'search', 'fetch'];
/** Listed, complete, not demonstration: what the directory shows of the demo data. */
const DISCOVERABLE = [
  'atelier-nord',
  'brightwave-labs',
  'cobalt-data',
  'delta-forge',
  'ember-comms',
  'fjord-legal',
  'juniper-green',
  'kite-translations',
  'lumen-security',
];
/** The structured content of each tool, as its output schema declares it. */
interface Outputs {
  search_organizations: SearchOrganizationsOutput;
  get_organization: OrganizationJson;
  compose_team: ComposeTeamOutput;
  explain_service: ExplainServiceOutput;
  search: SearchOutput;
  fetch: FetchOutput;
}
const HIDDEN = { 'iris-demo': 'demonstration', 'harbor-studio': 'unlisted', 'granite-coop': 'incomplete' };

describe('public assistant connector tools', () => {
  let stack: Stack;
  let client: Client;
  let tools: Tool[];
  const validators = new Map<string, ValidateFunction>();
  const validated = new Set<string>();

  beforeAll(async () => {
    stack = await startStack({ env: { MCP_RATE_LIMIT_PER_MINUTE: '100000', MCP_COMPOSE_LIMIT_PER_HOUR: '100000' } });
    client = await connectPublic(stack);
    tools = (await client.listTools()).tools;
    const ajv = new Ajv({ allErrors: true });
    for (const tool of tools) validators.set(tool.name, ajv.compile(tool.outputSchema!));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  /** Calls a tool expecting success; its structured content, checked against the declared output schema. */
  async function use<N extends keyof Outputs>(name: N, args: Record<string, unknown> = {}): Promise<Outputs[N]> {
    const content = ok<Outputs[N]>(await call(client, name, args));
    const validate = validators.get(name)!;
    expect(validate(content), `${name} output: ${JSON.stringify(validate.errors)}`).toBe(true);
    validated.add(name);
    return content;
  }
  const ids = (out: { organizations: { id: string }[] }) => out.organizations.map((o) => o.id);

  describe('listing', () => {
    it('lists the six tools, each read-only with a description and input and output schemas', () => {
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeGreaterThan(80);
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
        expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
        expect(tool.inputSchema.type).toBe('object');
        expect(Object.keys(tool.inputSchema.properties ?? {}).length, tool.name).toBeGreaterThan(0);
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(Object.keys(tool.outputSchema?.properties ?? {}).length, tool.name).toBeGreaterThan(0);
      }
    });

    it('declares the shapes deep-research clients expect for search and fetch', () => {
      const search = tools.find((t) => t.name === 'search')!;
      expect(search.inputSchema.required).toEqual(['query']);
      expect(Object.keys(search.outputSchema!.properties!)).toEqual(['results']);
      expect(Object.keys((search.outputSchema!.properties!.results as { items: { properties: object } }).items.properties)).toEqual([
        'id',
        'title',
        'url',
      ]);
      const fetchTool = tools.find((t) => t.name === 'fetch')!;
      expect(fetchTool.inputSchema.required).toEqual(['id']);
      expect(Object.keys(fetchTool.outputSchema!.properties!)).toEqual(['id', 'title', 'text', 'url', 'metadata']);
    });
  });

  describe('search_organizations', () => {
    it('lists every discoverable organization, and none other, without criteria', async () => {
      expect(ids(await use('search_organizations', { limit: 50 }))).toEqual(DISCOVERABLE);
    });

    it('finds by capability, synonyms and French included', async () => {
      expect(ids(await use('search_organizations', { capability: 'ux' }))).toEqual(['brightwave-labs']);
      expect(ids(await use('search_organizations', { capability: 'développement web' }))).toEqual(['brightwave-labs']);
      expect(ids(await use('search_organizations', { capability: 'architecture' }))).toEqual(['atelier-nord']);
      expect(ids(await use('search_organizations', { capability: 'translation' }))).toEqual(['ember-comms', 'kite-translations']);
      expect(ids(await use('search_organizations', { capability: 'masonry' }))).toEqual([]);
    });

    it('finds by sector', async () => {
      expect(ids(await use('search_organizations', { sector: 'energy' }))).toEqual(['juniper-green']);
      expect(ids(await use('search_organizations', { sector: 'software' }))).toEqual(['brightwave-labs', 'cobalt-data', 'lumen-security']);
    });

    it('finds by place: city, region, country name or code, and parts together', async () => {
      expect(ids(await use('search_organizations', { place: 'France' }))).toEqual(['atelier-nord', 'cobalt-data', 'ember-comms']);
      expect(ids(await use('search_organizations', { place: 'fr' }))).toEqual(['atelier-nord', 'cobalt-data', 'ember-comms']);
      expect(ids(await use('search_organizations', { place: 'Lyon' }))).toEqual(['cobalt-data']);
      expect(ids(await use('search_organizations', { place: 'Quebec' }))).toEqual(['juniper-green']);
      expect(ids(await use('search_organizations', { place: 'Lille, FR' }))).toEqual(['atelier-nord']);
      expect(ids(await use('search_organizations', { place: 'Lille, Germany' }))).toEqual([]);
      expect(ids(await use('search_organizations', { place: 'Marseille' }))).toEqual([]);
    });

    it('finds by network', async () => {
      expect(ids(await use('search_organizations', { network: 'French Tech' }))).toEqual(['atelier-nord', 'cobalt-data']);
      expect(ids(await use('search_organizations', { network: 'Demo Network' }))).toEqual([]);
    });

    it('ranks a free-text query, and combines it with the other criteria', async () => {
      const ranked = ids(await use('search_organizations', { query: 'translation and localisation' }));
      expect(ranked[0]).toBe('kite-translations');
      expect(ranked).toContain('ember-comms');
      expect(ids(await use('search_organizations', { query: 'machine learning' }))[0]).toBe('cobalt-data');
      expect(ids(await use('search_organizations', { query: 'copywriting', place: 'Belgium' }))).toEqual(['kite-translations']);
      expect(
        ids(await use('search_organizations', { capability: 'copywriting', sector: 'marketing', network: 'Paris&Co', place: 'Paris' })),
      ).toEqual(['ember-comms']);
      expect(await use('search_organizations', { query: 'zeppelin upholstery' })).toEqual({ organizations: [], next_cursor: null });
    });

    it('pages with next_cursor until null, without repeats or gaps, by id and by rank', async () => {
      for (const criteria of [{}, { query: 'design data engineering translation security' }]) {
        const all = ids(await use('search_organizations', { ...criteria, limit: 50 }));
        expect(all.length).toBeGreaterThan(3);
        const seen: string[] = [];
        let cursor: string | null | undefined;
        let pages = 0;
        do {
          const page = await use('search_organizations', { ...criteria, limit: 2, ...(cursor ? { cursor } : {}) });
          expect(page.organizations.length).toBeLessThanOrEqual(2);
          seen.push(...ids(page));
          cursor = page.next_cursor;
          pages++;
        } while (cursor && pages < 20);
        expect(cursor).toBeNull();
        expect(seen).toEqual(all);
        expect(pages).toBe(Math.ceil(all.length / 2));
      }
    });

    it('refuses a cursor of another search, or an altered one, with a readable error', async () => {
      const first = await use('search_organizations', { limit: 2 });
      expect(first.next_cursor).toEqual(expect.any(String));
      const other = failure(await call(client, 'search_organizations', { sector: 'software', limit: 2, cursor: first.next_cursor }));
      expect(other).toMatch(/cursor is not valid for this search: pass next_cursor from the previous page of the same search/);
      const altered = failure(await call(client, 'search_organizations', { limit: 2, cursor: `${first.next_cursor}x` }));
      expect(altered).toMatch(/cursor is not valid/);
    });
  });

  describe('get_organization', () => {
    it('returns the public profile, proofs as counts and partner payment as a rate and a count', async () => {
      const org = await use('get_organization', { id: 'atelier-nord' });
      expect(org).toMatchObject({
        id: 'atelier-nord',
        name: 'Atelier Nord',
        capabilities: ['architecture', 'interior design', '3d modelling', 'project management'],
        place: { city: 'Lille', region: 'Hauts-de-France', country: 'FR' },
        partner_payment: { confirmed_rate_percent: 96, partners_count: 9 },
        proofs: { completed_packs: 14, references: 11, certifications: 2 },
        profile_url: `${PUBLIC_BASE_URL}/organizations/atelier-nord`,
      });
      expect(Object.keys(org.partner_payment)).toEqual(['confirmed_rate_percent', 'partners_count']);
      expect(await use('get_organization', { id: 'org:atelier-nord' })).toEqual(org);
    });

    it.each([...Object.keys(HIDDEN), 'no-such-org'])("answers 'not found' for %s", async (id) => {
      expect(failure(await call(client, 'get_organization', { id }))).toBe(`No organization with id '${id}'`);
    });
  });

  describe('compose_team', () => {
    it('proposes a team for a demo need from its text, deterministically, among discoverable organizations', async () => {
      const need = DEMO_NEEDS.find((n) => n.title === 'Energy audit of a community centre')!;
      const args = { need_text: `${need.title}. ${need.description}`, place: { city: 'Montréal', country: 'CA' } };
      const team = await use('compose_team', args);
      expect(team.required.map((r: { label: string }) => r.label)).toEqual(['energy audit', 'building retrofit']);
      expect(team.members).toEqual([
        expect.objectContaining({ organization_id: 'juniper-green', covers: ['energy audit', 'building retrofit'] }),
      ]);
      expect(team.coverage_percent).toBe(100);
      expect(team.gaps).toEqual([]);
      expect(team.notice).toMatch(/no organization has been contacted/);
      expect(await use('compose_team', args)).toEqual(team);
    });

    it('combines complementary members and names the gaps', async () => {
      const team = await use('compose_team', {
        required_expertise: ['interior design', 'web development', 'machine learning', 'lighting design'],
        remote: true,
      });
      const covers = Object.fromEntries(
        team.members.map((m: { organization_id: string; covers: string[] }) => [m.organization_id, m.covers]),
      );
      expect(covers).toEqual({
        'atelier-nord': ['interior design'],
        'brightwave-labs': ['web development'],
        'cobalt-data': ['machine learning'],
      });
      expect(team.coverage_percent).toBe(75);
      expect(team.gaps).toEqual(['lighting design']);
      for (const member of team.members) expect(Object.keys(HIDDEN)).not.toContain(member.organization_id);
    });

    it('never proposes a hidden organization, even for what only they offer', async () => {
      const team = await use('compose_team', { required_expertise: ['masonry', 'video production', 'motion design'] });
      expect(team.members).toEqual([]);
      expect(team.coverage_percent).toBe(0);
      expect(team.gaps).toEqual(['masonry', 'video production', 'motion design']);
    });

    it('explains when the request names no expertise', async () => {
      expect(failure(await call(client, 'compose_team', { need_text: 'Something nice, soon.' }))).toMatch(
        /Give required expertise or a need text naming some/,
      );
    });
  });

  describe('explain_service', () => {
    it('returns ranked FAQ entries with absolute links', async () => {
      const { answers } = await use('explain_service', { question: 'How do I verify a webhook signature?' });
      expect(answers.length).toBe(3);
      expect(answers[0]).toMatchObject({ id: 'webhook-signature', question: 'How do I verify a webhook signature?' });
      const scores = answers.map((a: { score: number }) => a.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const a of answers) {
        expect(a.url.startsWith(`${PUBLIC_BASE_URL}/`), a.url).toBe(true);
        expect(a.faq_url).toBe(`${PUBLIC_BASE_URL}/faq#${a.id}`);
      }
    });

    it('answers French questions, honours the limit and says nothing when nothing fits', async () => {
      const french = await use('explain_service', { question: 'Combien de clés API actives par offre ?', limit: 1 });
      expect(french.answers.map((a: { id: string }) => a.id)).toEqual(['active-keys-per-plan']);
      expect(await use('explain_service', { question: 'zeppelin upholstery' })).toEqual({ answers: [] });
    });
  });

  describe('search and fetch', () => {
    it('search returns exactly { results: [{ id, title, url }] } over organizations and FAQ entries', async () => {
      const out = await use('search', { query: 'machine learning webhook signature' });
      expect(Object.keys(out)).toEqual(['results']);
      for (const r of out.results) expect(Object.keys(r)).toEqual(['id', 'title', 'url']);
      const found = out.results.map((r: { id: string }) => r.id);
      expect(found).toContain('org:cobalt-data');
      expect(found).toContain('faq:webhook-signature');
      expect(out.results.find((r: { id: string }) => r.id === 'org:cobalt-data')).toEqual({
        id: 'org:cobalt-data',
        title: 'Cobalt Data',
        url: `${PUBLIC_BASE_URL}/organizations/cobalt-data`,
      });
    });

    it('fetch returns exactly { id, title, text, url, metadata } for every search result', async () => {
      const { results } = await use('search', { query: 'translation api key' });
      expect(results.some((r: { id: string }) => r.id.startsWith('org:'))).toBe(true);
      expect(results.some((r: { id: string }) => r.id.startsWith('faq:'))).toBe(true);
      for (const result of results) {
        const doc = await use('fetch', { id: result.id });
        expect(Object.keys(doc)).toEqual(['id', 'title', 'text', 'url', 'metadata']);
        expect(doc).toMatchObject({ id: result.id, title: result.title, url: result.url });
        expect(doc.text.length).toBeGreaterThan(40);
      }
      const org = await use('fetch', { id: 'org:atelier-nord' });
      expect(org.text).toContain('14 completed packs, 11 references, 2 certifications');
      expect(org.metadata).toMatchObject({ type: 'organization', country: 'FR' });
    });

    it('fetch answers a readable error for hidden, unknown and malformed ids', async () => {
      for (const id of Object.keys(HIDDEN))
        expect(failure(await call(client, 'fetch', { id: `org:${id}` }))).toBe(`No organization with id '${id}'`);
      expect(failure(await call(client, 'fetch', { id: 'faq:nope' }))).toBe("No FAQ entry with id 'nope'");
      expect(failure(await call(client, 'fetch', { id: 'atelier-nord' }))).toMatch(/ids look like org:<id> or faq:<id>/);
    });
  });

  describe('bad arguments', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['get_organization', {}, /a value is required at id/],
      ['get_organization', { id: 42 }, /expected a string at id/],
      ['get_organization', { id: 'x'.repeat(200) }, /expected at most 124 characters at id/],
      ['search_organizations', { limit: 500 }, /expected a whole number from 1 to 50 at limit/],
      ['search_organizations', { capabilty: 'ux' }, /Unrecognized key: "capabilty"/],
      ['compose_team', { required_expertise: 'design' }, /expected a list of strings at required_expertise/],
      ['compose_team', { required_expertise: ['design'], max_members: 9 }, /expected a whole number from 1 to 6 at max_members/],
      ['compose_team', { need_text: 'x'.repeat(10_001) }, /expected at most 10000 characters at need_text/],
      ['explain_service', { question: '   ' }, /expected some words at question/],
      ['search', {}, /a value is required at query/],
      ['fetch', { id: '' }, /expected at least 1 character at id/],
    ];
    it.each(cases)('%s %j → a readable tool error', async (name, args, message) => {
      const text = failure(await call(client, name, args));
      expect(text).toMatch(new RegExp(`Invalid arguments for tool ${name}: `));
      expect(text).toMatch(message);
      expect(text).not.toMatch(/\n\s+at |node_modules|ZodError/);
    });

    it('are tool results over HTTP, never a server error', async () => {
      const answer = await raw(stack, { body: toolCall('get_organization', { id: { nested: true } }) });
      expect(answer.status).toBe(200);
      expect(rpcResult(answer)).toMatchObject({ isError: true });
      const unknown = await raw(stack, { body: toolCall('delete_everything', {}) });
      expect(unknown.status).toBe(200);
      expect(textOf(rpcResult(unknown) as CallToolResult)).toMatch(/Tool delete_everything not found/);
    });
  });

  it('reads the same directory through internal GraphQL, hidden organizations excluded', async () => {
    const data = await stack.graphql<QueryData<'directoryOrganizations' | 'composeTeam' | 'faqEntry'>>(`{
      directoryOrganizations(first: 50, filter: { place: "France" }) { edges { node { id listed } } }
      composeTeam(input: { requiredExpertise: ["masonry", "copywriting"] }) { members { organizationId } gaps }
      faqEntry(id: "compose-team") { url faqUrl }
    }`);
    expect(data.directoryOrganizations.edges.map((e) => e.node.id)).toEqual(['atelier-nord', 'cobalt-data', 'ember-comms']);
    expect(data.composeTeam.gaps).toEqual(['masonry']);
    expect(data.faqEntry).toEqual({ url: `${PUBLIC_BASE_URL}/faq#compose-team`, faqUrl: `${PUBLIC_BASE_URL}/faq#compose-team` });
    await expect(stack.graphql('{ directoryOrganization(id: "harbor-studio") { id } }')).rejects.toThrow(
      "No organization with id 'harbor-studio'",
    );
  });

  describe('changes to the directory', () => {
    it('shows a change made in this process at the next call, though the same call was just answered', async () => {
      // Asked first, so the connector keeps these answers: the change must retire them.
      expect((await use('get_organization', { id: 'kite-translations' })).description).not.toBe(
        'Translation, localisation and subtitling.',
      );
      expect(ids(await use('search_organizations', { limit: 50 }))).toContain('kite-translations');
      await stack.graphql(
        `mutation { updateOrganization(id: "kite-translations", input: { description: "Translation, localisation and subtitling." }) { id } }`,
      );
      expect((await use('get_organization', { id: 'kite-translations' })).description).toBe('Translation, localisation and subtitling.');
      await stack.graphql(`mutation { updateOrganization(id: "kite-translations", input: { listed: false }) { id } }`);
      expect(failure(await call(client, 'get_organization', { id: 'kite-translations' }))).toBe(
        "No organization with id 'kite-translations'",
      );
      expect(ids(await use('search_organizations', { limit: 50 }))).not.toContain('kite-translations');
    });

    it('shows a change made by another process (the CLI) within a poll of the change epoch', async () => {
      await runJson(['orgs', 'update', 'kite-translations', '--listed'], stack.env);
      await expect.poll(async () => ids(await use('search_organizations', { limit: 50 }))).toContain('kite-translations');
      await runJson(['orgs', 'update', 'fjord-legal', '--no-listed'], stack.env);
      await expect
        .poll(async () => failure(await call(client, 'get_organization', { id: 'fjord-legal' })))
        .toBe("No organization with id 'fjord-legal'");
    });
  });

  it('checked the structured content of every tool against its output schema', () => {
    expect([...validated].sort()).toEqual([...TOOLS].sort());
  });
});
