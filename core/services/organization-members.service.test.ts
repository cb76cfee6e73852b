import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';
import type { Actor } from '../actor.ts';
import { INTERNAL, type Core, type MailMessage } from '../index.ts';

describe('organization members and invitations', () => {
  let core: Core;
  let opened: TestCore;
  const sent: MailMessage[] = [];
  const PASSWORD = 'a long password';
  let failMail = false;

  beforeAll(async () => {
    opened = await openTestCore('members', {
      mailer: {
        send: async (message) => {
          if (failMail) throw new Error('relay down');
          sent.push(message);
        },
      },
    });
    core = opened.core;
    await core.services().organizations.create(INTERNAL, { id: 'atelier', name: 'Atelier Nord', plan: 'clan' });
    await core.services().organizations.create(INTERNAL, { id: 'cobalt', name: 'Cobalt', plan: 'base' });
  });
  afterAll(async () => {
    await opened.close();
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );
  const tokenOf = (message: MailMessage | undefined) => /token=(pli_[A-Za-z0-9]{43})/.exec(message?.text ?? '')?.[1] ?? '';

  /** A member with a password in `org`, signed in: their session actor and token. */
  async function signedIn(email: string, org: string, role: 'admin' | 'member') {
    await core.services().members.create(INTERNAL, { email, name: email.split('@')[0]!, password: PASSWORD, organizationId: org, role });
    const session = await core.services().accounts.signIn(INTERNAL, email, PASSWORD);
    const auth = await core.memberAuth.session(session.token);
    return { actor: { kind: 'memberSession', ...auth! } as Actor, token: session.token, memberId: session.memberId };
  }

  it('lets an admin list, invite by mail and see the pending invitation; a member may not', async () => {
    const ada = await signedIn('ada@atelier.example', 'atelier', 'admin');
    const bo = await signedIn('bo@atelier.example', 'atelier', 'member');
    const listed = await core.services().organizationMembers.list(ada.actor, 'atelier');
    expect(listed.members.map((m) => [m.name, m.email, m.role])).toEqual([
      ['ada', 'ada@atelier.example', 'admin'],
      ['bo', 'bo@atelier.example', 'member'],
    ]);
    expect(await failure(core.services().organizationMembers.list(bo.actor, 'atelier'))).toMatchObject({ code: 'forbidden' });
    expect(await failure(core.services().organizationMembers.list(ada.actor, 'cobalt'))).toMatchObject({ code: 'forbidden' });

    sent.length = 0;
    const invitation = await core
      .services()
      .organizationMembers.invite(ada.actor, 'atelier', { email: ' Cy@Example.org ', role: 'member' });
    expect(invitation).toMatchObject({ email: 'cy@example.org', role: 'member' });
    expect((invitation.expiresAt.getTime() - Date.now()) / 86_400_000).toBeCloseTo(7, 2);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'cy@example.org', subject: 'Join Atelier Nord on Packline' });
    expect(sent[0]!.text).toMatch(/https:\/\/packline\.test\/account\/invitation\?token=pli_/);
    expect((await core.services().organizationMembers.list(ada.actor, 'atelier')).invitations.map((i) => i.id)).toContain(invitation.id);

    expect(
      await failure(core.services().organizationMembers.invite(ada.actor, 'atelier', { email: 'bo@atelier.example', role: 'member' })),
    ).toMatchObject({ code: 'conflict', field: 'email', message: 'bo@atelier.example is already a member of Atelier Nord' });
    expect(
      await failure(core.services().organizationMembers.invite(ada.actor, 'atelier', { email: 'nope', role: 'member' })),
    ).toMatchObject({
      code: 'invalid_input',
      field: 'email',
    });
    failMail = true;
    const unsent = await failure(
      core.services().organizationMembers.invite(ada.actor, 'atelier', { email: 'dee@example.org', role: 'admin' }),
    );
    failMail = false;
    expect(unsent).toMatchObject({ code: 'invalid_state' });
    const emails = (await core.services().organizationMembers.list(ada.actor, 'atelier')).invitations.map((i) => i.email);
    expect(emails).not.toContain('dee@example.org');
  });

  it('lets a new person create an account from the link, once', async () => {
    const ada = await signedIn('ann@atelier.example', 'atelier', 'admin');
    sent.length = 0;
    await core.services().organizationMembers.invite(ada.actor, 'atelier', { email: 'new@example.org', role: 'admin' });
    const token = tokenOf(sent[0]);
    expect(await core.services().invitations.show(INTERNAL, token)).toMatchObject({
      organizationName: 'Atelier Nord',
      email: 'new@example.org',
      role: 'admin',
      accountExists: false,
    });
    expect(
      await failure(core.services().invitations.acceptWithNewAccount(INTERNAL, token, { name: 'New Person', password: 'short' })),
    ).toMatchObject({ code: 'invalid_input', field: 'password' });
    const session = await core.services().invitations.acceptWithNewAccount(INTERNAL, token, { name: 'New Person', password: PASSWORD });
    expect(await core.memberAuth.session(session.token)).toMatchObject({ memberId: session.memberId });
    const members = (await core.services().organizationMembers.list(ada.actor, 'atelier')).members;
    expect(members.find((m) => m.email === 'new@example.org')).toMatchObject({ name: 'New Person', role: 'admin' });
    expect(
      await failure(core.services().invitations.acceptWithNewAccount(INTERNAL, token, { name: 'Again', password: PASSWORD })),
    ).toMatchObject({ code: 'invalid_state' });
  });

  it('lets an existing member join when signed in with the invited email only', async () => {
    const ada = await signedIn('abe@atelier.example', 'atelier', 'admin');
    const cobalt = await signedIn('cora@cobalt.example', 'cobalt', 'admin');
    sent.length = 0;
    await core.services().organizationMembers.invite(ada.actor, 'atelier', { email: 'cora@cobalt.example', role: 'member' });
    const token = tokenOf(sent[0]);
    expect(await core.services().invitations.show(INTERNAL, token)).toMatchObject({ accountExists: true });
    expect(await failure(core.services().invitations.accept(ada.actor, token))).toMatchObject({ code: 'forbidden' });
    expect(await core.services().invitations.accept(cobalt.actor, token)).toEqual({
      organizationId: 'atelier',
      organizationName: 'Atelier Nord',
      role: 'member',
    });
    expect(await failure(core.services().invitations.accept(cobalt.actor, token))).toMatchObject({ code: 'invalid_state' });
  });

  it('changes roles and removes members, ending their sessions; the last admin stays', async () => {
    await core.services().organizations.create(INTERNAL, { id: 'solo', name: 'Solo', plan: 'base' });
    const admin = await signedIn('sol@solo.example', 'solo', 'admin');
    const other = await signedIn('oz@solo.example', 'solo', 'member');
    const last = await failure(core.services().organizationMembers.changeRole(admin.actor, 'solo', admin.memberId, 'member'));
    expect(last).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('sol is the last admin of this organization') });
    expect(await failure(core.services().organizationMembers.remove(admin.actor, 'solo', admin.memberId))).toMatchObject({
      code: 'invalid_state',
    });
    expect(await failure(core.services().organizationMembers.changeRole(admin.actor, 'solo', other.memberId, 'owner'))).toMatchObject({
      code: 'invalid_input',
    });

    expect(await core.services().organizationMembers.changeRole(admin.actor, 'solo', other.memberId, 'admin')).toMatchObject({
      role: 'admin',
    });
    expect(await core.memberAuth.session(other.token), 'a higher role ends nothing').not.toBeNull();
    expect(await core.services().organizationMembers.changeRole(admin.actor, 'solo', other.memberId, 'member')).toMatchObject({
      role: 'member',
    });
    expect(await core.memberAuth.session(other.token), 'a lower role ends the sessions').toBeNull();

    const again = await core.services().accounts.signIn(INTERNAL, 'oz@solo.example', PASSWORD);
    expect(await core.services().organizationMembers.remove(admin.actor, 'solo', other.memberId)).toMatchObject({
      email: 'oz@solo.example',
    });
    expect(await core.memberAuth.session(again.token)).toBeNull();
    expect((await core.services().organizationMembers.list(admin.actor, 'solo')).members.map((m) => m.email)).toEqual(['sol@solo.example']);
    expect(await failure(core.services().organizationMembers.remove(admin.actor, 'solo', other.memberId))).toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps one admin when two demote each other at once', async () => {
    await core.services().organizations.create(INTERNAL, { id: 'duo', name: 'Duo', plan: 'base' });
    const a = await signedIn('a@duo.example', 'duo', 'admin');
    const b = await signedIn('b@duo.example', 'duo', 'admin');
    const results = await Promise.all([
      failure(core.services().organizationMembers.changeRole(a.actor, 'duo', b.memberId, 'member')),
      failure(core.services().organizationMembers.changeRole(b.actor, 'duo', a.memberId, 'member')),
    ]);
    const admins = (await core.services().organizationMembers.list(INTERNAL, 'duo')).members.filter((m) => m.role === 'admin');
    expect(admins).toHaveLength(1);
    expect(results.filter((r) => r !== null).length).toBeGreaterThanOrEqual(1);
  });

  it('withdraws an invitation: its link stops working', async () => {
    const admin = await signedIn('wy@atelier.example', 'atelier', 'admin');
    sent.length = 0;
    const invitation = await core
      .services()
      .organizationMembers.invite(admin.actor, 'atelier', { email: 'later@example.org', role: 'member' });
    await core.services().organizationMembers.withdraw(admin.actor, 'atelier', invitation.id);
    expect(await failure(core.services().invitations.show(INTERNAL, tokenOf(sent[0])))).toMatchObject({ code: 'invalid_state' });
  });
});
