import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, createOrganization, deliveries, publishNeed } from '../support/webhooks.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

const eventIds = (receiver: Receiver, path: string) => receiver.on(path).map((r) => r.headers['x-service-event-id']);

describe('delivery when the receiver misbehaves', () => {
  let stack: Stack;
  let receiver: Receiver;
  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV, demo: false });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  /** A Clan organization whose only destination listens on `path` for need.created. */
  async function lane(name: string, path: string) {
    const org = await createOrganization(stack, name);
    const { id } = await createDestination(stack, { organizationId: org, url: receiver.url(path), kinds: ['need.created'] });
    return { org, destination: id };
  }

  it('retries a 500 with the same event id until a 200, keeping the destination order', async () => {
    const { org } = await lane('retry-org', '/retry');
    receiver.plan('/retry', { status: 500, body: 'boom' }, { status: 500, body: 'boom' }, { status: 200 });
    const first = await publishNeed(stack, org, { title: 'First need' });
    const second = await publishNeed(stack, org, { title: 'Second need' });
    await receiver.waitFor(() => receiver.on('/retry').length >= 4, 'four requests on /retry');
    expect(eventIds(receiver, '/retry')).toEqual([
      `evt-need.created-${first}-v1`,
      `evt-need.created-${first}-v1`,
      `evt-need.created-${first}-v1`,
      `evt-need.created-${second}-v1`,
    ]);
    const idempotency = receiver
      .on('/retry')
      .slice(0, 3)
      .map((r) => r.headers['idempotency-key']);
    expect(new Set(idempotency)).toEqual(new Set([`evt-need.created-${first}-v1`]));
    await expect.poll(async () => (await deliveries(stack, org)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    const rows = await deliveries(stack, org);
    const firstRow = rows.find((d) => d.eventId.includes(first))!;
    expect(firstRow.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(firstRow.attempts[0]!.responseExcerpt).toBe('boom');
    expect(firstRow.attempts[0]!.error).toBe('receiver answered 500');
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const { org } = await lane('redirect-org', '/moved');
    receiver.plan('/moved', { status: 302, headers: { location: receiver.url('/elsewhere') } }, { status: 200 });
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/moved').length >= 2, 'the retry after a 302');
    expect(receiver.on('/elsewhere')).toHaveLength(0);
    await expect.poll(async () => (await deliveries(stack, org))[0]?.status).toBe('succeeded');
    const [row] = await deliveries(stack, org);
    expect(row!.attempts[0]).toMatchObject({ statusCode: 302, error: expect.stringMatching(/redirect .* not followed/) });
  });

  it('survives a connection reset and tries again', async () => {
    const { org } = await lane('reset-org', '/reset');
    receiver.plan('/reset', { reset: true }, { status: 204 });
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/reset').length >= 2, 'the retry after a reset');
    await expect.poll(async () => (await deliveries(stack, org))[0]?.status).toBe('succeeded');
    const [row] = await deliveries(stack, org);
    expect(row!.attempts.map((a) => a.statusCode)).toEqual([null, 204]);
    expect(row!.attempts[0]!.error).toMatch(/reset|socket|closed/i);
  });

  it('honours a Retry-After longer than the schedule', async () => {
    const { org } = await lane('retry-after-org', '/busy');
    receiver.plan('/busy', { status: 503, headers: { 'retry-after': '3' } }, { status: 200 });
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/busy').length >= 2, 'the retry after a 503');
    await expect.poll(async () => (await deliveries(stack, org))[0]?.status).toBe('succeeded');
    // The dispatcher's own times of its attempts (the receiver's clock would add the test
    // process's own delays): the schedule says about 1 s here; the receiver asked for 3.
    const [first, second] = (await deliveries(stack, org))[0]!.attempts;
    expect(Date.parse(second!.at) - Date.parse(first!.at)).toBeGreaterThanOrEqual(2_990);
  });

  it('disables the destination on 410 Gone and sends it nothing more', async () => {
    const { org, destination } = await lane('gone-org', '/gone');
    receiver.plan('/gone', { status: 410 });
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/gone').length >= 1, 'the 410');
    await expect
      .poll(
        async () =>
          (
            await stack.graphql<QueryData<'webhookDestination'>>(
              `query($id: ID!) { webhookDestination(id: $id) { status disabledReason } }`,
              { id: destination },
            )
          ).webhookDestination,
      )
      .toEqual({
        status: 'disabled',
        disabledReason: 'The receiver answered 410 Gone',
      });
    const [row] = await deliveries(stack, org);
    expect(row).toMatchObject({ status: 'failed', attemptCount: 1, lastStatusCode: 410 });
    // A disabled destination is skipped: signals meanwhile are not queued for it.
    receiver.plan('/gone', { status: 200 });
    await publishNeed(stack, org, { title: 'While disabled' });
    await stack.graphql<MutationData<'enableWebhookDestination'>>(`mutation($id: ID!) { enableWebhookDestination(id: $id) { status } }`, {
      id: destination,
    });
    await publishNeed(stack, org, { title: 'After enabling' });
    await receiver.waitFor(() => receiver.on('/gone').length >= 2, 'a signal after enabling');
    expect(receiver.on('/gone').map((r) => JSON.parse(r.body).data.title)).toEqual(['Data engineer for a river survey', 'After enabling']);
  });

  it('gives up after 8 attempts and marks the delivery failed', async () => {
    const { org } = await lane('down-org', '/down');
    receiver.plan('/down', { status: 500 });
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/down').length >= 8, 'eight attempts');
    await expect.poll(async () => (await deliveries(stack, org))[0]?.status, { timeout: 10_000 }).toBe('failed');
    const [row] = await deliveries(stack, org);
    expect(row!.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(receiver.on('/down')).toHaveLength(8);
  });

  it('counts no answer within 8 seconds as a failed attempt', async () => {
    const { org } = await lane('slow-org', '/slow');
    receiver.plan('/slow', { hang: true }, { status: 200 });
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/slow').length >= 2, 'the retry after a hang');
    await expect.poll(async () => (await deliveries(stack, org))[0]?.status).toBe('succeeded');
    const [row] = await deliveries(stack, org);
    expect(row!.attempts[0]).toMatchObject({ statusCode: null, error: 'no answer within 8 s' });
    expect(row!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(7_900);
  }, 40_000);
});
