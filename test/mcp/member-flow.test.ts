// The member connector end to end over real HTTP: discovery, dynamic registration, PKCE,
// consent through the real pages, token, tool calls, refresh; the audit log; the draft that
// stays a draft; and a canary scan of every tool output.
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../core/demo/canaries.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { connectMember, MEMBER_URL, mcpClient, setPassword, stackFetch, TestBrowser, type TestOAuthClient } from './member-client.ts';
import type { QueryData } from '../support/graphql-data.ts';

const TOM = 'tom@atelier-nord.example';

let stack: Stack;
let browser: TestBrowser;
let provider: TestOAuthClient;
let client: Client;
const outputs: string[] = [];

/** A tool's answer; `T` is what the test reads of its structured content. */
async function call<T = unknown>(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  outputs.push(JSON.stringify(result));
  return result as { isError?: boolean; structuredContent?: T; content: { type: string; text: string }[] };
}

beforeAll(async () => {
  stack = await startStack();
  await setPassword(stack, TOM);
  browser = new TestBrowser(stack);
  provider = await connectMember(stack, TOM, browser);
  client = await mcpClient(stack, provider);
});

afterAll(async () => {
  await client?.close();
  await stack?.close();
});

describe('discovery', () => {
  it('serves RFC 9728 metadata for /mcp/member and RFC 8414 metadata with S256 only', async () => {
    const prm = await (await stackFetch(stack)(`https://packline.test/.well-known/oauth-protected-resource/mcp/member`)).json();
    expect(prm).toMatchObject({
      resource: MEMBER_URL,
      authorization_servers: ['https://packline.test/'],
      scopes_supported: ['account:read', 'invitations:read', 'needs:draft'],
    });
    const as = await (await stackFetch(stack)('https://packline.test/.well-known/oauth-authorization-server')).json();
    expect(as).toMatchObject({
      issuer: 'https://packline.test/',
      authorization_endpoint: 'https://packline.test/authorize',
      token_endpoint: 'https://packline.test/token',
      registration_endpoint: 'https://packline.test/register',
      revocation_endpoint: 'https://packline.test/revoke',
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });

  it('registers every application as a public client, without a secret', () => {
    expect(provider.info).toMatchObject({ client_name: 'Test Assistant', token_endpoint_auth_method: 'none' });
    expect(provider.info!.client_id).toMatch(/^cli_/);
    expect((provider.info as { client_secret?: string }).client_secret).toBeUndefined();
  });

  it('issued short-lived access tokens and a refresh token', () => {
    expect(provider.stored).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'account:read invitations:read needs:draft' });
    expect(provider.stored!.access_token).toMatch(/^pla_/);
    expect(provider.stored!.refresh_token).toMatch(/^plr_/);
  });

  it('answers a call without a token with 401 and a challenge naming the resource metadata', async () => {
    const res = await fetch(`${stack.origin}/mcp/member`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://packline.test/.well-known/oauth-protected-resource/mcp/member"',
    );
  });
});

