import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hidden, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createOrganization } from '../support/webhooks.ts';

// The members page and invitations over HTTP, with a real SMTP server receiving the links: who
// sees the page, invitations (new person, existing member), roles, removal, the last admin.

const ORG = 'members-org';
const PAGE = `/admin/orgs/${ORG}/members`;

/** The sentences of the error summary, in order. */
const summary = (html: string) =>
  [...(/<div class="error-summary"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '').matchAll(/<li>(?:<a [^>]+>)?([^<]+)/g)].map((m) => m[1]!);

describe('members page', () => {
  let stack: Stack;
  let inbox: SmtpInbox;
  let admin: TestBrowser;

  async function member(email: string, role: 'admin' | 'member', org = ORG): Promise<{ id: string; browser: TestBrowser }> {
    const { createMember } = await stack.graphql<{ createMember: { id: string } }>(
      'mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }',
      { input: { email, name: email.split('@')[0], password: PASSWORD, organizationId: org, role } },
    );
    const browser = new TestBrowser(stack);
    await browser.signIn(email, PASSWORD, '/account/settings');
    return { id: createMember.id, browser };
  }

  async function invite(email: string, role = 'member'): Promise<string> {
    const page = await admin.page(PAGE);
    const res = await admin.submit(page, `${PAGE}/invite`, { email, role });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${PAGE}?done=invited`);
    const mail = await inbox.next();
    expect(mail.to).toEqual([email]);
    const link = /https:\/\/packline\.test(\/account\/invitation\?token=pli_[A-Za-z0-9]{43})/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    return link!;
  }

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await startStack({ demo: false, env: { SMTP_URL: inbox.url } });
    await createOrganization(stack, ORG);
    admin = (await member('ada@members.example', 'admin')).browser;
  });
  afterAll(async () => {
    await stack?.close();
    await inbox?.close();
  });

  it('shows admins the members with their email and role; members get no link and no page', async () => {
    const { browser } = await member('mo@members.example', 'member');
    const page = await admin.page(PAGE);
    expect(page).toContain('<h1>Members</h1>');
    expect(page).toMatch(/<td data-label="Email">ada@members\.example<\/td><td data-label="Role">Admin<\/td>/);
    expect(page).toMatch(/<td data-label="Email">mo@members\.example<\/td><td data-label="Role">Member<\/td>/);
    expect(await admin.page(`/admin/orgs/${ORG}`)).toContain(`href="${PAGE}"`);
    const refused = await browser.request(PAGE);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain(`href="${PAGE}"`);
    expect(await browser.page('/account/settings')).not.toContain('/members');
  });

  it('refuses a bad address and a forged role at once, then mails an invitation a new person accepts', async () => {
    const page = await admin.page(PAGE);
    const refused = await admin.submit(page, `${PAGE}/invite`, { email: 'not an address', role: 'owner' });
    expect(refused.status).toBe(400);
    const errors = await refused.text();
    expect(summary(errors)).toEqual(['Email: Enter an email address, like name@example.org.', 'Role: Choose a role: Admin or Member.']);
    expect(errors).toContain('<p id="f-email-error" class="field-error">');
    expect(errors).toContain('<p id="f-role-error" class="field-error">');
    expect(errors).toContain('value="not an address"');
    expect(inbox.received).toHaveLength(0);

    const link = await invite('newcomer@members.example');
    expect(await admin.page(PAGE)).toMatch(/Pending invitations[\s\S]*newcomer@members\.example/);

    const visitor = new TestBrowser(stack);
    const form = await visitor.page(link);
    expect(form).toContain('<h1>Join Org members-org</h1>');
    const token = hidden(form, 'token');
    const bad = await visitor.request('/account/invitation/create', {
      form: { token, name: ' ', password: 'short-pw', confirm_password: 'other-pw' },
    });
    expect(bad.status).toBe(400);
    const badText = await bad.text();
    expect(summary(badText)).toEqual([
      'Your name: Enter your name.',
      'Password: Choose a password of at least 10 characters.',
      'Password again: The two passwords differ. Type the same one twice.',
    ]);
    expect(badText).not.toMatch(/short-pw|other-pw/);
    // The name typed is kept; the passwords never are.
    const mismatch = await visitor.request('/account/invitation/create', {
      form: { token, name: 'Nia Newcomer', password: 'long enough password', confirm_password: 'long enough passwort' },
    });
    expect(mismatch.status).toBe(400);
    const mismatchText = await mismatch.text();
    expect(summary(mismatchText)).toEqual(['Password again: The two passwords differ. Type the same one twice.']);
    expect(mismatchText).toContain('value="Nia Newcomer"');
    expect(mismatchText).not.toMatch(/long enough passwor/);
    const created = await visitor.request('/account/invitation/create', {
      form: { token, name: 'Nia Newcomer', password: PASSWORD, confirm_password: PASSWORD },
    });
    expect(created.status).toBe(303);
    expect(visitor.cookie(SESSION)).toBeDefined();
    expect(await visitor.page(created.headers.get('location')!)).toContain('You joined the organization.');
    expect(await admin.page(PAGE)).toMatch(/Nia Newcomer[\s\S]*newcomer@members\.example<\/td><td data-label="Role">Member/);
    const reused = await new TestBrowser(stack).request(link);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('This invitation does not work any more');
  });

  it('lets an existing member sign in and join; another account cannot use the link', async () => {
    const other = await member('olga@elsewhere.example', 'admin', await createOrganization(stack, 'elsewhere'));
    const link = await invite('olga@elsewhere.example', 'admin');
    const visitor = new TestBrowser(stack);
    const page = await visitor.page(link);
    expect(page).toContain('Sign in to join');
    expect(page).toContain(`/account/login?return_to=${encodeURIComponent(link)}`);
    expect(await admin.page(link)).toContain('You are signed in as ada@members.example.');

    const join = await other.browser.page(link);
    const joined = await other.browser.submit(join, '/account/invitation');
    expect(joined.status).toBe(303);
    expect(await other.browser.page(joined.headers.get('location')!)).toContain('You joined the organization as an admin.');
    expect(await other.browser.page(PAGE)).toContain('<h1>Members</h1>');
  });

  it('changes roles, ending the sessions of a demoted admin; removes members; keeps the last admin', async () => {
    const { id, browser } = await member('ravi@members.example', 'member');
    let page = await admin.page(PAGE);
    let res = await admin.submit(page, `${PAGE}/${id}/role`);
    expect(res.headers.get('location')).toBe(`${PAGE}?done=role`);
    expect(await browser.page(PAGE)).toContain('<h1>Members</h1>');

    page = await admin.page(PAGE);
    res = await admin.submit(page, `${PAGE}/${id}/role`);
    expect(res.status).toBe(303);
    expect((await browser.request('/account/settings')).status, 'signed out').toBe(303);

    await browser.signIn('ravi@members.example');
    const confirm = await admin.page(`${PAGE}/${id}/remove`);
    expect(confirm).toContain('Remove <strong>ravi</strong> (ravi@members.example)');
    const before = await admin.page(PAGE);
    res = await admin.submit(confirm, `${PAGE}/${id}/remove`);
    expect(res.headers.get('location')).toBe(`${PAGE}?done=removed`);
    expect((await browser.request('/account/settings')).status, 'signed out').toBe(303);
    expect(await admin.page(PAGE)).not.toContain('ravi@members.example');
    // A form of the page as it was, and a forged role: each refused in plain words.
    const gone = await admin.submit(before, `${PAGE}/${id}/role`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('This person is not a member of the organization any more.');
    const forgedRole = await admin.submit(before, `${PAGE}/${id}/role`, { role: 'owner' });
    expect(forgedRole.status).toBe(400);
    expect(await forgedRole.text()).toContain('Choose a role: Admin or Member.');

    // Only admin left of a new organization: neither demoted nor removed.
    await createOrganization(stack, 'solo-org');
    const solo = await member('solo@members.example', 'admin', 'solo-org');
    const soloPage = await solo.browser.page('/admin/orgs/solo-org/members');
    const demote = await solo.browser.submit(soloPage, `/admin/orgs/solo-org/members/${solo.id}/role`);
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain(
      'solo is the last admin of this organization and cannot be made a member: make another member admin first',
    );
    const remove = await solo.browser.submit(
      await solo.browser.page(`/admin/orgs/solo-org/members/${solo.id}/remove`),
      `/admin/orgs/solo-org/members/${solo.id}/remove`,
    );
    expect(remove.status).toBe(409);
    expect(await remove.text()).toContain('cannot be removed');
  });

  it('withdraws a pending invitation, and refuses forms without their token', async () => {
    const link = await invite('late@members.example');
    const page = await admin.page(PAGE);
    const id = /\/invitations\/(inv_[a-z0-9]+)\/withdraw/.exec(page)?.[1];
    const res = await admin.submit(page, `${PAGE}/invitations/${id}/withdraw`);
    expect(res.headers.get('location')).toBe(`${PAGE}?done=withdrawn`);
    expect((await new TestBrowser(stack).request(link)).status).toBe(400);
    const again = await admin.submit(page, `${PAGE}/invitations/${id}/withdraw`);
    expect(again.status).toBe(404);
    expect(await again.text()).toContain('This invitation was already accepted or withdrawn.');
    const forged = await admin.request(`${PAGE}/invite`, { form: { email: 'x@members.example', role: 'admin' } });
    expect(forged.status).toBe(403);
  });
});
