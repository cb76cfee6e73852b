// Password checks are budgeted before they run (issue: parallel guesses all checked before the
// old counter answered): sign-in and the current password of a password change, per address and
// account, per account, per address; the owner, from their own address, is never locked out by
// strangers spending an account's strict budget. An IPv6 client is its /64: the other addresses
// of that network share its budgets (a subscriber usually holds a whole /64).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../core/index.ts';
import { createMember, hidden, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;

beforeAll(async () => {
  // One trusted proxy: X-Forwarded-For names the client, so a test can speak from several addresses.
  stack = await startStack({ env: { TRUSTED_PROXIES: '1' } });
});
afterAll(() => stack?.close());

/** A fresh sign-in form: its cookie and token. */
async function loginForm(): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${stack.origin}/account/login`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  return { cookie, csrf: hidden(await res.text(), 'csrf') };
}

function post(
  path: string,
  { cookie, address, form }: { cookie: string; address: string; form: Record<string, string> },
): Promise<Response> {
  return fetch(`${stack.origin}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'x-forwarded-for': address, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

async function signIn(email: string, password: string, address: string): Promise<Response> {
  const { cookie, csrf } = await loginForm();
  return post('/account/login', { cookie, address, form: { email, password, csrf, return_to: '/account/settings' } });
}

describe('sign-in', () => {
  it('checks at most the strict budget of 40 parallel guesses for one account, and never fails', async () => {
    const email = 'guess-target@atelier-nord.example';
    await createMember(stack, email);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(email, `wrong password ${i}`, '198.51.100.7')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeLessThanOrEqual(SIGN_IN_LIMITS.addressAndAccount.points);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - checked);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const page = await refused.text();
    expect(page).toContain('Too many sign-in attempts');
    expect(page).toContain('<form method="post" action="/account/login">');

    // Even the right password waits, from that address…
    expect((await signIn(email, PASSWORD, '198.51.100.7')).status).toBe(429);
    // …while the owner, from their own address, signs in.
    const owner = await signIn(email, PASSWORD, '203.0.113.20');
    expect(owner.status).toBe(303);
    expect(owner.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=`))).toBe(true);
  });

  it('a right password starts the address budget for that account again', async () => {
    const email = 'forgetful@atelier-nord.example';
    await createMember(stack, email);
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points - 1; i++)
      expect((await signIn(email, `wrong password ${i}`, '198.51.100.8')).status).toBe(401);
    expect((await signIn(email, PASSWORD, '198.51.100.8')).status).toBe(303);
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points; i++)
      expect((await signIn(email, `wrong again ${i}`, '198.51.100.8')).status).toBe(401);
    expect((await signIn(email, PASSWORD, '198.51.100.8')).status).toBe(429);
  });

  it('limits one address over many accounts (spraying)', async () => {
    const address = '198.51.100.9';
    const answers = await Promise.all(
      Array.from({ length: SIGN_IN_LIMITS.address.points + 5 }, (_, i) => signIn(`nobody-${i}@example.org`, 'short', address)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Another address is not concerned.
    expect((await signIn('nobody-0@example.org', 'short', '198.51.100.10')).status).toBe(401);
  });
});

describe('password change', () => {
  it('budgets the current password too: 40 parallel guesses with a stolen session check at most 5', async () => {
    const email = 'stolen-session@atelier-nord.example';
    await createMember(stack, email);
    const browser = new TestBrowser(stack);
    await browser.signIn(email);
    const settings = await browser.page('/account/settings');
    const at = settings.indexOf('action="/account/password"');
    const csrf = hidden(settings.slice(at), 'csrf');
    const cookie = `${SESSION}=${browser.cookie(SESSION)}`;
    const change = (current: string, address: string) =>
      post('/account/password', { cookie, address, form: { csrf, current_password: current, new_password: 'a brand new password' } });

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => change(`guess number ${i}`, '198.51.100.11')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const checked = answers.filter((r) => r.status === 303);
    expect(checked.length).toBeLessThanOrEqual(SIGN_IN_LIMITS.addressAndAccount.points);
    for (const r of checked) expect(r.headers.get('location')).toBe('/account/settings?error=current_password');
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - checked.length);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await refused.text()).toContain('Too many password attempts');

    // The right one from that address waits too: nothing changes.
    expect((await change(PASSWORD, '198.51.100.11')).status).toBe(429);
    expect((await signIn(email, PASSWORD, '203.0.113.21')).status).toBe(303);
    // The owner, from their own address, still can.
    const done = await change(PASSWORD, '203.0.113.21');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/account/settings?done=password');
  });
});

describe('IPv6 clients', () => {
  it('count as their /64: the strict budget spent from one address refuses the others of that network', async () => {
    const email = 'rotating-guesser@atelier-nord.example';
    await createMember(stack, email);
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points; i++)
      expect((await signIn(email, `wrong password ${i}`, '2001:db8:1:1::1')).status).toBe(401);
    for (const next of ['2001:db8:1:1::2', '2001:db8:1:1::3', '2001:db8:1:1::7', '2001:db8:1:1:ffff:ffff:ffff:ffff']) {
      const refused = await signIn(email, 'yet another guess', next);
      expect(refused.status, next).toBe(429);
      expect(refused.headers.get('retry-after'), next).toMatch(/^[1-9]\d*$/);
    }
    // Written differently, the same network is still the same client.
    expect((await signIn(email, 'yet another guess', '2001:0DB8:0001:0001:0000:0000:0000:0009')).status).toBe(429);
    // Another /64 is another client: the owner signs in from theirs.
    expect((await signIn(email, PASSWORD, '2001:db8:1:2::1')).status).toBe(303);
  });

  it('a right password from one address of the /64 starts the budget of the whole network again', async () => {
    const email = 'two-devices@atelier-nord.example';
    await createMember(stack, email);
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points - 1; i++)
      expect((await signIn(email, `wrong password ${i}`, '2001:db8:2:1::1')).status).toBe(401);
    expect((await signIn(email, PASSWORD, '2001:db8:2:1::2')).status).toBe(303);
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points; i++)
      expect((await signIn(email, `wrong again ${i}`, '2001:db8:2:1::1')).status).toBe(401);
    expect((await signIn(email, PASSWORD, '2001:db8:2:1::3')).status).toBe(429);
  });

  it('budget the current password of a password change by /64 too', async () => {
    const email = 'ipv6-session@atelier-nord.example';
    await createMember(stack, email);
    const browser = new TestBrowser(stack);
    await browser.signIn(email);
    const settings = await browser.page('/account/settings');
    const csrf = hidden(settings.slice(settings.indexOf('action="/account/password"')), 'csrf');
    const cookie = `${SESSION}=${browser.cookie(SESSION)}`;
    const change = (current: string, address: string) =>
      post('/account/password', { cookie, address, form: { csrf, current_password: current, new_password: 'a brand new password' } });
    for (let i = 0; i < SIGN_IN_LIMITS.addressAndAccount.points; i++) {
      const wrong = await change(`guess number ${i}`, `2001:db8:3:1::${i + 1}`);
      expect(wrong.status).toBe(303);
      expect(wrong.headers.get('location')).toBe('/account/settings?error=current_password');
    }
    expect((await change(PASSWORD, '2001:db8:3:1::99')).status).toBe(429);
    expect((await change(PASSWORD, '2001:db8:3:2::1')).headers.get('location')).toBe('/account/settings?done=password');
  });
});
