// One misbehaving receiver never holds up another destination: each destination has its own lane,
// and a lane waits on its own receiver only (issue: a receiver that hangs, resets or drips a
// never-ending answer stalls nobody else).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, createOrganization, deliveries, publishNeed } from '../support/webhooks.ts';

describe('lanes are isolated from one another', () => {
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

  it('a hanging, a resetting and a dripping receiver leave a healthy destination served in full and in order', async () => {
    const publisher = await createOrganization(stack, 'isolation-publisher');
    const lanes: Record<string, { org: string; destination: string }> = {};
    for (const name of ['hang', 'reset', 'drip', 'healthy']) {
      const org = await createOrganization(stack, `isolation-${name}`);
      const { id } = await createDestination(stack, {
        organizationId: org,
        url: receiver.url(`/${name}`),
        kinds: ['need.created'],
        scope: 'platform',
      });
      lanes[name] = { org, destination: id };
    }
    receiver.plan('/hang', { hang: true });
    receiver.plan('/reset', { reset: true });
    // Headers at once, then a byte every 100 ms: the answer never completes.
    receiver.plan('/drip', { drip: true, everyMs: 100 });

    const needs: string[] = [];
    for (const title of ['First survey', 'Second survey', 'Third survey']) needs.push(await publishNeed(stack, publisher, { title }));

    await receiver.waitFor(() => receiver.on('/healthy').length >= 3, 'three signals at the healthy destination');
    expect(receiver.on('/healthy').map((r) => r.headers['x-service-event-id'])).toEqual(needs.map((id) => `evt-need.created-${id}-v1`));
    await expect
      .poll(async () => (await deliveries(stack, lanes.healthy!.org)).map((d) => d.status))
      .toEqual(['succeeded', 'succeeded', 'succeeded']);

    // Meanwhile the hanging and dripping lanes are still on their first attempt (8 s allowed),
    // holding the rest of their own queue back, in order; the resetting lane retries its first.
    const hang = await deliveries(stack, lanes.hang!.org);
    const drip = await deliveries(stack, lanes.drip!.org);
    expect(receiver.on('/hang')).toHaveLength(1);
    expect(receiver.on('/drip')).toHaveLength(1);
    expect(hang.map((d) => ({ status: d.status, attempts: d.attemptCount }))).toEqual(Array(3).fill({ status: 'pending', attempts: 0 }));
    expect(drip.map((d) => ({ status: d.status, attempts: d.attemptCount }))).toEqual(Array(3).fill({ status: 'pending', attempts: 0 }));
    expect(receiver.on('/reset')[0]?.headers['x-service-event-id']).toBe(`evt-need.created-${needs[0]}-v1`);

    // The dripping answer is cut at the contract's 8 s like a hang, and recorded as such.
    await expect
      .poll(async () => (await deliveries(stack, lanes.drip!.org)).find((d) => d.attemptCount > 0)?.attempts[0]?.error, { timeout: 20_000 })
      .toBe('no answer within 8 s');
  }, 60_000);
});