describe('tools', () => {
  it('lists exactly the three member tools, none of which publishes', async () => {
    const { tools } = await client.listTools();
    outputs.push(JSON.stringify(tools));
    expect(tools.map((t) => t.name).sort()).toEqual(['draft_need', 'my_account', 'my_invitations']);
    const draft = tools.find((t) => t.name === 'draft_need')!;
    expect(draft.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const t of tools.filter((t) => t.name !== 'draft_need')) expect(t.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.map((t) => t.name).filter((n) => /publish|message|sign|quote|accept/.test(n))).toEqual([]);
  });

  it('my_account reads name, account page and organizations', async () => {
    const result = await call('my_account');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      name: 'Tom Lefèvre',
      profile_url: 'https://packline.test/account/settings',
      organizations: [
        { id: 'atelier-nord', name: expect.any(String), role: 'member', profile_url: 'https://packline.test/organizations/atelier-nord' },
      ],
    });
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it('my_invitations lists pending team invitations only, with where to answer them', async () => {
    const result = await call<{ invitations: unknown[]; note: string }>('my_invitations');
    const { invitations, note } = result.structuredContent!;
    expect(invitations).toHaveLength(1);
    expect(invitations[0]).toMatchObject({
      team_name: 'School extension pack',
      invited_by: { id: 'atelier-nord' },
      url: expect.stringMatching(/^https:\/\/packline\.test\/account\/team-invitations\//),
    });
    expect(note).toMatch(/happens on Packline/);
  });

  it('draft_need creates an unpublished draft and returns the review link', async () => {
    const result = await call<{ id: string; review_url: string }>('draft_need', {
      title: 'Acoustic study for a library',
      description: 'Reading rooms need quieter ceilings.',
      required_expertise: ['acoustics'],
      remote_allowed: true,
    });
    expect(result.isError).toBeFalsy();
    const draft = result.structuredContent!;
    expect(draft).toMatchObject({ title: 'Acoustic study for a library', state: 'draft', organization: { id: 'atelier-nord' } });
    expect(draft.review_url).toBe(`https://packline.test/account/drafts/${draft.id}`);

    const need = await stack.graphql<QueryData<'need'>>('query($id: ID!) { need(id: $id) { admin { state } } }', { id: draft.id });
    expect(need.need!.admin.state).toBe('draft');
    expect((await stack.get(`/opportunities/${encodeURIComponent(draft.id)}`)).status).toBe(404);
    const list = (await (await stack.get('/opportunities?limit=50')).json()) as { data: { id: string }[] };
    expect(list.data.map((n) => n.id)).not.toContain(draft.id);
    const publicList = await stack.graphql<QueryData<'opportunities'>>('{ opportunities(first: 50) { edges { node { id } } } }');
    expect(publicList.opportunities.edges.map((e: { node: { id: string } }) => e.node.id)).not.toContain(draft.id);

    // The review link works for the member in person, and still shows a draft.
    const review = await browser.page(draft.review_url);
    expect(review).toContain('Acoustic study for a library');
    expect(review).toContain('state: <strong>draft</strong>');
  });

  it('refuses to draft for an organization the member does not belong to', async () => {
    const result = await call('draft_need', { title: 'Not mine', organization_id: 'brightwave-labs' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/not a member of the organization 'brightwave-labs'/);
  });

  it('cannot publish: no tool does it, and the draft stays a draft whatever the assistant calls', async () => {
    const unknown = await client
      .callTool({ name: 'publish_need', arguments: {} })
      .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
    expect(unknown.isError).toBe(true);
    const drafts = await stack.graphql<QueryData<'needs'>>(
      '{ needs(first: 50, organizationId: "atelier-nord", state: draft) { edges { node { id title } } } }',
    );
    const mine = drafts.needs.edges.map((e: { node: { title: string } }) => e.node.title);
    expect(mine).toContain('Acoustic study for a library');
  });

  it('writes every call to the audit log, readable by internal GraphQL and on the settings page', async () => {
    const data = await stack.graphql<QueryData<'assistantAuditLog'>>(
      'query($m: String!) { assistantAuditLog(member: $m, first: 50) { tool outcome applicationName grantId at } }',
      { m: TOM },
    );
    const log = data.assistantAuditLog as { tool: string; outcome: string; applicationName: string }[];
    expect(log.map((e) => `${e.tool}:${e.outcome}`)).toEqual([
      'draft_need:forbidden',
      'draft_need:ok',
      'my_invitations:ok',
      'my_account:ok',
    ]);
    expect(new Set(log.map((e) => e.applicationName))).toEqual(new Set(['Test Assistant']));

    const settings = await browser.page('/account/settings');
    expect(settings).toContain('Test Assistant');
    expect(settings).toContain('<code>my_invitations</code>');
    expect(settings).toContain('<code>http://127.0.0.1:47321/callback</code>');
    // Since when, and last used: both dates, not "never".
    expect(settings).toMatch(
      /<td data-label="Application">Test Assistant<\/td>[\s\S]*?<td data-label="Since">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/td><td data-label="Last used">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/td>/,
    );
    expect(settings).toContain('Prepare draft needs for your organizations');
  });

  it('refreshes with rotation: new tokens work, the old access token keeps its short life', async () => {
    const before = provider.stored!;
    expect(await auth(provider, { serverUrl: MEMBER_URL, fetchFn: stackFetch(stack) })).toBe('AUTHORIZED');
    const after = provider.stored!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).not.toBe(before.access_token);
    const result = await call('my_account');
    expect(result.isError).toBeFalsy();
  });

  it('no tool output carries a canary value', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(5);
    for (const text of outputs) expect(findCanaries(text)).toEqual([]);
  });
});
