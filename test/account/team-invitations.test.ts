import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY, findCanaries } from '../../core/demo/canaries.ts';
import { PackInvitationEntity } from '../../core/entities/index.ts';
import { Browser } from '../../facades/kit/browser.ts';
import { connectMember, mcpClient, SESSION, setPassword, TestBrowser } from '../mcp/member-client.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';

// The page a team invitation's url (the member connector's my_invitations) opens: behind sign-in,
// for the invited member only; what the invitation is and nothing inside the team; Accept or
// Refuse once.

const TOM = 'tom@atelier-nord.example';
const MARC = 'marc@juniper-green.example';
const LUCAS = 'lucas@cobalt-data.example';

interface Listed {
  id: string;
  team_name: string;
  invited_by: { id: string; name: string };
  opportunity: { id: string; title: string; url: string } | null;
  url: string;
}

describe('team invitation page', () => {
  let stack: Stack;
  let tom: TestBrowser;
  let mcp: Client;
  let invitation: Listed;
  let path: string;

  const listed = async () => {
    const result = await mcp.callTool({ name: 'my_invitations', arguments: {} });
    return (result.structuredContent as { invitations: Listed[] }).invitations;
  };

  /** A demo member with a password, signed in on a fresh browser. */
  async function signedIn(email: string): Promise<TestBrowser> {
    await setPassword(stack, email);
    const browser = new TestBrowser(stack);
    await browser.signIn(email);
    return browser;
  }

  /** A member's team invitations as stored, by status. */
  async function stored(email: string) {
    const rows = await stack.app.core.db.em.fork().find(PackInvitationEntity, { member: { email } }, { orderBy: { id: 'asc' } });
    return rows.map((r) => ({ id: r.id, status: r.status }));
  }

  beforeAll(async () => {
    stack = await startStack();
    await setPassword(stack, TOM);
    tom = new TestBrowser(stack);
    mcp = await mcpClient(stack, await connectMember(stack, TOM, tom));
    [invitation] = (await listed()) as [Listed];
    path = new URL(invitation.url).pathname;
  });
  afterAll(async () => {
    await mcp?.close();
    await stack?.close();
  });

  it('hands out the page on the service, and sends a visitor to sign in and back', async () => {
    expect(invitation.url).toBe(`${PUBLIC_BASE_URL}/account/team-invitations/${encodeURIComponent(invitation.id)}`);
    const visitor = await new TestBrowser(stack).request(path);
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get('location')).toBe(`/account/login?return_to=${encodeURIComponent(path)}`);
  });

  it('shows the invited member what the invitation is, and nothing inside the team', async () => {
    const page = await tom.page(invitation.url);
    expect(page).toContain('<h1>Team invitation</h1>');
    expect(page).toContain(invitation.team_name);
    expect(page).toContain(invitation.invited_by.name);
    expect(page).toContain('waiting for your answer');
    if (invitation.opportunity) expect(page).toContain(`<a href="${invitation.opportunity.url}">${invitation.opportunity.title}</a>`);
    else expect(page).toContain('not public');
    expect(page).toContain(`action="${path}/accept"`);
    expect(page).toContain(`action="${path}/refuse"`);
    expect(findCanaries(page)).toEqual([]);
    for (const hidden of [CANARY.positioning, 'EUR', 'positioning', 'split', 'quote', 'pact']) expect(page).not.toContain(hidden);
  });

  it("answers another member's invitation, or an unknown one, with 404, even with a valid form token", async () => {
    const lucas = await signedIn(LUCAS);
    const read = await lucas.request(path);
    expect(read.status).toBe(404);
    expect(await read.text()).not.toContain(invitation.team_name);
    const forged = new Browser({ secret: stack.config.dataEncryptionKey, publicBaseUrl: PUBLIC_BASE_URL });
    const csrf = forged.csrf(lucas.cookie(SESSION)!, `team-invitation\naccept\n${invitation.id}`);
    const post = await lucas.request(`${path}/accept`, { form: { csrf } });
    expect(post.status).toBe(404);
    await post.body?.cancel();
    expect((await tom.request('/account/team-invitations/no-such-invitation')).status).toBe(404);
    // Without its token the form is refused before anything is read.
    const tokenless = await tom.request(`${path}/accept`, { form: {} });
    expect(tokenless.status).toBe(403);
    await tokenless.body?.cancel();
    expect(await tom.page(path)).toContain('waiting for your answer');
  });

  it('accepts once: the notice after the redirect, the answer shown, a second answer refused in plain words', async () => {
    const page = await tom.page(path);
    const accepted = await tom.submit(page, `${path}/accept`);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe(`${path}?done=accepted`);
    const after = await tom.page(accepted.headers.get('location')!);
    expect(after).toContain('You accepted the invitation.');
    expect(after).toContain('You accepted this invitation.');
    expect(after).not.toContain(`action="${path}/refuse"`);
    const again = await tom.submit(page, `${path}/refuse`);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('You already accepted this invitation');
    expect((await stored(TOM)).find((r) => r.id === invitation.id)?.status).toBe('accepted');
    expect(await listed(), 'no longer pending').toEqual([]);
  });

  it('refuses once, and shows an answered invitation without its forms', async () => {
    const marc = await signedIn(MARC);
    const before = await stored(MARC);
    const pending = before.find((r) => r.status === 'pending')!;
    const answered = before.find((r) => r.status === 'accepted')!;
    const at = `/account/team-invitations/${encodeURIComponent(pending.id)}`;
    const page = await marc.page(at);
    const refused = await marc.submit(page, `${at}/refuse`);
    expect(refused.status).toBe(303);
    expect(await marc.page(refused.headers.get('location')!)).toContain('You refused the invitation.');
    const again = await marc.submit(page, `${at}/accept`);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('You already refused this invitation');
    expect(await stored(MARC)).toEqual(before.map((r) => (r.id === pending.id ? { ...r, status: 'refused' } : r)));

    const old = await marc.page(`/account/team-invitations/${encodeURIComponent(answered.id)}`);
    expect(old).toContain('You accepted this invitation.');
    expect(old).not.toContain('/accept"');
    expect(findCanaries(old)).toEqual([]);
  });
});
