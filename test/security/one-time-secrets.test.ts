// A one-time secret (a new API key, a webhook signing secret) is shown once, whatever instance
// answers and however many restarts later: the same cookies replayed show nothing. "Shown" is
// recorded in Redis when it is configured, in the database otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { FLASH, PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

const ORG = 'atelier-nord';
const KEYS = `/admin/orgs/${ORG}/keys`;
const WEBHOOKS = `/admin/orgs/${ORG}/webhooks`;

const shownSecret = (html: string) => /<code id="secret-value">([^<]+)<\/code>/.exec(html)?.[1];
const csrfFor = (html: string, action: string) => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `a form posting to ${action}`).toBeGreaterThan(-1);
  return /name="csrf" value="([^"]+)"/.exec(html.slice(at))![1]!;
};
const nextYear = () => `${new Date().getUTCFullYear() + 1}-12-31`;

/** A `packline start` process over the stack's database, data directory and Redis prefix. */
async function instance(stack: Stack, running: CliProcess[]): Promise<{ proc: CliProcess; at: Stack }> {
  const proc = spawnCli(['start', '--role', 'api', '--no-demo'], { ...stack.serverEnv, PORT: '0' });
  running.push(proc);
  const [, port] = await proc.waitForOutput(/listening on 127\.0\.0\.1:(\d+)[\s\S]*^Try: /m, 45_000);
  // The test browser needs only the address it sends to.
  return { proc, at: { origin: `http://127.0.0.1:${port}` } as Stack };
}

/** The same browser's cookies, presented to another instance. */
function replayTo(stack: Stack, from: TestBrowser): TestBrowser {
  const copy = new TestBrowser(stack);
  for (const name of [SESSION, FLASH]) {
    const value = from.cookie(name);
    if (value !== undefined) copy.setCookie(name, value);
  }
  return copy;
}

async function html(browser: TestBrowser, path: string): Promise<string> {
  const res = await browser.request(path);
  const text = await res.text();
  expect(res.status, `GET ${path}: ${text.slice(0, 300)}`).toBe(200);
  return text;
}

/** Creates an API key on the keys page; the browser then holds the flash that carries it. */
async function createKey(browser: TestBrowser, name: string): Promise<void> {
  const list = await html(browser, KEYS);
  const posted = await browser.request(KEYS, {
    form: { csrf: csrfFor(list, KEYS), name, scopes: 'events:read', expires_on: nextYear() },
  });
  expect(posted.status).toBe(303);
  expect(browser.cookie(FLASH)).toBeDefined();
}

// Each instance is a process of its own, as in production: what one process keeps in memory,
// another (or the next one, after a restart) cannot see.
describe(`one-time secrets (${process.env.REDIS_URL ? 'Redis' : 'database'})`, () => {
  let stack: Stack;
  const running: CliProcess[] = [];
  let signedIn: TestBrowser;

  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV });
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email: 'once@atelier-nord.example', name: 'Once', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
    signedIn = new TestBrowser(stack);
    await signedIn.signIn('once@atelier-nord.example', PASSWORD, '/admin');
  });
  afterAll(async () => {
    for (const proc of running) await proc.stop().catch(() => proc.kill());
    await stack?.close();
  });

  it('a new API key shown by one instance is not shown again by another with the same cookies', async () => {
    const [one, two] = await Promise.all([instance(stack, running), instance(stack, running)]);
    const admin = replayTo(one.at, signedIn);
    await createKey(admin, 'Shown on the first');
    const copy = replayTo(two.at, admin);
    expect(shownSecret(await html(admin, KEYS))).toMatch(/^live_/);
    const replayed = await html(copy, KEYS);
    expect(replayed).toContain('<h1>API keys</h1>');
    expect(shownSecret(replayed)).toBeUndefined();

    // And the other way round: shown by the second, replayed to the first.
    await createKey(admin, 'Shown on the second');
    const back = replayTo(one.at, admin);
    expect(shownSecret(await html(replayTo(two.at, admin), KEYS))).toMatch(/^live_/);
    expect(shownSecret(await html(back, KEYS))).toBeUndefined();
  });

  it('a signing secret shown before a restart is not shown again after it', async () => {
    const before = await instance(stack, running);
    const admin = replayTo(before.at, signedIn);
    const list = await html(admin, WEBHOOKS);
    const posted = await admin.request(WEBHOOKS, {
      form: {
        csrf: csrfFor(list, WEBHOOKS),
        url: 'http://127.0.0.1:9/hook',
        format: 'standard-json',
        language: 'en',
        kinds: 'event.created',
        scope: 'own',
      },
    });
    expect(posted.status).toBe(303);
    const destination = posted.headers.get('location')!;
    const kept = replayTo(before.at, admin);
    expect(shownSecret(await html(admin, destination))).toMatch(/^whsec_/);

    // The process ends; a new one starts over the same database (and Redis).
    expect(await before.proc.stop()).toEqual({ code: 0, signal: null });
    const after = await instance(stack, running);
    const replayed = await html(replayTo(after.at, kept), destination);
    expect(replayed).toContain('Signing');
    expect(shownSecret(replayed)).toBeUndefined();
  });
});
