// The team-chat connection flow end to end over real HTTP, against a local stand-in provider:
// the CLI prints the authorize address, the provider sends the admin back, the callback trades
// the code for the channel's incoming URL and keeps only that, sealed.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runCli, runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createOrganization } from '../support/webhooks.ts';
import { CLIENT_ID, StandInProvider } from './team-chat-provider.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

const ORG = 'chat-co';
const CALLBACK = `${PUBLIC_BASE_URL}/integrations/team-chat/callback`;

describe('team-chat connection flow', () => {
  let stack: Stack;
  let provider: StandInProvider;

  beforeAll(async () => {
    provider = await new StandInProvider().start();
    stack = await startStack({ env: { ...WEBHOOK_TEST_ENV, ...provider.env }, demo: false });
    await createOrganization(stack, ORG, 'clan');
  });
  afterAll(async () => {
    await stack?.close();
    await provider?.close();
  });

  const destinations = async () =>
    (
      await stack.graphql<QueryData<'webhookDestinations'>>(
        'query($org: ID!) { webhookDestinations(organizationId: $org) { id format url language kinds scope connectedVia status } }',
        { org: ORG },
      )
    ).webhookDestinations as {
      id: string;
      format: string;
      url: string;
      language: string;
      kinds: string[];
      scope: string;
      connectedVia: string;
    }[];

  /** `destinations connect-team-chat` through the real CLI: the address an admin would open. */
  async function begin(...flags: string[]): Promise<string> {
    const out = await runJson<{ authorize_url: string; expires_at: string }>(
      ['destinations', 'connect-team-chat', '--org', ORG, ...flags],
      stack.env,
    );
    expect(Date.parse(out.expires_at)).toBeGreaterThan(Date.now());
    return out.authorize_url;
  }

  /** The admin's browser: opens the authorize address and follows the provider back to the callback. */
  async function consent(authorizeUrl: string): Promise<{ callback: string; res: Response; page: string }> {
    const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(atProvider.status, await atProvider.clone().text()).toBe(302);
    const location = atProvider.headers.get('location')!;
    expect(location.startsWith(`${CALLBACK}?`)).toBe(true);
    // The public base URL is the service's address as integrators see it; here, the test's port.
    const callback = `${stack.origin}${location.slice(PUBLIC_BASE_URL.length)}`;
    const res = await fetch(callback, { redirect: 'manual' });
    return { callback, res, page: await res.text() };
  }

  it('asks only for the incoming-webhook permission, with the callback and a one-time state', async () => {
    const url = new URL(await begin());
    expect(`${url.origin}${url.pathname}`).toBe(provider.authorizeUrl);
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'redirect_uri', 'scope', 'state']);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('scope')).toBe('incoming-webhook');
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('creates a team-chat destination from the provider answer, keeping the URL sealed and the token nowhere', async () => {
    provider.mode = 'grant';
    const { callback, res, page } = await consent(
      await begin('--language', 'fr', '--kinds', 'need.created,event.created', '--scope', 'own'),
    );
    expect(res.status, page).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const created = (await destinations()).at(-1)!;
    // The channel name comes from the provider: escaped on the page.
    expect(page).toContain(`Connected: #ops &lt;b&gt;&amp; → destination ${created.id}`);
    expect(page).not.toContain('<b>');
    expect(created).toMatchObject({
      format: 'team-chat',
      connectedVia: 'oauth',
      language: 'fr',
      kinds: ['need.created', 'event.created'],
      scope: 'own',
      status: 'active',
    });
    const hook = provider.hooks.at(-1)!;
    expect(created.url).toContain('••••');
    expect(created.url).not.toBe(hook);
    expect(created.url.startsWith(provider.origin)).toBe(true);

    // The stored URL works: a test signal reaches the channel's incoming webhook.
    await runJson(['destinations', 'test', created.id], stack.env);
    const message = JSON.parse(await provider.waitForPost(hook)) as { text?: string; blocks?: unknown[] };
    expect(message.blocks?.length).toBeGreaterThan(0);

    // The access token and the full incoming URL appear in no row, no database file and no log line.
    const token = provider.tokens.at(-1)!;
    const dump = await databaseDump(stack);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(hook);
    expect(stack.logs.join('\n')).not.toContain(token);
    expect(stack.logs.join('\n')).not.toContain(new URL(callback).searchParams.get('code')!);
    if (!stack.env.DATABASE_URL) expect(filesContaining(stack.env.DATA_DIR!, token)).toEqual([]);
  });

  it('refuses a replayed state with 400 before calling the provider again', async () => {
    provider.mode = 'grant';
    const { callback, res } = await consent(await begin());
    expect(res.status).toBe(200);
    const count = (await destinations()).length;
    const calls = provider.tokenCalls;
    const replay = await fetch(callback);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/unknown or expired; start again/);
    expect(provider.tokenCalls).toBe(calls);
    const forged = await fetch(`${stack.origin}/integrations/team-chat/callback?code=anything&state=forged`);
    expect(forged.status).toBe(400);
    const incomplete = await fetch(`${stack.origin}/integrations/team-chat/callback?state=only`);
    expect(incomplete.status).toBe(400);
    expect((await destinations()).length).toBe(count);
  });

  it('a flow started from the administration pages ends only in the browser that started it, once', async () => {
    provider.mode = 'grant';
    const email = 'chat-admin@chat-co.example';
    await stack.graphql<MutationData<'createMember'>>('mutation($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email, name: 'Chat Admin', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
    const admin = new TestBrowser(stack);
    await admin.signIn(email, PASSWORD, '/admin');
    const list = await admin.page(`/admin/orgs/${ORG}/webhooks`);
    const action = `/admin/orgs/${ORG}/webhooks/team-chat`;
    const csrf = /name="csrf" value="([^"]+)"/.exec(list.slice(list.indexOf(`action="${action}"`)))![1]!;
    const started = await admin.request(action, { form: { csrf, language: 'en', kinds: 'need.created', scope: 'platform' } });
    expect(started.status).toBe(303);
    const atProvider = await fetch(started.headers.get('location')!, { redirect: 'manual' });
    const callback = atProvider.headers.get('location')!;
    expect(callback.startsWith(`${CALLBACK}?`)).toBe(true);
    const count = (await destinations()).length;
    const calls = provider.tokenCalls;

    // The victim's callback opened elsewhere: no session, or another member's session.
    const elsewhere = await fetch(`${stack.origin}${callback.slice(PUBLIC_BASE_URL.length)}`);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('started in another browser');
    const otherEmail = 'other-admin@chat-co.example';
    await stack.graphql<MutationData<'createMember'>>('mutation($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: otherEmail, name: 'Other Admin', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
    const other = new TestBrowser(stack);
    await other.signIn(otherEmail, PASSWORD, '/admin');
    const otherSession = await other.request(callback);
    expect(otherSession.status).toBe(400);
    expect(provider.tokenCalls).toBe(calls);
    expect((await destinations()).length).toBe(count);

    // The admin's own browser finishes it, once.
    const own = await admin.request(callback);
    const page = await own.text();
    expect(own.status, page).toBe(200);
    expect(page).toContain('Connected:');
    expect((await destinations()).length).toBe(count + 1);
    const replay = await admin.request(callback);
    expect(replay.status).toBe(400);
    expect((await destinations()).length).toBe(count + 1);
  });

  it('answers 502 when the provider fails or refuses the code, and creates nothing', async () => {
    const count = (await destinations()).length;
    for (const mode of ['token-500', 'token-refused'] as const) {
      provider.mode = mode;
      const { res, page } = await consent(await begin());
      expect(res.status, `${mode}: ${page}`).toBe(502);
      expect(page).toMatch(/did not complete the connection/);
    }
    expect((await destinations()).length).toBe(count);
    expect(stack.logs.some((line) => line.includes('team-chat code exchange failed'))).toBe(true);
  });

  it('answers 400 when the provider hands out a URL the destination policy refuses', async () => {
    provider.mode = 'bad-url';
    const count = (await destinations()).length;
    const { res, page } = await consent(await begin());
    expect(res.status).toBe(400);
    expect(page).toMatch(/Connection failed/);
    expect((await destinations()).length).toBe(count);
  });

  it('shows a page when the admin refuses consent', async () => {
    provider.mode = 'deny';
    const count = (await destinations()).length;
    const calls = provider.tokenCalls;
    const { res, page } = await consent(await begin());
    expect(res.status).toBe(200);
    expect(page).toMatch(/<h1>Connection refused<\/h1>/);
    expect(page).toContain('access_denied');
    expect(provider.tokenCalls).toBe(calls);
    expect((await destinations()).length).toBe(count);
  });

  it('keeps manual entry of an incoming URL possible', async () => {
    const data = await stack.graphql<MutationData<'createWebhookDestination'>>(
      'mutation($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { destination { format connectedVia } } }',
      { input: { organizationId: ORG, format: 'team-chat', url: `${provider.origin}/services/manual/entry/0123456789` } },
    );
    expect(data.createWebhookDestination.destination).toEqual({ format: 'team-chat', connectedVia: 'manual' });
  });
});

