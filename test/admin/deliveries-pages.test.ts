import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createDestination, WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

// What an admin sees of deliveries: Retry only where it can work and coming back to the delivery,
// a delivery waiting behind a failing one, the body and headers each attempt really sent, and an
// empty filter. One failed attempt waits an hour before the next, so a delivery stays "retrying".

const CLAN = 'atelier-nord';
const org = `/admin/orgs/${CLAN}`;
const deliveryPage = (id: string) => `${org}/deliveries/${id}`;
const unescapeHtml = (text: string) =>
  text.replace(/&(quot|#39|lt|gt|amp);/g, (_m, e: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[e]!);
const csrfFor = (html: string, action: string) => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `a form posting to ${action}`).toBeGreaterThan(-1);
  return /name="csrf" value="([^"]+)"/.exec(html.slice(at))![1]!;
};

describe('delivery pages', () => {
  let stack: Stack;
  let receiver: Receiver;
  let clan: TestBrowser;

  async function page(url: string): Promise<string> {
    const { res } = await clan.follow(url);
    const text = await res.text();
    expect(res.status, `GET ${url}: ${text.slice(0, 600)}`).toBe(200);
    return text;
  }
  async function sendTest(destinationId: string): Promise<string> {
    const data = await stack.graphql<{ sendTestSignal: { id: string } }>(
      'mutation ($id: ID!) { sendTestSignal(destinationId: $id) { id } }',
      { id: destinationId },
    );
    return data.sendTestSignal.id;
  }
  const hook = (path: string, format = 'standard-json') =>
    createDestination(stack, { organizationId: CLAN, url: receiver.url(path), format, kinds: ['event.created'] });

  beforeAll(async () => {
    stack = await startStack({ env: { ...WEBHOOK_TEST_ENV, WEBHOOK_RETRY_SCHEDULE: '0,3600,3600,3600,3600,3600,3600,3600' } });
    receiver = await new Receiver().start();
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email: 'ada@atelier-nord.example', name: 'ada', password: PASSWORD, organizationId: CLAN, role: 'admin' },
    });
    clan = new TestBrowser(stack);
    await clan.signIn('ada@atelier-nord.example', PASSWORD, '/admin');
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  it('says a delivery waits behind a failing one, and "Retry now" comes back to the delivery', async () => {
    const path = '/hooks/deliveries-behind';
    receiver.plan(path, { status: 500 }, { status: 200 });
    const { id } = await hook(path);
    const first = await sendTest(id);
    await receiver.waitFor(() => receiver.on(path).length >= 1);
    const second = await sendTest(id);
    await expect.poll(() => page(deliveryPage(first))).toContain('retrying (attempt 2 of 8, next at');
    await expect
      .poll(() => page(deliveryPage(second)), { timeout: 15_000 })
      .toMatch(/waiting behind an earlier delivery to this destination \(due since \d{4}-\d\d-\d\d/);
    expect(await page(deliveryPage(second))).not.toContain('first attempt at');

    const retry = `${deliveryPage(first)}/retry`;
    const shown = await page(deliveryPage(first));
    expect(shown).toContain('>Retry now<');
    const posted = await clan.request(retry, { form: { csrf: csrfFor(shown, retry) } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${deliveryPage(first)}?done=retried`);
    expect(await page(posted.headers.get('location')!)).toContain('The delivery is queued again and sent now.');
    await expect.poll(() => page(deliveryPage(second))).toContain('class="status-succeeded">succeeded</dd>');
  }, 40_000);

  it('offers no Retry on a disabled destination, and a forged one is refused without a raw id', async () => {
    const path = '/hooks/deliveries-gone';
    receiver.plan(path, { status: 410 });
    const { id } = await hook(path);
    const delivery = await sendTest(id);
    await expect.poll(() => page(`${org}/webhooks/${id}`)).toContain('<dd class="status-disabled">');
    const list = await page(`${org}/webhooks/${id}`);
    expect(list).not.toContain('/retry"');
    const shown = await page(deliveryPage(delivery));
    expect(shown).not.toContain('/retry"');
    expect(shown).toContain('The destination is disabled: enable it to retry this delivery.');

    const forged = stack.graphql('mutation ($id: ID!) { retryWebhookDelivery(id: $id) { id } }', { id: delivery });
    await expect(forged).rejects.toThrow(/^The destination of this delivery is disabled; enable it before retrying$/);
  });

  it.each([
    ['team-chat', '/hooks/deliveries-chat'],
    ['collaboration-suite', '/hooks/deliveries-suite'],
  ])('shows the %s body actually posted, and every header sent', async (format, path) => {
    receiver.plan(path, { status: 200 });
    const { id } = await hook(path, format);
    const delivery = await sendTest(id);
    const [request] = await receiver.waitFor(() => receiver.on(path).length >= 1).then(() => receiver.on(path));
    await expect.poll(() => page(deliveryPage(delivery))).toContain('<td data-label="Status code">200</td>');
    const shown = await page(deliveryPage(delivery));

    const body = unescapeHtml(/<pre id="body">([^<]*)<\/pre>/.exec(shown)![1]!);
    expect(JSON.parse(body)).toEqual(JSON.parse(request!.body));
    expect(shown).toContain(`<span id="body-size">${Buffer.byteLength(request!.body).toLocaleString('en')} bytes</span>`);
    expect(JSON.parse(unescapeHtml(/<pre id="envelope">([^<]*)<\/pre>/.exec(shown)![1]!))).toMatchObject({ type: 'event.created' });

    // Each header the receiver got is in the attempt's record with its value, those the HTTP
    // client writes (host, connection, content-length) included.
    const recorded = shown.slice(shown.indexOf('<caption>Headers sent at attempt 1</caption>'));
    for (const [name, value] of Object.entries(request!.headers)) {
      expect(recorded).toContain(`<code>${name}</code></td><td data-label="Value"><code>${value}</code>`);
    }
    expect(request!.headers['x-service-test']).toBe('1');
  });

  it('says no delivery matches an empty filter', async () => {
    const path = '/hooks/deliveries-filter';
    receiver.plan(path, { status: 200 });
    const { id } = await hook(path);
    await sendTest(id);
    await expect.poll(() => page(`${org}/webhooks/${id}`)).toContain('class="status-succeeded">succeeded</td>');
    const filtered = await page(`${org}/webhooks/${id}?status=failed`);
    expect(filtered).toContain('No delivery matches these filters.');
    expect(filtered).not.toContain('No delivery here yet');
  });
});

describe('deliveries across destinations', () => {
  let stack: Stack;
  let receiver: Receiver;
  let clan: TestBrowser;

  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV });
    receiver = await new Receiver().start();
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email: 'ada@atelier-nord.example', name: 'ada', password: PASSWORD, organizationId: CLAN, role: 'admin' },
    });
    clan = new TestBrowser(stack);
    await clan.signIn('ada@atelier-nord.example', PASSWORD, '/admin');
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  it('lists every destination’s deliveries, searched by id and by days, and refuses a malformed day', async () => {
    receiver.plan('/hooks/across', { status: 200 });
    const ids: string[] = [];
    for (const name of ['first', 'second']) {
      const { id } = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/hooks/across'), kinds: ['event.created'] });
      await stack.graphql(
        'mutation ($id: ID!, $input: WebhookDestinationChangesInput!) { updateWebhookDestination(id: $id, input: $input) { id } }',
        {
          id,
          input: { name },
        },
      );
      const sent = await stack.graphql<{ sendTestSignal: { id: string } }>(
        'mutation ($id: ID!) { sendTestSignal(destinationId: $id) { id } }',
        { id },
      );
      ids.push(sent.sendTestSignal.id);
    }
    const { res } = await clan.follow(`${org}/deliveries`);
    const all = await res.text();
    expect(res.status).toBe(200);
    expect(all).toContain('<th>Destination</th>');
    expect(all).toMatch(/<td data-label="Destination"><a href="[^"]+">first<\/a>/);
    expect(all).toMatch(/<td data-label="Destination"><a href="[^"]+">second<\/a>/);
    for (const id of ids) expect(all).toContain(`href="${deliveryPage(id)}"`);

    const one = await (await clan.follow(`${org}/deliveries?q=${ids[0]}`)).res.text();
    expect(one).toContain(`href="${deliveryPage(ids[0]!)}"`);
    expect(one).not.toContain(`href="${deliveryPage(ids[1]!)}"`);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await (await clan.follow(`${org}/deliveries?from=${today}&to=${today}`)).res.text();
    for (const id of ids) expect(dated).toContain(`href="${deliveryPage(id)}"`);
    const none = await (await clan.follow(`${org}/deliveries?to=2000-01-01`)).res.text();
    expect(none).toContain('No delivery matches these filters.');

    const bad = await clan.follow(`${org}/deliveries?from=yesterday`);
    expect(bad.res.status).toBe(400);
    expect(await bad.res.text()).toContain('from must be a day such as 2025-01-31');
  });
});
