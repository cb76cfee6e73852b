import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createDestination, WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

// Each destination's deliveries of the last 24 hours, in GraphQL (`lastDayDeliveries`, loaded
// for all the destinations at once) and on the webhooks list and the destination's page:
// "50 % of 2 deliveries succeeded in the last 24 h", or "no delivery in the last 24 h".

const CLAN = 'atelier-nord';
const webhooks = `/admin/orgs/${CLAN}/webhooks`;
const FAIL_EIGHT_TIMES = Array.from({ length: 8 }, () => ({ status: 500 }));

interface Outcomes {
  webhookDestinations: { id: string; lastDayDeliveries: { since: string; finished: number; succeeded: number } }[];
}

describe('deliveries of the last 24 hours', () => {
  let stack: Stack;
  let receiver: Receiver;
  let clan: TestBrowser;

  async function page(url: string): Promise<string> {
    const { res } = await clan.follow(url);
    const text = await res.text();
    expect(res.status, `GET ${url}: ${text.slice(0, 600)}`).toBe(200);
    return text;
  }
  const sendTest = (id: string) => stack.graphql('mutation ($id: ID!) { sendTestSignal(destinationId: $id) { id } }', { id });
  const outcomes = async () =>
    (
      await stack.graphql<Outcomes>(
        'query ($org: ID!) { webhookDestinations(organizationId: $org) { id lastDayDeliveries { since finished succeeded } } }',
        { org: CLAN },
      )
    ).webhookDestinations;
  const finishedOf = async (id: string) => (await outcomes()).find((d) => d.id === id)?.lastDayDeliveries.finished;

  beforeAll(async () => {
    stack = await startStack({ env: { ...WEBHOOK_TEST_ENV, WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0' } });
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

  it('counts the finished deliveries and the succeeded ones per destination, and says so on the pages', async () => {
    const healthy = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/hooks/day-ok') });
    receiver.plan('/hooks/day-mixed', ...FAIL_EIGHT_TIMES, { status: 200 });
    const mixed = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/hooks/day-mixed') });
    const quiet = await createDestination(stack, { organizationId: CLAN, url: receiver.url('/hooks/day-quiet') });

    await sendTest(healthy.id);
    await sendTest(healthy.id);
    await sendTest(mixed.id);
    await expect.poll(() => finishedOf(healthy.id), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => finishedOf(mixed.id), { timeout: 15_000 }).toBe(1);
    await sendTest(mixed.id);
    await expect.poll(() => finishedOf(mixed.id), { timeout: 15_000 }).toBe(2);

    const byId = new Map((await outcomes()).map((d) => [d.id, d.lastDayDeliveries]));
    expect(byId.get(healthy.id)).toMatchObject({ finished: 2, succeeded: 2 });
    expect(byId.get(mixed.id)).toMatchObject({ finished: 2, succeeded: 1 });
    expect(byId.get(quiet.id)).toMatchObject({ finished: 0, succeeded: 0 });
    const since = Date.parse(byId.get(quiet.id)!.since);
    expect(Math.abs(Date.now() - 24 * 3600_000 - since)).toBeLessThan(60_000);

    const list = await page(webhooks);
    expect(list).toContain('<td data-label="Last 24 h">100 % of 2 deliveries succeeded in the last 24 h</td>');
    expect(list).toContain('<td data-label="Last 24 h">50 % of 2 deliveries succeeded in the last 24 h</td>');
    expect(list).toContain('<td data-label="Last 24 h">no delivery in the last 24 h</td>');
    const details = await page(`${webhooks}/${mixed.id}`);
    expect(details).toContain('<dt>Last 24 h</dt><dd>50 % of 2 deliveries succeeded in the last 24 h</dd>');
  });
});
