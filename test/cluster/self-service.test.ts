// Mail, member invitations and password reset across two API processes over one PostgreSQL
// database and one Redis, each process mailing through the same SMTP server: a link mailed by
// one process works on the other, once; sessions ended on one are ended on both; the sign-in
// budgets a reset request spends are shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../core/index.ts';
import { hidden, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import type { MutationData } from '../support/graphql-data.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { PUBLIC_BASE_URL } from '../support/stack.ts';
import { Cluster, type Instance } from './cluster.ts';

const ORG = 'self-service';
const MEMBERS = `/admin/orgs/${ORG}/members`;
const ADA = 'ada@self-service.example';
const INES = 'ines@self-service.example';
const NEWCOMER = 'nia@self-service.example';
const NEW_PASSWORD = 'a brand new password';
const RESET_LINK = /https:\/\/packline\.test\/account\/password-reset\?token=plw_[A-Za-z0-9]{43}/;
const INVITATION_LINK = /https:\/\/packline\.test\/account\/invitation\?token=pli_[A-Za-z0-9]{43}/;

/** One person's browser: one cookie jar, each request sent to the process `on` names last. */
class Person {
  private readonly target = { origin: '' };
  private readonly browser = new TestBrowser(this.target);

  on(instance: Instance): TestBrowser {
    this.target.origin = instance.origin;
    return this.browser;
  }
}

describe('mail, invitations and password reset across API processes', () => {
  const cluster = new Cluster();
  let inbox: SmtpInbox;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    await cluster.start();
    const mail = { PUBLIC_BASE_URL, SMTP_URL: inbox.url, MAIL_FROM: 'Packline <no-reply@packline.test>' };
    // Started together on an empty database: one migrates while the other waits for it.
    [a, b] = await Promise.all([cluster.spawn('api', mail), cluster.spawn('api', mail)]);
    await cluster.graphql<MutationData<'createOrganization'>>(
      a,
      'mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }',
      { input: { id: ORG, profile: { name: 'Self Service', plan: 'clan' } } },
    );
    for (const [email, role] of [
      [ADA, 'admin'],
      [INES, 'member'],
    ] as const) {
      await cluster.graphql(b, 'mutation($input: NewMemberInput!) { createMember(input: $input) { id } }', {
        input: { email, name: email.split('@')[0], password: PASSWORD, organizationId: ORG, role },
      });
    }
  }, 180_000);
  afterAll(async () => {
    await cluster.close();
    await inbox?.close();
  });

  /** Signs in on `instance` with a fresh browser. */
  async function signedIn(instance: Instance, email: string, password = PASSWORD): Promise<Person> {
    const person = new Person();
    await person.on(instance).signIn(email, password);
    expect(person.on(instance).cookie(SESSION)).toBeDefined();
    return person;
  }

  /** Where /account/settings sends this browser on `instance`: 200 signed in, else to sign in. */
  async function settings(person: Person, instance: Instance): Promise<{ status: number; location: string | null }> {
    const res = await person.on(instance).request('/account/settings');
    await res.body?.cancel();
    return { status: res.status, location: res.headers.get('location') };
  }

  /** "Forgot password?" on `instance`: the form with its token, then the answer. */
  async function askForLink(person: Person, instance: Instance, email: string): Promise<Response> {
    const browser = person.on(instance);
    const form = await browser.page('/account/password-reset/request');
    return browser.request('/account/password-reset/request', { form: { email, csrf: hidden(form, 'csrf') } });
  }

  it('mails a reset link from one process that works once on the other, and ends the sessions on both', async () => {
    const old = await signedIn(a, INES);
    expect(await settings(old, a)).toMatchObject({ status: 200 });
    expect(await settings(old, b)).toMatchObject({ status: 200 });

    const asker = new Person();
    const asked = await askForLink(asker, a, INES);
    expect(asked.status).toBe(303);
    expect(await asker.on(a).page(asked.headers.get('location')!)).toContain(
      'If an account exists for that address, we sent a link to it.',
    );
    const mail = await inbox.next();
    expect(mail.to).toEqual([INES]);
    expect(mail.from).toBe('no-reply@packline.test');
    const link = RESET_LINK.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    // Opened and used on the other process, in another browser.
    const user = new Person();
    const form = await user.on(b).page(link!);
    expect(form).toContain('<h1>Choose a new password</h1>');
    expect(form).toContain(`<strong>${INES}</strong>`);
    const token = hidden(form, 'token');
    const done = await user.on(b).request('/account/password-reset', {
      form: { token, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(done.status).toBe(303);
    expect(await user.on(b).page(done.headers.get('location')!)).toContain('Your password is changed.');

    // The session opened on A before the reset is over on both processes.
    for (const instance of [a, b]) {
      const ended = await settings(old, instance);
      expect(ended.status).toBe(303);
      expect(ended.location).toMatch(/^\/account\/login/);
    }
    // The new password signs in on both; the old one on neither.
    for (const instance of [b, a]) {
      const fresh = await signedIn(instance, INES, NEW_PASSWORD);
      expect(await settings(fresh, instance)).toMatchObject({ status: 200 });
      const wrong = new Person().on(instance);
      const login = await wrong.page('/account/login');
      const refused = await wrong.request('/account/login', {
        form: { email: INES, password: PASSWORD, return_to: '/account/settings', csrf: hidden(login, 'csrf') },
      });
      expect(refused.status).toBe(401);
      await refused.body?.cancel();
    }

    // Used once: the link, and its form, are refused on A.
    const reopened = await user.on(a).request(link!);
    expect(reopened.status).toBe(400);
    expect(await reopened.text()).toContain('does not work any more');
    const reused = await user.on(a).request('/account/password-reset', {
      form: { token, new_password: 'yet another password', confirm_password: 'yet another password' },
    });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('does not work any more');
    expect((await signedIn(a, INES, NEW_PASSWORD)).on(a).cookie(SESSION)).toBeDefined();
  });

  it('mails an invitation from one process that a new person accepts on the other, once', async () => {
    const admin = await signedIn(a, ADA);
    const page = await admin.on(a).page(MEMBERS);
    const invited = await admin.on(a).submit(page, `${MEMBERS}/invite`, { email: NEWCOMER, role: 'member' });
    expect(invited.status).toBe(303);
    expect(invited.headers.get('location')).toBe(`${MEMBERS}?done=invited`);
    const mail = await inbox.next();
    expect(mail.to).toEqual([NEWCOMER]);
    expect(mail.from).toBe('no-reply@packline.test');
    const link = INVITATION_LINK.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(await admin.on(b).page(MEMBERS)).toMatch(/Pending invitations[\s\S]*nia@self-service\.example/);

    const visitor = new Person();
    const form = await visitor.on(b).page(link!);
    expect(form).toContain('<h1>Join Self Service</h1>');
    const token = hidden(form, 'token');
    const created = await visitor.on(b).request('/account/invitation/create', {
      form: { token, name: 'Nia Newcomer', password: PASSWORD, confirm_password: PASSWORD },
    });
    expect(created.status).toBe(303);
    expect(visitor.on(b).cookie(SESSION)).toBeDefined();
    expect(await visitor.on(b).page(created.headers.get('location')!)).toContain('You joined the organization.');
    // The session opened on B holds on A.
    expect(await settings(visitor, a)).toMatchObject({ status: 200 });

    const member = await signedIn(a, NEWCOMER);
    expect(await settings(member, a)).toMatchObject({ status: 200 });
    expect(await admin.on(a).page(MEMBERS)).toMatch(/Nia Newcomer[\s\S]*nia@self-service\.example<\/td><td data-label="Role">Member/);

    // Used once: the link, and its form, are refused on A.
    const reopened = await new Person().on(a).request(link!);
    expect(reopened.status).toBe(400);
    expect(await reopened.text()).toContain('This invitation does not work any more');
    const reused = await new Person().on(a).request('/account/invitation/create', {
      form: { token, name: 'Someone Else', password: 'another long password', confirm_password: 'another long password' },
    });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('This invitation does not work any more');
  });

  it('counts reset requests sent to either process against one sign-in budget', async () => {
    const email = 'bo@self-service.example';
    const asker = new Person();
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points; i++) {
      const res = await askForLink(asker, i % 2 === 0 ? a : b, email);
      expect(res.status, `request ${i + 1}`).toBe(303);
      await res.body?.cancel();
    }
    for (const instance of [a, b]) {
      const refused = await askForLink(asker, instance, email);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.text()).toContain('Too many attempts');
    }
    // The same budget as signing in to that account.
    const browser = new Person().on(b);
    const login = await browser.page('/account/login');
    const signIn = await browser.request('/account/login', {
      form: { email, password: PASSWORD, return_to: '/account/settings', csrf: hidden(login, 'csrf') },
    });
    expect(signIn.status).toBe(429);
    await signIn.body?.cancel();
  });
});
