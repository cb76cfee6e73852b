import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../cli/run-cli.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, createOrganization, deliveries, publishNeed } from '../support/webhooks.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

// The headers kept with an attempt are all the headers that went on the wire, those the HTTP
// client writes itself (host, connection, content-length) included: compared with what a real
// receiver read off its socket.

const ORG = 'wire-org';

describe('the headers kept with an attempt', () => {
  let stack: Stack;
  let receiver: Receiver;
  const destinations: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV, demo: false });
    receiver = await new Receiver().start();
    await createOrganization(stack, ORG, 'clan');
    for (const format of ['standard-json', 'team-chat', 'collaboration-suite']) {
      const { id } = await createDestination(stack, {
        organizationId: ORG,
        format,
        url: receiver.url(`/wire/${format}`),
        kinds: ['need.created'],
      });
      destinations[format] = id;
    }
    await publishNeed(stack, ORG, { title: 'Sent over the wire' });
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  /** Name and value lines, names lower-cased, in a stable order: what the comparison ignores is case and order. */
  const lines = (pairs: { name: string; value: string }[]) => pairs.map(({ name, value }) => `${name.toLowerCase()}: ${value}`).sort();

  async function recorded(destinationId: string, test: boolean) {
    const [delivery] = await eventually(
      async () => (await deliveries(stack, ORG, destinationId)).filter((d) => d.test === test),
      (list) => list.length === 1 && list[0]!.status === 'succeeded',
      { timeoutMs: 10_000, what: 'a delivered attempt' },
    );
    const data = await stack.graphql<QueryData<'webhookDelivery'>>(
      'query($id: ID!) { webhookDelivery(id: $id) { attempts { requestHeaders { name value } } } }',
      { id: delivery!.id },
    );
    return { eventId: delivery!.eventId, headers: data.webhookDelivery!.attempts[0]!.requestHeaders! };
  }

  function received(format: string, eventId: string) {
    const request = receiver.on(`/wire/${format}`).find((r) => r.headers['x-service-event-id'] === eventId)!;
    const pairs: { name: string; value: string }[] = [];
    for (let i = 0; i < request.rawHeaders.length; i += 2) pairs.push({ name: request.rawHeaders[i]!, value: request.rawHeaders[i + 1]! });
    return pairs;
  }

  it.each(['standard-json', 'team-chat', 'collaboration-suite'])('equal the headers received, for a %s delivery', async (format) => {
    const { eventId, headers } = await recorded(destinations[format]!, false);
    const wire = received(format, eventId);
    expect(wire.map(({ name }) => name.toLowerCase())).toEqual(expect.arrayContaining(['host', 'connection', 'content-length']));
    expect(lines(headers)).toEqual(lines(wire));
  });

  it('equal the headers received, for a test signal', async () => {
    const id = destinations['standard-json']!;
    await stack.graphql<MutationData<'sendTestSignal'>>('mutation($id: ID!) { sendTestSignal(destinationId: $id) { id } }', { id });
    const { eventId, headers } = await recorded(id, true);
    const wire = received('standard-json', eventId);
    expect(wire).toContainEqual({ name: 'x-service-test', value: '1' });
    expect(lines(headers)).toEqual(lines(wire));
  });
});
