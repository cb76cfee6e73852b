import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
import { SIGNAL_TYPES } from '../../core/entities/index.ts';
import { DELIVERY_FORMATS } from '../../core/webhooks/contract.ts';
import { Browser } from '../../facades/kit/browser.ts';
import { PASSWORD, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

// The webhook administration pages over HTTP, as a browser without script uses them: destinations
// added (the signing secret shown once), test signals seen at a real receiver, failed deliveries
// retried on Clan only, rotation and deletion after confirmation, the plan's limit, CSRF, and
// each organization's destinations and deliveries kept to its own address.

const CLAN = 'atelier-nord';
const BASE = 'cobalt-data';
const OTHER = 'delta-forge';
const TEAM_CHAT_ENV = {
  TEAM_CHAT_CLIENT_ID: 'packline-test-app',
  TEAM_CHAT_CLIENT_SECRET: 'team-chat-client-secret',
  TEAM_CHAT_AUTHORIZE_URL: 'https://chat.example/oauth/authorize',
  TEAM_CHAT_TOKEN_URL: 'https://chat.example/oauth/token',
};

const webhooks = (org: string) => `/admin/orgs/${org}/webhooks`;
const destination = (org: string, id: string) => `${webhooks(org)}/${id}`;
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
/** A form's CSRF token, by its action. */
const csrfFor = (html: string, action: string) => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `a form posting to ${action}`).toBeGreaterThan(-1);
  return hidden(html.slice(at), 'csrf');
};
const shownSecret = (html: string) => /<code id="secret-value">([^<]+)<\/code>/.exec(html)?.[1];
const unescapeHtml = (text: string) =>
  text.replace(/&(quot|#39|lt|gt|amp);/g, (_m, e: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[e]!);
const deliveryIds = (html: string, org: string) =>
  [...html.matchAll(new RegExp(`href="/admin/orgs/${org}/deliveries/([^/"]+)"`, 'g'))].map((m) => m[1]!);

async function admin(stack: Stack, email: string, organizationId: string): Promise<{ browser: TestBrowser; id: string }> {
  const data = await stack.graphql<{ createMember: { id: string } }>(
    `mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`,
    {
      input: { email, name: email.split('@')[0], password: PASSWORD, organizationId, role: 'admin' },
    },
  );
  const browser = new TestBrowser(stack);
  await browser.signIn(email, PASSWORD, '/admin');
  return { browser, id: data.createMember.id };
}

async function page(browser: TestBrowser, url: string, status = 200): Promise<string> {
  const { res } = await browser.follow(url);
  const text = await res.text();
  expect(res.status, `GET ${url}: ${text.slice(0, 600)}`).toBe(status);
  return text;
}

/** Fills the add form of `org` and answers with the page the POST returns. */
async function add(
  browser: TestBrowser,
  org: string,
  fields: Record<string, string | undefined>,
): Promise<{ status: number; html: string }> {
  const list = await page(browser, webhooks(org));
  const all = {
    csrf: csrfFor(list, webhooks(org)),
    format: 'standard-json',
    language: 'en',
    kinds: 'event.created',
    scope: 'own',
    ...fields,
  };
  // An undefined field is left out, as a browser leaves out a form's unchecked boxes.
  const form = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const posted = await browser.request(webhooks(org), { form });
  if (posted.status !== 303) return { status: posted.status, html: await posted.text() };
  // POST → 303 → GET: the destination's page, once with the secret.
  expect(posted.headers.get('location')).toMatch(new RegExp(`^${webhooks(org)}/[^/?]+`));
  const { res } = await browser.follow(posted.headers.get('location')!);
  return { status: res.status, html: await res.text() };
}

async function addDestination(browser: TestBrowser, org: string, url: string) {
  const { status, html } = await add(browser, org, { url });
  expect(status, html.slice(0, 600)).toBe(200);
  const id = new RegExp(`action="/admin/orgs/${org}/webhooks/([^/"]+)/test"`).exec(html)![1]!;
  return { id, html, secret: shownSecret(html) };
}

async function sendTest(browser: TestBrowser, org: string, id: string): Promise<string> {
  const details = await page(browser, destination(org, id));
  const action = `${destination(org, id)}/test`;
  const { res } = await browser.follow(action, { form: { csrf: csrfFor(details, action) } });
  const html = await res.text();
  expect(res.status).toBe(200);
  return html;
}

describe('webhook administration pages', () => {
  let stack: Stack;
  let receiver: Receiver;
  let clan: TestBrowser;
  let clanAdminId: string;
  let base: TestBrowser;
  let other: TestBrowser;
  let pageKeys: Browser;

  beforeAll(async () => {
    // Failed deliveries in seconds: eight attempts without delay.
    stack = await startStack({ env: { ...WEBHOOK_TEST_ENV, WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0', ...TEAM_CHAT_ENV } });
    receiver = await new Receiver().start();
    ({ browser: clan, id: clanAdminId } = await admin(stack, 'ada@atelier-nord.example', CLAN));
    ({ browser: base } = await admin(stack, 'bo@cobalt-data.example', BASE));
    ({ browser: other } = await admin(stack, 'di@delta-forge.example', OTHER));
    // What a forger holding the server's key could mint: valid tokens the pages never offered.
    pageKeys = new Browser({ secret: stack.config.dataEncryptionKey, publicBaseUrl: PUBLIC_BASE_URL });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  it('shows the plan’s allowance and the add form with every format, kind and scope', async () => {
    const html = await page(clan, webhooks(CLAN));
    expect(html).toContain('The clan plan allows up to 10 destinations (0 in use)');
    for (const format of DELIVERY_FORMATS) expect(html).toMatch(new RegExp(`<option value="${format}"( selected)?>`));
    expect(html).toContain('Standard JSON — a signed envelope');
    expect(html).toContain('Collaboration-suite adaptive card');
    for (const kind of SIGNAL_TYPES) expect(html).toMatch(new RegExp(`name="kinds" value="${kind}"( id="f-kinds")? checked`));
    expect(html).toContain('name="scope" value="own" checked');
    expect(html).toMatch(/name="scope" value="platform" id="f-scope">/);
    expect(html).toContain('Own — only your organization’s public needs and events');
    expect(html).toContain('<option value="fr">');
  });

  it('adds a standard JSON destination and shows its signing secret once, masked afterwards, its URL whole', async () => {
    const url = receiver.url('/hooks/packline-shown-once');
    const { id, html, secret } = await addDestination(clan, CLAN, url);
    expect(html).toContain('<h1>Destination added</h1>');
    expect(secret).toMatch(/^whsec_/);
    expect(html).toContain('shown once');
    expect(html).toContain('/admin/assets/copy.js');

    const again = await page(clan, destination(CLAN, id));
    expect(shownSecret(again)).toBeUndefined();
    expect(again).not.toContain(secret!);
    expect(again).toContain(`${secret!.slice(-4)}</code>`);
    const list = await page(clan, webhooks(CLAN));
    expect(list).not.toContain(secret!);
    // A standard JSON receiver is the admins' own address: shown whole.
    expect(list).toContain(`<code>${url}</code>`);
    expect(list).toContain(`href="${destination(CLAN, id)}"`);
    expect(list).toContain('The clan plan allows up to 10 destinations (1 in use)');
    expect(await page(clan, `${destination(CLAN, id)}?after=not-a-cursor`, 400)).toContain('This page of deliveries no longer exists');
  });

  it('sends a test signal that reaches the receiver, signed, and is listed as succeeded', async () => {
    const { id, secret } = await addDestination(clan, CLAN, receiver.url('/hooks/packline-test-signal'));
    const answer = await sendTest(clan, CLAN, id);
    expect(answer).toContain('Test event queued');

    const [request] = await receiver
      .waitFor(() => receiver.on('/hooks/packline-test-signal').length >= 1)
      .then(() => receiver.on('/hooks/packline-test-signal'));
    expect(request!.headers['x-service-test']).toBe('1');
    expect(verifyWebhook(request!.body, request!.headers, secret!)).toMatchObject({ type: 'event.created', organization_id: CLAN });
    await expect.poll(() => page(clan, destination(CLAN, id))).toContain('class="status-succeeded">succeeded</td>');
    expect(await page(clan, destination(CLAN, id))).toContain('<dd class="status-active">active</dd>');
    const details = await page(clan, destination(CLAN, id));
    expect(details).toContain('<code>event.created</code> (test)');
    expect(details).not.toContain('/retry"');

    const [deliveryId] = deliveryIds(details, CLAN);
    const delivery = await page(clan, `/admin/orgs/${CLAN}/deliveries/${deliveryId}`);
    expect(delivery).toContain('<td data-label="Status code">200</td>');
    expect(delivery).toContain('<h2>Request</h2>');
    expect(delivery).toContain('<code>x-service-signature</code>');
    expect(delivery).toContain('<code>x-service-test</code>');
    expect(delivery).toMatch(/<dt>Destination<\/dt><dd><a href="[^"]+">[^<]+<\/a> <code>http:\/\/127\.0\.0\.1:\d+\//);
    expect(delivery).toContain('<pre>ok</pre>');
    expect(delivery).toContain(`href="${destination(CLAN, id)}"`);
  });

  it("shows each attempt's request as sent (signature values, the body sized) and the receiver's answer (headers without cookies)", async () => {
    const path = '/hooks/packline-debugging';
    receiver.plan(path, {
      status: 202,
      headers: { 'x-receiver-trace': 'trace-<42>', 'set-cookie': 'session=receiver-secret' },
      body: 'queued',
    });
    const { id, secret } = await addDestination(clan, CLAN, receiver.url(path));
    await sendTest(clan, CLAN, id);
    await receiver.waitFor(() => receiver.on(path).length >= 1);
    const [request] = receiver.on(path);
    await expect.poll(() => page(clan, destination(CLAN, id))).toContain('class="status-succeeded">succeeded</td>');
    const [deliveryId] = deliveryIds(await page(clan, destination(CLAN, id)), CLAN);
    const delivery = await page(clan, `/admin/orgs/${CLAN}/deliveries/${deliveryId}`);

    // The request: the very signature values the receiver got, and the body it got, pretty-printed and sized.
    const signature = String(request!.headers['x-service-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery).toContain('<details id="attempt-1" open>');
    expect(delivery).toContain(
      `<td data-label="Header"><code>x-service-signature</code></td><td data-label="Value"><code>${signature}</code></td>`,
    );
    expect(delivery).toContain(`<code>${String(request!.headers['webhook-signature'])}</code>`);
    expect(delivery).not.toContain(secret!);
    expect(delivery).toContain(`<span id="body-size">${Buffer.byteLength(request!.body).toLocaleString('en')} bytes</span>`);
    const shownBody = unescapeHtml(/<pre id="body">([^<]*)<\/pre>/.exec(delivery)?.[1] ?? '');
    expect(shownBody).toContain('\n  "type": "event.created"');
    expect(JSON.parse(shownBody)).toEqual(JSON.parse(request!.body));

    // The response: status, the receiver's own header, its body; never its cookie.
    expect(delivery).toContain(
      '<td data-label="Header"><code>x-receiver-trace</code></td><td data-label="Value"><code>trace-&lt;42&gt;</code></td>',
    );
    expect(delivery).toContain('<pre>queued</pre>');
    expect(delivery).not.toContain('set-cookie');
    expect(delivery).not.toContain('receiver-secret');

    // Within the plan's 10 destinations, for the tests after this one.
    const confirmPath = `${destination(CLAN, id)}/delete`;
    const { url } = await clan.follow(confirmPath, { form: { csrf: csrfFor(await page(clan, confirmPath), confirmPath) } });
    expect(new URL(url).pathname).toBe(webhooks(CLAN));
  });

  it('offers Retry on Clan for a failed delivery, and the retry sends it again', async () => {
    const path = '/hooks/packline-failing';
    receiver.plan(path, { status: 500, body: 'receiver <down>' });
    const { id } = await addDestination(clan, CLAN, receiver.url(path));
    await sendTest(clan, CLAN, id);
    await expect
      .poll(() => page(clan, destination(CLAN, id)), { timeout: 20_000 })
      .toContain('class="status-failed">failed after 8 attempts</td>');

    const details = await page(clan, destination(CLAN, id));
    expect(details).toMatch(/<dd class="status-failed">failing since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(details).toContain('The clan plan keeps the newest 100 finished deliveries');
    const [deliveryId] = deliveryIds(details, CLAN);
    const retry = `/admin/orgs/${CLAN}/deliveries/${deliveryId}/retry`;
    expect(details).toContain(`action="${retry}"`);
    const delivery = await page(clan, `/admin/orgs/${CLAN}/deliveries/${deliveryId}`);
    expect(delivery.match(/<td data-label="Status code">500<\/td>/g)).toHaveLength(8);
    expect(delivery).toContain('<pre>receiver &lt;down&gt;</pre>');

    receiver.plan(path, { status: 200 });
    const { res } = await clan.follow(retry, { form: { csrf: csrfFor(delivery, retry) } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('The delivery is queued again');
    await expect.poll(() => page(clan, destination(CLAN, id))).toContain('class="status-succeeded">succeeded at attempt 9</td>');
    expect(await page(clan, destination(CLAN, id))).toContain('<dd class="status-active">active</dd>');
    expect(receiver.on(path)).toHaveLength(9);
  }, 60_000);

  it('on Base: one destination, no Retry, and a forged retry refused', async () => {
    const empty = await page(base, webhooks(BASE));
    expect(empty).toContain('The base plan allows up to 1 destination (0 in use)');
    const token = csrfFor(empty, webhooks(BASE));
    const path = '/hooks/packline-base-down';
    receiver.plan(path, { status: 500 });
    const { id } = await addDestination(base, BASE, receiver.url(path));

    const full = await page(base, webhooks(BASE));
    expect(full).toContain('The base plan allows up to 1 destination (1 in use)');
    expect(full).toContain('The base plan allows 1 webhook destination. Delete one before adding another, or move to a larger plan.');
    expect(full).not.toContain('Add destination</button>');
    expect(full).not.toContain('Connect a team-chat channel</button>');
    // The server refuses too, with the token of the form shown before.
    const refused = await base.request(webhooks(BASE), {
      form: { csrf: token, format: 'standard-json', url: receiver.url('/hooks/second'), kinds: 'need.created' },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('allows 1 webhook destination');

    await sendTest(base, BASE, id);
    await expect
      .poll(() => page(base, destination(BASE, id)), { timeout: 20_000 })
      .toContain('class="status-failed">failed after 8 attempts</td>');
    const details = await page(base, destination(BASE, id));
    expect(details).toContain('The base plan keeps the newest 12 finished deliveries');
    expect(details).toContain('part of the clan plan');
    expect(details).not.toContain('/retry"');
    expect(details).not.toContain('>Retry<');
    const [deliveryId] = deliveryIds(details, BASE);
    const delivery = await page(base, `/admin/orgs/${BASE}/deliveries/${deliveryId}`);
    expect(delivery).not.toContain('/retry"');

    const forged = await base.request(`/admin/orgs/${BASE}/deliveries/${deliveryId}/retry`, {
      form: { csrf: pageKeys.csrf(base.cookie(SESSION)!, `delivery-retry\n${deliveryId}`) },
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('Manual retry is part of the clan plan');
    expect(receiver.on(path)).toHaveLength(8);
  }, 60_000);

  it('shows why a destination was disabled and enables it again', async () => {
    const path = '/hooks/packline-gone';
    receiver.plan(path, { status: 410 }, { status: 200 });
    const { id } = await addDestination(clan, CLAN, receiver.url(path));
    await sendTest(clan, CLAN, id);
    await expect
      .poll(() => page(clan, destination(CLAN, id)))
      .toContain('class="status-disabled">disabled (The receiver answered 410 Gone)</dd>');
    expect(await page(clan, webhooks(CLAN))).toContain('class="status-disabled">disabled (The receiver answered 410 Gone)</td>');
    const details = await page(clan, destination(CLAN, id));
    expect(details).not.toContain('Send a test event</button>');
    const action = `${destination(CLAN, id)}/enable`;
    const { res } = await clan.follow(action, { form: { csrf: csrfFor(details, action) } });
    const enabled = await res.text();
    expect(enabled).toContain('The destination is active again');
    expect(enabled).toContain('class="status-active">active</dd>');
    await sendTest(clan, CLAN, id);
    await receiver.waitFor(() => receiver.on(path).length >= 2, 'a test signal after enabling');
  });

  it('edits a destination in place, keeps what was typed when refused, and pauses and resumes it', async () => {
    const { id } = await addDestination(clan, CLAN, receiver.url('/hooks/packline-editable'));
    const editPath = `${destination(CLAN, id)}/edit`;
    expect(await page(clan, destination(CLAN, id))).toContain(`href="${editPath}"`);
    const form = await page(clan, editPath);
    expect(form).toContain('name="kinds" value="event.created" checked>');
    expect(form).toContain('name="kinds" value="need.created" id="f-kinds">');
    const token = csrfFor(form, editPath);
    const bad = await clan.request(editPath, {
      form: {
        csrf: token,
        name: 'Billing',
        description: 'Invoices',
        url: 'not a url',
        language: 'fr',
        kinds: 'need.created',
        scope: 'own',
      },
    });
    const refusedPage = await bad.text();
    expect(bad.status).toBe(400);
    expect(refusedPage).toContain('There is a problem');
    expect(refusedPage).toContain('value="Billing"');
    expect(refusedPage).toContain('>Invoices</textarea>');
    expect(refusedPage).toMatch(/value="not a url" id="f-url" aria-invalid="true"/);
    const saved = await clan.follow(editPath, {
      form: { csrf: token, name: 'Billing', description: 'Invoices', url: '', language: 'fr', kinds: 'need.created', scope: 'own' },
    });
    const details = await saved.res.text();
    expect(details).toContain('The destination is saved.');
    expect(details).toContain('<dt>Name</dt><dd>Billing</dd>');
    expect(details).toContain('<dt>Description</dt><dd>Invoices</dd>');
    expect(details).toContain('<dt>Event kinds</dt><dd>need.created</dd>');
    expect(await page(clan, webhooks(CLAN))).toContain('>Billing</a><br><span class="note">Invoices</span>');

    const pauseAction = `${destination(CLAN, id)}/pause`;
    const paused = await (await clan.follow(pauseAction, { form: { csrf: csrfFor(details, pauseAction) } })).res.text();
    expect(paused).toContain('class="status-paused">paused</dd>');
    expect(paused).not.toContain('Send a test event</button>');
    const resumeAction = `${destination(CLAN, id)}/enable`;
    const resumed = await (await clan.follow(resumeAction, { form: { csrf: csrfFor(paused, resumeAction) } })).res.text();
    expect(resumed).toContain('class="status-active">active</dd>');
    expect(resumed).toContain('Send a test event</button>');
  });

  it('rotates the signing secret after confirmation: the new one shown once, the old one signing for 24 h', async () => {
    const path = '/hooks/packline-rotation';
    const { id, secret: old } = await addDestination(clan, CLAN, receiver.url(path));
    const details = await page(clan, destination(CLAN, id));
    const confirmPath = `${destination(CLAN, id)}/rotate`;
    expect(details).toContain(`href="${confirmPath}"`);
    const confirm = await page(clan, confirmPath);
    expect(confirm).toContain('value="one_day" checked> for 24 hours');
    const posted = await clan.request(confirmPath, { form: { csrf: csrfFor(confirm, confirmPath) } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(destination(CLAN, id));
    const res = await clan.request(destination(CLAN, id));
    const rotated = await res.text();
    expect(res.status).toBe(200);
    expect(rotated).toContain('<h1>New signing secret</h1>');
    const fresh = shownSecret(rotated);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(rotated).toContain('The old secret keeps signing until');
    expect(rotated).toContain('/admin/assets/copy.js');
    expect(shownSecret(await page(clan, destination(CLAN, id)))).toBeUndefined();

    await sendTest(clan, CLAN, id);
    const [request] = await receiver.waitFor(() => receiver.on(path).length >= 1).then(() => receiver.on(path));
    expect(verifyWebhook(request!.body, request!.headers, fresh!)).toMatchObject({ type: 'event.created' });
    expect(verifyWebhook(request!.body, request!.headers, old!)).toMatchObject({ type: 'event.created' });
  });

  it('deletes a destination after confirmation and goes back to the list', async () => {
    const { id } = await addDestination(clan, CLAN, receiver.url('/hooks/packline-deleted'));
    const confirmPath = `${destination(CLAN, id)}/delete`;
    const confirm = await page(clan, confirmPath);
    expect(confirm).toContain('This cannot be undone');
    const { res, url } = await clan.follow(confirmPath, { form: { csrf: csrfFor(confirm, confirmPath) } });
    expect(new URL(url).pathname).toBe(webhooks(CLAN));
    const list = await res.text();
    expect(list).toContain('The destination is deleted');
    expect(list).not.toContain(destination(CLAN, id));
    await page(clan, destination(CLAN, id), 404);
  });

  it('refuses a form without its CSRF token, or with the token of another destination', async () => {
    const none = await clan.request(webhooks(CLAN), {
      form: { format: 'standard-json', url: receiver.url('/hooks/no-token'), kinds: 'need.created' },
    });
    expect(none.status).toBe(403);
    const { id: first } = await addDestination(clan, CLAN, receiver.url('/hooks/packline-first'));
    const { id: second } = await addDestination(clan, CLAN, receiver.url('/hooks/packline-second'));
    expect((await clan.request(`${destination(CLAN, first)}/delete`, { form: {} })).status).toBe(403);
    const confirm = await page(clan, `${destination(CLAN, first)}/delete`);
    const borrowed = await clan.request(`${destination(CLAN, second)}/delete`, {
      form: { csrf: csrfFor(confirm, `${destination(CLAN, first)}/delete`) },
    });
    expect(borrowed.status).toBe(403);
    await page(clan, destination(CLAN, second));
    const details = await page(clan, destination(CLAN, first));
    expect(
      (
        await clan.request(`/admin/orgs/${CLAN}/deliveries/any/retry`, {
          form: { csrf: csrfFor(details, `${destination(CLAN, first)}/test`) },
        })
      ).status,
    ).toBe(403);
  });

  it('keeps each organization’s destinations and deliveries to its own address', async () => {
    const { id } = await addDestination(clan, CLAN, receiver.url('/hooks/packline-private'));
    await sendTest(clan, CLAN, id);
    await expect.poll(async () => deliveryIds(await page(clan, destination(CLAN, id)), CLAN)).toHaveLength(1);
    const [deliveryId] = deliveryIds(await page(clan, destination(CLAN, id)), CLAN);

    // An admin of another organization: 403 on these pages, not found under their own.
    for (const path of [
      webhooks(CLAN),
      destination(CLAN, id),
      `${destination(CLAN, id)}/delete`,
      `/admin/orgs/${CLAN}/deliveries/${deliveryId}`,
    ]) {
      expect(await page(other, path, 403)).toContain('Only the admins of organization');
    }
    const testForm = pageKeys.csrf(other.cookie(SESSION)!, `webhook-test\n${id}`);
    expect((await other.request(`${destination(CLAN, id)}/test`, { form: { csrf: testForm } })).status).toBe(403);
    await page(other, destination(OTHER, id), 404);
    await page(other, `/admin/orgs/${OTHER}/deliveries/${deliveryId}`, 404);

    // An admin of both: still not found under the other organization's address, even with valid tokens.
    await stack.graphql(`mutation ($m: ID!, $o: ID!) { setMembership(memberId: $m, organizationId: $o, role: admin) { id } }`, {
      m: clanAdminId,
      o: OTHER,
    });
    const foreign = await page(clan, destination(OTHER, id), 404);
    expect(foreign).toContain(`No webhook destination with id &#39;${id}&#39;`);
    expect(foreign).not.toContain('Send a test event');
    expect(await page(clan, `/admin/orgs/${OTHER}/deliveries/${deliveryId}`, 404)).not.toContain('event.created');
    const details = await page(clan, destination(CLAN, id));
    for (const action of ['test', 'delete']) {
      const token =
        action === 'test'
          ? csrfFor(details, `${destination(CLAN, id)}/test`)
          : pageKeys.csrf(clan.cookie(SESSION)!, `webhook-delete\n${id}`);
      expect((await clan.request(`${destination(OTHER, id)}/${action}`, { form: { csrf: token } })).status).toBe(404);
    }
    const retry = await clan.request(`/admin/orgs/${OTHER}/deliveries/${deliveryId}/retry`, {
      form: { csrf: pageKeys.csrf(clan.cookie(SESSION)!, `delivery-retry\n${deliveryId}`) },
    });
    expect(retry.status).toBe(404);
    await page(clan, destination(CLAN, id));
    expect(deliveryIds(await page(clan, destination(CLAN, id)), CLAN)).toHaveLength(1);
  });

  it('connects a team-chat channel through the provider, which the page’s CSP lets the form reach', async () => {
    const res = await clan.request(webhooks(CLAN));
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://chat.example;");
    const list = await res.text();
    expect(list).toContain('Connect a team-chat channel</button>');
    const action = `${webhooks(CLAN)}/team-chat`;
    const answer = await clan.request(action, {
      form: { csrf: csrfFor(list, action), language: 'fr', kinds: 'need.created', scope: 'platform' },
    });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(TEAM_CHAT_ENV.TEAM_CHAT_AUTHORIZE_URL);
    expect(location.searchParams.get('client_id')).toBe(TEAM_CHAT_ENV.TEAM_CHAT_CLIENT_ID);
    expect(location.searchParams.get('scope')).toBe('incoming-webhook');
    expect(location.searchParams.get('redirect_uri')).toBe(`${PUBLIC_BASE_URL}/integrations/team-chat/callback`);
    const state = location.searchParams.get('state')!;
    // Bound to this browser's session: without it the state is refused.
    await expect(stack.graphql(`query ($s: String!) { pendingTeamChatConnection(state: $s) { expiresAt } }`, { s: state })).rejects.toThrow(
      /started in another browser/,
    );
  });
});

describe('webhook administration pages under the production URL rules', () => {
  let stack: Stack;
  let browser: TestBrowser;
  const ORG = 'juniper-green';

  beforeAll(async () => {
    stack = await startStack();
    ({ browser } = await admin(stack, 'jo@juniper-green.example', ORG));
  });
  afterAll(() => stack?.close());

  it('explains refused input instead of failing', async () => {
    for (const [fields, message] of [
      [{ url: 'not a url' }, /URL/],
      [{ url: 'https://127.0.0.1/hook' }, /private or reserved address/],
      [{ url: 'http://93.184.216.34/hook' }, /https/],
      [{ url: 'https://93.184.216.34/hook', format: 'xml' }, /Format: Choose one of the formats\./],
      [{ url: 'https://93.184.216.34/hook', kinds: undefined }, /Event kinds: Choose at least one event kind\./],
      [{ url: 'https://93.184.216.34/hook', kinds: 'payout.sent' }, /Choose at least one event kind\./],
      [{ url: 'https://93.184.216.34/hook', scope: 'everyone' }, /Scope: Choose whether the destination gets every public signal/],
    ] as const) {
      const { status, html } = await add(browser, ORG, fields);
      expect(status, html.slice(0, 600)).toBe(400);
      expect(html).toMatch(message);
      expect(html).toContain('<h2 id="error-summary-title">There is a problem</h2>');
    }
    // The error sits beside its field, the form refilled with what was typed.
    const { html } = await add(browser, ORG, {
      url: 'https://127.0.0.1/hook',
      kinds: 'event.cancelled',
      scope: 'platform',
      language: 'fr',
    });
    expect(html).toMatch(
      /<input type="url" name="url"[^>]* value="https:\/\/127.0.0.1\/hook" id="f-url" aria-invalid="true" aria-describedby="f-url-error url-help">/,
    );
    expect(html).toMatch(/<p id="f-url-error" class="field-error">.*private or reserved address/);
    expect(html).toContain('<a href="#f-url">URL:');
    expect(html).toContain('<option value="fr" selected>');
    expect(html).toContain('value="event.cancelled" checked>');
    expect(html).not.toContain('value="event.created" id="f-kinds" checked>');
    expect(await page(browser, webhooks(ORG))).toContain('up to 10 destinations (0 in use)');
  });

  it('without the connection flow, says to paste the channel’s incoming URL with the team-chat format', async () => {
    const res = await browser.request(webhooks(ORG));
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self';");
    const html = await res.text();
    expect(html).toContain(
      'One-click connection is not available on this service; paste the channel’s incoming webhook URL with the team-chat format.',
    );
    expect(html).not.toContain('TEAM_CHAT_CLIENT_ID');
    expect(html).not.toContain('Connect a team-chat channel</button>');
    const refused = await browser.request(`${webhooks(ORG)}/team-chat`, {
      form: { csrf: pageKeysFor(stack).csrf(browser.cookie(SESSION)!, 'webhook-team-chat') },
    });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('not set up on this service');
  });
});

const pageKeysFor = (stack: Stack) => new Browser({ secret: stack.config.dataEncryptionKey, publicBaseUrl: PUBLIC_BASE_URL });
