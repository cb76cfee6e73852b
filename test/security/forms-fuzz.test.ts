// Property test of the sign-in and account forms: whatever a browser (or anything else) posts,
// with valid or forged tokens, odd encodings, repeated or missing fields, huge or binary values,
// the answer is a page or a redirect, never a server failure.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, hidden, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const EMAIL = 'fuzzed@atelier-nord.example';

let stack: Stack;
let browser: TestBrowser;
/** Valid tokens for each form, as the pages hand them out. */
const tokens: Record<string, string> = {};
let loginCookie = '';
let sessionCookie = '';

beforeAll(async () => {
  stack = await startStack({ env: { TRUSTED_PROXIES: '1' } });
  await createMember(stack, EMAIL);
  browser = new TestBrowser(stack);
  const login = await fetch(`${stack.origin}/account/login`);
  loginCookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  tokens['/account/login'] = hidden(await login.text(), 'csrf');
  await browser.signIn(EMAIL);
  sessionCookie = `${SESSION}=${browser.cookie(SESSION)}`;
  const settings = await browser.page('/account/settings');
  tokens['/account/password'] = hidden(settings.slice(settings.indexOf('action="/account/password"')), 'csrf');
});
afterAll(() => stack?.close());

const text = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '%00',
      '%',
      '%E2%82',
      '<script>',
      '"\'><',
      'a'.repeat(5_000),
      'é'.repeat(400),
      EMAIL,
      EMAIL.toUpperCase(),
      ' correct horse battery staple ',
    ),
  );

// The two password forms most often: they reach the limiter and the password check.
const target = fc.constantFrom(
  '/account/login',
  '/account/login',
  '/account/login',
  '/account/password',
  '/account/password',
  '/account/password',
  '/account/grants/g_unknown/revoke',
  '/account/grants/%ZZ/revoke',
  '/account/drafts/n_unknown/publish',
  '/account/drafts/%00/publish',
  '/account/team-invitations/x_unknown/accept',
  '/account/team-invitations/%00/refuse',
  '/oauth/consent',
);

const field = fc.constantFrom(
  'email',
  'password',
  'csrf',
  'return_to',
  'current_password',
  'new_password',
  'revision',
  'request',
  'decision',
  'email[]',
  'csrf[a]',
  '',
  '__proto__',
  'constructor',
);

const body = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.tuple(field, text(300)), { maxLength: 8 }).map((pairs) => ({ kind: 'form' as const, pairs })) },
  { weight: 1, arbitrary: text(2_000).map((raw) => ({ kind: 'raw' as const, raw })) },
);

const contentType = fc.constantFrom(
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=latin1',
  'application/json',
  'multipart/form-data; boundary=x',
  'text/plain',
  undefined,
);
const address = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('not an address', '', '1.2.3.4, 5.6.7.8'));
const origin = fc.option(fc.constantFrom('https://packline.test', 'https://packline.test', 'https://evil.example', 'null'), {
  nil: undefined,
  freq: 2,
});
const mostly = fc.constantFrom(true, true, true, false);

describe('sign-in and account forms', () => {
  it('never answer 5xx, whatever is posted', async () => {
    const reached: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(
        target,
        body,
        contentType,
        address,
        origin,
        mostly,
        mostly,
        mostly,
        async (path, b, type, ip, from, withToken, withSession, withLoginCookie) => {
          let payload: string;
          if (b.kind === 'raw') payload = b.raw;
          else {
            const params = new URLSearchParams(b.pairs);
            if (withToken && tokens[path]) params.set('csrf', tokens[path]!);
            payload = params.toString();
          }
          const cookies = [withSession ? sessionCookie : '', withLoginCookie ? loginCookie : ''].filter(Boolean).join('; ');
          const res = await fetch(`${stack.origin}${path}`, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              'x-forwarded-for': ip,
              ...(type ? { 'content-type': type } : {}),
              ...(cookies ? { cookie: cookies } : {}),
              ...(from ? { origin: from } : {}),
            },
            body: payload,
          });
          const page = await res.text();
          reached[res.status] = (reached[res.status] ?? 0) + 1;
          expect(res.status, `${path} ${payload.slice(0, 200)}\n${page.slice(0, 300)}`).toBeLessThan(500);
          if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        },
      ),
      {
        numRuns: 200,
        // Besides the random runs, one wrong password on each form, as a browser posts it: the
        // checks below then hold whatever the random runs happen to draw.
        examples: [
          [
            '/account/login',
            {
              kind: 'form',
              pairs: [
                ['email', EMAIL],
                ['password', 'not the password'],
              ],
            },
            'application/x-www-form-urlencoded',
            '203.0.113.7',
            'https://packline.test',
            true,
            false,
            true,
          ],
          [
            '/account/password',
            {
              kind: 'form',
              pairs: [
                ['current_password', 'not the password'],
                ['new_password', 'a new long passphrase here'],
              ],
            },
            'application/x-www-form-urlencoded',
            '203.0.113.8',
            'https://packline.test',
            true,
            true,
            false,
          ],
        ],
      },
    );
    // The runs went past the form checks: wrong passwords (401) and the password form's answer (303).
    expect(reached[401]).toBeGreaterThan(0);
    expect(reached[303]).toBeGreaterThan(0);
    // The member's own sign-in still works afterwards from a fresh address.
    const again = new TestBrowser(stack);
    await again.signIn(EMAIL);
  });
});
