// Every way a member's consent ends — the settings page's revoke button, a password change, sign
// out everywhere, and the CLI's grants revoke, set-password and sign-out-everywhere — makes the
// very next tool call a 401 carrying the resource metadata challenge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { Browser } from '../../facades/kit/browser.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import {
  connectMember,
  createMember,
  mcpClient,
  PASSWORD,
  rawToolCall,
  SESSION,
  TestBrowser,
  type TestOAuthClient,
} from './member-client.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

/** A member with a password, signed in on a browser, with one connected application whose call works. */
async function connected(local: string) {
  const email = `${local}@atelier-nord.example`;
  await createMember(stack, email);
  const browser = new TestBrowser(stack);
  const client = await connectMember(stack, email, browser, `App of ${local}`);
  await expectCallWorks(client);
  return { email, browser, client };
}

async function expectCallWorks(client: TestOAuthClient) {
  const res = await rawToolCall(stack, client.stored!.access_token, 'my_account');
  expect(res.status).toBe(200);
  await res.body?.cancel();
}

async function expectRefused(client: TestOAuthClient) {
  const res = await rawToolCall(stack, client.stored!.access_token, 'my_account');
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(
    /^Bearer error="invalid_token".*resource_metadata="https:\/\/packline\.test\/\.well-known\/oauth-protected-resource\/mcp\/member"/,
  );
  await res.body?.cancel();
}

async function grantsOf(
  email: string,
): Promise<{ id: string; active: boolean; revokedReason: string | null; application: { name: string } }[]> {
  return (
    await runJson<{ id: string; active: boolean; revoked_reason: string | null; application: { name: string } }[]>(
      ['grants', 'list', '--email', email],
      stack.env,
    )
  ).map((g) => ({
    id: g.id,
    active: g.active,
    revokedReason: g.revoked_reason,
    application: g.application,
  }));
}

