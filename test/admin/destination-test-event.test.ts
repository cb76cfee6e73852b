import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
import { SIGNAL_DATA } from '../../core/visibility.ts';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createDestination, WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

// "Send a test event" with the event kind the admin picks among the destination's kinds: the
// receiver gets a sample of that kind, its data the declared example's fields; a kind the
// destination does not receive is refused with the field named, never a 500.

const CLAN = 'atelier-nord';
const destinationPath = (id: string) => `/admin/orgs/${CLAN}/webhooks/${id}`;
const csrfFor = (html: string, action: string) => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `a form posting to ${action}`).toBeGreaterThan(-1);
  return /name="csrf" value="([^"]+)"/.exec(html.slice(at))![1]!;
};

describe('the test event of a chosen kind', () => {
  let stack: Stack;
  let receiver: Receiver;
  let clan: TestBrowser;

  async function page(url: string): Promise<string> {
    const { res } = await clan.follow(url);
    const text = await res.text();
    expect(res.status, `GET ${url}: ${text.slice(0, 600)}`).toBe(200);
    return text;
  }

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

  it('offers the destination’s kinds and delivers a sample of the one picked', async () => {
    const path = '/hooks/test-event-kind';
    const kinds = ['need.created', 'event.cancelled'];
    const { id, secret } = await createDestination(stack, { organizationId: CLAN, url: receiver.url(path), kinds });
    const details = await page(destinationPath(id));
    expect(details).toContain(
      '<select name="kind" id="test-kind"><option value="need.created">need.created</option>' +
        '<option value="event.cancelled">event.cancelled</option></select>',
    );

    const action = `${destinationPath(id)}/test`;
    const { res } = await clan.follow(action, { form: { csrf: csrfFor(details, action), kind: 'event.cancelled' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Test event queued');

    await receiver.waitFor(() => receiver.on(path).length >= 1);
    const [request] = receiver.on(path);
    expect(request!.headers['x-service-test']).toBe('1');
    const envelope = verifyWebhook(request!.body, request!.headers, secret!) as { type: string; data: Record<string, unknown> };
    expect(envelope.type).toBe('event.cancelled');
    // PostgreSQL keeps the stored envelope as jsonb, whose keys come back in its own order.
    const declared = Object.keys(SIGNAL_DATA['event.cancelled'].example() as object);
    expect(Object.keys(envelope.data).sort()).toEqual(declared.sort());
  });

  it('refuses a kind the destination does not receive, naming the field', async () => {
    const { id } = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/hooks/other'), kinds: ['need.created'] });
    const details = await page(destinationPath(id));
    const action = `${destinationPath(id)}/test`;
    const refused = await clan.request(action, { form: { csrf: csrfFor(details, action), kind: 'event.updated' } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('kind must be one of need.created (got &#39;event.updated&#39;)');
    await expect(
      stack.graphql('mutation ($id: ID!) { sendTestSignal(destinationId: $id, kind: "nope") { id } }', { id }),
    ).rejects.toMatchObject({ codes: ['INVALID_INPUT'] });
  });
});
