import { createRequire } from 'node:module';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
import { findCanaries } from '../../core/demo/canaries.ts';
import type { NeedJson } from '../cli/cli-json.ts';
import { runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { Receiver, type Received } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, deliveries } from '../support/webhooks.ts';
import type { MutationData } from '../support/graphql-data.ts';

const AC = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js');
const stripe = new Stripe('sk_test_packline');

// The demo data seeds packs with canary values; signals must never carry them.
describe('signals of every kind, from GraphQL and CLI changes, to real receivers', () => {
  let stack: Stack;
  let receiver: Receiver;
  let secret: string;
  const ORG = 'atelier-nord'; // demo organization on the Clan plan
  const paths = { json: '/json', chat: '/chat', suite: '/suite', own: '/own' };

  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV });
    receiver = await new Receiver().start();
    secret = (await createDestination(stack, { organizationId: ORG, url: receiver.url(paths.json), scope: 'platform' })).secret!;
    await createDestination(stack, {
      organizationId: ORG,
      format: 'team-chat',
      url: receiver.url(paths.chat),
      language: 'fr',
      scope: 'platform',
    });
    await createDestination(stack, {
      organizationId: ORG,
      format: 'collaboration-suite',
      url: receiver.url(paths.suite),
      scope: 'platform',
    });
    await createDestination(stack, {
      organizationId: ORG,
      url: receiver.url(paths.own),
      scope: 'own',
      kinds: ['need.created', 'need.withdrawn'],
    });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const envelopes = (path: string) =>
    receiver
      .on(path)
      .map((r) => JSON.parse(r.body) as { id: string; type: string; organization_id: string | null; data: Record<string, unknown> });
  const until = (path: string, count: number) => receiver.waitFor(() => receiver.on(path).length >= count, `${count} requests on ${path}`);

  it('sends need.created, need.updated and need.withdrawn for changes made by the CLI, in order', async () => {
    const before = receiver.on(paths.json).length;
    const need = await runJson<NeedJson>(
      [
        'needs',
        'publish',
        '--org',
        ORG,
        '--title',
        'Hydrologist <!channel> @here',
        '--description',
        'River survey <at>Bob</at>',
        '--expertise',
        'hydrology,<@U123>',
        '--remote',
        '--json',
      ],
      stack.env,
    );
    await runJson(['needs', 'update', need.id, '--title', 'Hydrologist for a river survey', '--json'], stack.env);
    await runJson(['needs', 'withdraw', need.id, '--json'], stack.env);
    await until(paths.json, before + 3);
    const got = envelopes(paths.json).slice(before);
    expect(got.map((e) => e.type)).toEqual(['need.created', 'need.updated', 'need.withdrawn']);
    expect(got.map((e) => e.id)).toEqual([
      `evt-need.created-${need.id}-v1`,
      `evt-need.updated-${need.id}-v2`,
      `evt-need.withdrawn-${need.id}-v3`,
    ]);
    expect(got[0]!.data).toEqual({
      id: need.id,
      title: 'Hydrologist <!channel> @here',
      required_expertise: ['hydrology', '<@U123>'],
      remote_allowed: true,
      url: `https://packline.test/opportunities/${need.id}`,
    });
    expect(Object.keys(got[2]!.data).sort()).toEqual(['id', 'url', 'withdrawn_at']);
    expect(got.every((e) => e.organization_id === null)).toBe(true);
    // The own-scope destination receives only its kinds, with the organization's id.
    await until(paths.own, 2);
    expect(envelopes(paths.own).map((e) => [e.type, e.organization_id])).toEqual([
      ['need.created', ORG],
      ['need.withdrawn', ORG],
    ]);
  });

  it('sends event.created, event.updated and event.cancelled for GraphQL changes', async () => {
    const before = receiver.on(paths.json).length;
    const created = await stack.graphql<MutationData<'createEvent'>>(
      `mutation($input: NewEventInput!) { createEvent(input: $input) { id } }`,
      {
        input: {
          organizationId: ORG,
          title: 'Open day',
          startsAt: '2027-03-01T09:00:00Z',
          endsAt: '2027-03-01T17:00:00Z',
          city: 'Lyon',
          country: 'FR',
          hostNotes: 'internal note',
        },
      },
    );
    const id = created.createEvent.id as string;
    await stack.graphql<MutationData<'updateEvent'>>(`mutation($id: ID!) { updateEvent(id: $id, input: { online: true }) { id } }`, { id });
    await stack.graphql<MutationData<'cancelEvent'>>(`mutation($id: ID!) { cancelEvent(id: $id) { id } }`, { id });
    await until(paths.json, before + 3);
    const got = envelopes(paths.json).slice(before);
    expect(got.map((e) => e.type)).toEqual(['event.created', 'event.updated', 'event.cancelled']);
    expect(got[0]!.data).toMatchObject({
      id,
      title: 'Open day',
      starts_at: '2027-03-01T09:00:00.000Z',
      place: { city: 'Lyon', country: 'FR' },
    });
    expect(got[1]!.data).toMatchObject({ id, online: true });
    expect(Object.keys(got[2]!.data).sort()).toEqual(['cancelled_at', 'id', 'url']);
    expect(JSON.stringify(got)).not.toContain('internal note');
  });

  it('signs standard JSON so the consumer kit, Stripe and Standard Webhooks verifiers all accept it', async () => {
    const requests = receiver.on(paths.json);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      const headers = request.headers as Record<string, string>;
      const envelope = verifyWebhook(request.body, headers, secret);
      expect(headers['x-service-event-id']).toBe(envelope.id);
      expect(headers['idempotency-key']).toBe(envelope.id);
      expect(headers['x-service-delivery-format']).toBe('standard-json');
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(stripe.webhooks.constructEvent(request.body, headers['x-service-signature']!, secret).id).toBe(envelope.id);
      expect(new Webhook(secret).verify(request.body, headers)).toMatchObject({ id: envelope.id });
      expect(() => verifyWebhook(request.body.replace('"version":"1"', '"version":"2"'), headers, secret)).toThrow();
    }
  });

  it('renders team-chat messages in French with every mention neutralised', async () => {
    await until(paths.chat, 1);
    const chat = receiver.on(paths.chat);
    for (const request of chat) {
      expect(request.headers['x-service-delivery-format']).toBe('team-chat');
      expect(request.headers['x-service-signature']).toBeUndefined();
      expect(request.headers['x-service-event-id']).toMatch(/^evt-/);
    }
    const body = chat.map((r) => r.body).join('\n');
    for (const token of ['<!channel>', '<@U123>', '<at>', '@here']) expect(body).not.toContain(token);
    const first = JSON.parse(chat[0]!.body) as { text: string; blocks: { type: string; text?: { verbatim?: boolean } }[] };
    expect(first.text).toContain('Nouvelle opportunité');
    expect(first.blocks[0]).toMatchObject({ type: 'section', text: { verbatim: true } });
  });

  it('renders collaboration-suite adaptive cards that the adaptive-card parser accepts', async () => {
    await until(paths.suite, 1);
    for (const request of receiver.on(paths.suite)) {
      const message = JSON.parse(request.body);
      expect(message.type).toBe('message');
      const content = message.attachments[0].content;
      expect(message.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
      const context = new AC.SerializationContext();
      const card = new AC.AdaptiveCard();
      card.parse(content, context);
      expect(context.eventCount, JSON.stringify(content)).toBe(0);
      expect(content.version).toBe('1.4');
      expect(request.body).not.toMatch(/<at>|<\/at>|msteams/i);
    }
  });

  it('never puts a canary value or a private object in any payload', () => {
    const everything = receiver.received.map((r: Received) => `${JSON.stringify(r.headers)}\n${r.body}`).join('\n');
    expect(receiver.received.length).toBeGreaterThan(8);
    expect(findCanaries(everything)).toEqual([]);
  });

  it('records each delivery as succeeded with its attempt', async () => {
    const rows = await deliveries(stack, ORG);
    expect(rows.length).toBeGreaterThan(0);
    await expect.poll(async () => (await deliveries(stack, ORG)).every((d) => d.status === 'succeeded')).toBe(true);
    const row = (await deliveries(stack, ORG))[0]!;
    expect(row.attempts).toEqual([expect.objectContaining({ number: 1, statusCode: 200, error: null, responseExcerpt: 'ok' })]);
  });
});