describe('from the settings page', () => {
  it('revoke: the application disappears and its next call is 401; the member’s other application works on', async () => {
    const { email, browser, client } = await connected('revoke-page');
    const other = await connectMember(stack, email, browser, 'Second App');
    const grantId = (await grantsOf(email)).find((g) => g.application.name === 'App of revoke-page')!.id;
    const settings = await browser.page('/account/settings');
    expect(settings).toContain('App of revoke-page');

    const res = await browser.submit(settings, `/account/grants/${grantId}/revoke`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/settings?done=revoked');
    await expectRefused(client);
    await expectCallWorks(other);
    const after = await browser.page(res.headers.get('location')!);
    expect(after).toContain('The application was disconnected');
    const apps = after.slice(after.indexOf('<h2>Connected applications</h2>'), after.indexOf('<h2>What applications did for you</h2>'));
    expect(apps).not.toContain('App of revoke-page');
    expect(apps).toContain('Second App');
  });

  it('password change: every application ends, this browser stays signed in, others do not', async () => {
    const { email, browser, client } = await connected('password-page');
    const elsewhere = new TestBrowser(stack);
    await elsewhere.signIn(email);
    const settings = await browser.page('/account/settings');

    const wrong = await browser.submit(settings, '/account/password', {
      current_password: 'not my password',
      new_password: 'a brand new password',
    });
    expect(wrong.headers.get('location')).toBe('/account/settings?error=current_password');
    await expectCallWorks(client);

    const res = await browser.submit(settings, '/account/password', { current_password: PASSWORD, new_password: 'a brand new password' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/settings?done=password');
    await expectRefused(client);
    expect(await browser.page(res.headers.get('location')!)).toContain('Your password was changed');
    const { url } = await elsewhere.follow('/account/settings');
    expect(new URL(url).pathname).toBe('/account/login');
    expect(await grantsOf(email)).toMatchObject([{ active: false, revokedReason: 'password_changed' }]);
  });

  it('sign out everywhere: every application ends and the browser is signed out', async () => {
    const { email, browser, client } = await connected('everywhere-page');
    // Settings lead to a question first; its form signs out everywhere.
    expect(await browser.page('/account/settings')).toContain('href="/account/sign-out-everywhere"');
    const settings = await browser.page('/account/sign-out-everywhere');
    expect(settings).toContain('every</strong> session');
    const res = await browser.submit(settings, '/account/sign-out-everywhere');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/login?done=signed_out_everywhere');
    await expectRefused(client);
    const { url } = await browser.follow('/account/settings');
    expect(new URL(url).pathname).toBe('/account/login');
    expect(await grantsOf(email)).toMatchObject([{ active: false, revokedReason: 'signed_out_everywhere' }]);
  });

  it('an SDK client whose grant ended cannot call anymore', async () => {
    const { browser, client } = await connected('sdk-client');
    const mcp = await mcpClient(stack, client);
    expect((await mcp.callTool({ name: 'my_account', arguments: {} })).isError).toBeFalsy();
    const settings = await browser.page('/account/sign-out-everywhere');
    await browser.submit(settings, '/account/sign-out-everywhere');
    await expect(mcp.callTool({ name: 'my_account', arguments: {} })).rejects.toThrow();
    await mcp.close();
  });

  it('refuses account forms without a valid CSRF token', async () => {
    const { browser, client } = await connected('csrf-page');
    const settings = await browser.page('/account/sign-out-everywhere');
    const forged = await browser.submit(settings, '/account/sign-out-everywhere', { csrf: 'forged' });
    expect(forged.status).toBe(403);
    await expectCallWorks(client);
  });
});

describe('from the CLI', () => {
  it('grants revoke GRANT_ID', async () => {
    const { email, client } = await connected('cli-revoke');
    const [grant] = await grantsOf(email);
    expect(grant).toMatchObject({ active: true, application: { name: 'App of cli-revoke' } });
    const revoked = await runJson<{ id: string; active: boolean }>(['grants', 'revoke', grant!.id], stack.env);
    expect(revoked).toMatchObject({ id: grant!.id, active: false });
    await expectRefused(client);
  });

  it('members set-password', async () => {
    const { email, client } = await connected('cli-password');
    const reset = await runJson<{ ended_grants: number }>(
      ['members', 'set-password', '--email', email, '--password', 'another long password'],
      stack.env,
    );
    expect(reset.ended_grants).toBe(1);
    await expectRefused(client);
    await new TestBrowser(stack).signIn(email, 'another long password');
  });

  it('members sign-out-everywhere', async () => {
    const { email, client } = await connected('cli-everywhere');
    await runJson(['members', 'sign-out-everywhere', '--email', email], stack.env);
    await expectRefused(client);
  });

  it('members create --password gives a member who can connect an application', async () => {
    const email = 'cli-created@atelier-nord.example';
    const member = await runJson<{ id: string; memberships: { organization_id: string; role: string }[] }>(
      [
        'members',
        'create',
        '--email',
        email,
        '--password',
        PASSWORD,
        '--name',
        'Created By CLI',
        '--org',
        'atelier-nord',
        '--role',
        'admin',
      ],
      stack.env,
    );
    expect(member.memberships).toEqual([{ organization_id: 'atelier-nord', role: 'admin' }]);
    const client = await connectMember(stack, email);
    await expectCallWorks(client);
  });
});

describe('the review link', () => {
  it('the member in person publishes the draft the assistant prepared', async () => {
    const { browser, client } = await connected('publisher');
    const mcp = await mcpClient(stack, client);
    const draft = (await mcp.callTool({ name: 'draft_need', arguments: { title: 'Roof insulation survey' } })).structuredContent as {
      id: string;
      review_url: string;
    };
    await mcp.close();
    const review = await browser.page(draft.review_url);
    const res = await browser.submit(review, `/account/drafts/${draft.id}/publish`);
    expect(res.status).toBe(303);
    expect(await browser.page(draft.review_url)).toContain('state: <strong>public</strong>');
    expect((await stack.get(`/opportunities/${draft.id}`)).status).toBe(200);
  });

  async function reviewedDraft(local: string, title: string) {
    const { browser, client } = await connected(local);
    const mcp = await mcpClient(stack, client);
    const draft = (await mcp.callTool({ name: 'draft_need', arguments: { title } })).structuredContent as {
      id: string;
      review_url: string;
    };
    await mcp.close();
    return { browser, draft, review: await browser.page(draft.review_url) };
  }

  const stateOf = async (id: string) =>
    (await stack.graphql<QueryData<'need'>>('query($id: ID!) { need(id: $id) { admin { state } } }', { id })).need!.admin.state;

  it('a publish form replayed after an admin made the need private is refused; the need stays private', async () => {
    const { browser, draft, review } = await reviewedDraft('replayer', 'Facade cleaning');
    expect((await browser.submit(review, `/account/drafts/${draft.id}/publish`)).status).toBe(303);
    await stack.graphql<MutationData<'makeNeedPrivate'>>('mutation($id: ID!) { makeNeedPrivate(id: $id) { id } }', { id: draft.id });
    const replay = await browser.submit(review, `/account/drafts/${draft.id}/publish`);
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.status).toBeLessThan(500);
    expect(await stateOf(draft.id)).toBe('private');
    expect((await stack.get(`/opportunities/${draft.id}`)).status).toBe(404);
  });

  it('a draft made private before it was published cannot be published from its review page', async () => {
    const { browser, draft, review } = await reviewedDraft('late', 'Window survey');
    await stack.graphql<MutationData<'makeNeedPrivate'>>('mutation($id: ID!) { makeNeedPrivate(id: $id) { id } }', { id: draft.id });
    const res = await browser.submit(review, `/account/drafts/${draft.id}/publish`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Only a draft can be published');
    expect(await stateOf(draft.id)).toBe('private');
  });

  it('a draft changed since it was reviewed is not published from the old page', async () => {
    const { browser, draft, review } = await reviewedDraft('reviewer', 'Garden design');
    await stack.graphql<MutationData<'updateNeed'>>(
      'mutation($id: ID!) { updateNeed(id: $id, input: { title: "Garden design, and a pool" }) { id } }',
      {
        id: draft.id,
      },
    );
    const stale = await browser.submit(review, `/account/drafts/${draft.id}/publish`);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain('The draft changed since this page was opened');
    expect(await stateOf(draft.id)).toBe('draft');
    // Reviewed again, it publishes.
    const fresh = await browser.page(draft.review_url);
    expect(fresh).toContain('Garden design, and a pool');
    expect((await browser.submit(fresh, `/account/drafts/${draft.id}/publish`)).status).toBe(303);
    expect(await stateOf(draft.id)).toBe('public');
  });
});

describe('discarding a draft from its review page', () => {
  async function reviewedDraft(local: string, title: string) {
    const { browser, client } = await connected(local);
    const mcp = await mcpClient(stack, client);
    const draft = (await mcp.callTool({ name: 'draft_need', arguments: { title } })).structuredContent as {
      id: string;
      review_url: string;
    };
    await mcp.close();
    return { browser, draft, review: await browser.page(draft.review_url) };
  }

  it('offers Discard beside Publish; the draft is deleted and the account page says so', async () => {
    const { browser, draft, review } = await reviewedDraft('discarder', 'Boiler replacement');
    expect(review).toContain(`action="/account/drafts/${draft.id}/publish"`);
    expect(review).toContain(`action="/account/drafts/${draft.id}/discard"`);
    expect(review).toContain('Discard draft</button>');

    const res = await browser.submit(review, `/account/drafts/${draft.id}/discard`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/settings?done=discarded');
    expect(await browser.page('/account/settings?done=discarded')).toContain('The draft was discarded.');
    const gone = await browser.request(draft.review_url);
    expect(gone.status).toBe(404);
    await gone.body?.cancel();
    expect((await stack.get(`/opportunities/${draft.id}`)).status).toBe(404);
  });

  it('refuses a discard without the form token, a published need, and a draft prepared for another member', async () => {
    const { browser, draft, review } = await reviewedDraft('keeper', 'Chimney sweep');
    const forged = await browser.request(`/account/drafts/${draft.id}/discard`, { form: {} });
    expect(forged.status).toBe(403);
    await forged.body?.cancel();
    expect(await browser.page(draft.review_url)).toContain('state: <strong>draft</strong>');

    // Another member of the same organization sees the draft, without Discard, and a forged form is refused.
    const { browser: colleague } = await connected('colleague');
    const seen = await colleague.page(draft.review_url);
    expect(seen).not.toContain(`action="/account/drafts/${draft.id}/discard"`);
    expect(seen).toContain('only they can discard it');
    const pageKeys = new Browser({ secret: stack.config.dataEncryptionKey, publicBaseUrl: PUBLIC_BASE_URL });
    const theirs = await colleague.request(`/account/drafts/${draft.id}/discard`, {
      form: { csrf: pageKeys.csrf(colleague.cookie(SESSION)!, `discard\n${draft.id}`) },
    });
    expect(theirs.status).toBeGreaterThanOrEqual(400);
    expect(theirs.status).toBeLessThan(500);
    const theirText = await theirs.text();
    expect(theirText).toContain('only they can discard it');
    expect(await browser.page(draft.review_url)).toContain('state: <strong>draft</strong>');

    // Published, the old page's Discard form is refused and the need stays public.
    expect((await browser.submit(review, `/account/drafts/${draft.id}/publish`)).status).toBe(303);
    const late = await browser.submit(review, `/account/drafts/${draft.id}/discard`);
    expect(late.status).toBe(400);
    const text = await late.text();
    expect(text).toContain('Only a draft can be discarded');
    expect(text).toContain(`href="/account/drafts/${draft.id}"`);
    expect((await stack.get(`/opportunities/${draft.id}`)).status).toBe(200);
  });
});