describe('team-chat connection flow, not configured', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
    await createOrganization(stack, ORG, 'clan');
  });
  afterAll(() => stack?.close());

  it('answers 404 with a page, and the CLI refuses with exit 1', async () => {
    const res = await fetch(`${stack.origin}/integrations/team-chat/callback?code=c&state=s`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/not configured/);
    const cli = await runCli(['destinations', 'connect-team-chat', '--org', ORG], {
      ...stack.env,
      TEAM_CHAT_CLIENT_ID: undefined,
      TEAM_CHAT_CLIENT_SECRET: undefined,
      TEAM_CHAT_AUTHORIZE_URL: undefined,
      TEAM_CHAT_TOKEN_URL: undefined,
    });
    expect(cli.code).toBe(2); // usage: the configuration lacks the flow
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toMatch(/^error: The team-chat connection flow is not configured/);
  });
});

/**
 * Files under `dir` holding `text`, searched by another process: opening and closing the SQLite
 * file in this one would drop the server's POSIX locks on it (SQLite's documented pitfall).
 */
function filesContaining(dir: string, text: string): string[] {
  const grep = spawnSync('grep', ['-rlaF', '--', text, dir], { encoding: 'utf8' });
  if (grep.status === 1) return [];
  if (grep.status !== 0) throw new Error(`grep failed: ${grep.stderr}`);
  return grep.stdout.split('\n').filter((line) => line !== '');
}

/** Every row of every table, as text. */
async function databaseDump(stack: Stack): Promise<string> {
  const connection = stack.app.core.db.em.fork().getConnection();
  const postgres = Boolean(stack.env.DATABASE_URL);
  const tables = await connection.execute<{ name: string }[]>(
    postgres
      ? "select table_name as name from information_schema.tables where table_schema = 'public'"
      : "select name from sqlite_master where type = 'table'",
  );
  const parts: string[] = [];
  for (const { name } of tables) parts.push(JSON.stringify(await connection.execute(`select * from "${name}"`)));
  return parts.join('\n');
}
