import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
// The CLI runs in this process (`main(argv, io)`, as bin/packline.js runs it): test/cli proves the binary itself.
import { eventually, runInProcess as runCli, runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createOrganization, deliveries, publishNeed } from '../support/webhooks.ts';
import type { MutationData } from '../support/graphql-data.ts';

// Destinations are named, edited (a new URL keeps the secret and the history), paused (nothing
// accrues meanwhile) and resumed, through GraphQL and the CLI.

const FIELDS = 'id name description url language kinds scope status disabledReason';

describe('naming, editing, pausing and resuming a destination', () => {
  let stack: Stack;
  let receiver: Receiver;
  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV, demo: false });
    receiver = await new Receiver().start();
    await createOrganization(stack, 'edit-org', 'clan');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  async function create(name: string, path: string) {
    const data = await stack.graphql<MutationData<'createWebhookDestination'>>(
      `mutation($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { secret destination { ${FIELDS} } } }`,
      {
        input: {
          organizationId: 'edit-org',
          format: 'standard-json',
          url: receiver.url(path),
          name,
          description: 'Orders system',
          kinds: ['need.created'],
          scope: 'own',
        },
      },
    );
    return data.createWebhookDestination as { secret: string; destination: { id: string; name: string; description: string; url: string } };
  }

  it('names a destination and masks its URL so that two on one host stay distinct', async () => {
    const a = await create('Orders', '/hooks/orders');
    const b = await create('CRM', '/hooks/crm');
    expect(a.destination).toMatchObject({ name: 'Orders', description: 'Orders system' });
    expect(a.destination.url).toMatch(/••••ers$/);
    expect(b.destination.url).toMatch(/••••crm$/);
    expect(a.destination.url).not.toContain('/hooks/');
    const listed = await runCli(['destinations', 'list', '--org', 'edit-org'], stack.env);
    expect(listed.stdout).toContain('Orders');
    expect(listed.stdout).toContain('CRM');
  });

  it('edits name, kinds and URL: the next delivery goes to the new URL, signed with the same secret, after the old history', async () => {
    const { destination, secret } = await create('Before', '/hooks/before-edit');
    const needBefore = await publishNeed(stack, 'edit-org', { title: 'Before the edit' });
    await receiver.waitFor(() => receiver.on('/hooks/before-edit').length >= 1, 'the delivery before the edit');

    const data = await stack.graphql<MutationData<'updateWebhookDestination'>>(
      `mutation($id: ID!, $input: WebhookDestinationChangesInput!) { updateWebhookDestination(id: $id, input: $input) { ${FIELDS} } }`,
      {
        id: destination.id,
        input: { name: 'After', url: receiver.url('/hooks/after-edit'), kinds: ['need.created', 'need.withdrawn'], language: 'fr' },
      },
    );
    expect(data.updateWebhookDestination).toMatchObject({
      name: 'After',
      description: 'Orders system',
      language: 'fr',
      kinds: ['need.created', 'need.withdrawn'],
      scope: 'own',
      status: 'active',
    });

    await publishNeed(stack, 'edit-org', { title: 'After the edit' });
    const [request] = await receiver
      .waitFor(() => receiver.on('/hooks/after-edit').length >= 1, 'the delivery after the edit')
      .then(() => receiver.on('/hooks/after-edit'));
    expect(verifyWebhook(request!.body, request!.headers, secret)).toMatchObject({ type: 'need.created' });
    const history = await deliveries(stack, 'edit-org', destination.id);
    expect(history.map((d) => d.eventId).some((id) => id.includes(needBefore))).toBe(true);
    expect(history).toHaveLength(2);

    await expect(
      stack.graphql<MutationData<'updateWebhookDestination'>>(
        `mutation($id: ID!, $input: WebhookDestinationChangesInput!) { updateWebhookDestination(id: $id, input: $input) { id } }`,
        {
          id: destination.id,
          input: { url: 'https://127.0.0.1/hook', kinds: [] },
        },
      ),
    ).rejects.toThrow(/kinds must name at least one event kind|private or reserved/);
  });

  it("deliveries show lists each attempt with the headers sent, signatures included, and the receiver's", async () => {
    const { destination } = await create('Shown', '/hooks/shown');
    await publishNeed(stack, 'edit-org', { title: 'Shown in the CLI' });
    const [delivery] = await eventually(
      () => deliveries(stack, 'edit-org', destination.id),
      (list) => list.length === 1 && list[0]!.status === 'succeeded',
      { timeoutMs: 10_000, what: 'a recorded delivery' },
    );
    const text = await runCli(['deliveries', 'show', delivery!.id], stack.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^attempt 1 at \S+: HTTP 2\d\d, \d+ ms$/m);
    expect(text.stdout).toMatch(
      /^ {2}headers sent:\n {4}host: 127\.0\.0\.1:\d+\n {4}connection: keep-alive\n {4}content-type: application\/json$/m,
    );
    expect(text.stdout).toMatch(/^ {4}webhook-signature: v1,\S+=$/m);
    expect(text.stdout).toMatch(/^ {2}headers received:\n {4}\S+: /m);
    const shown = await runJson<{ attempts: { request_headers: { name: string; value: string }[] }[] }>(
      ['deliveries', 'show', delivery!.id],
      stack.env,
    );
    const sent = shown.attempts[0]!.request_headers;
    expect(sent.find((h) => h.name === 'webhook-id')?.value).toBe(receiver.on('/hooks/shown')[0]!.headers['webhook-id']);
  });

  it('pauses a destination: nothing accrues while paused; resumed, it takes events from then on', async () => {
    const { destination } = await create('Pausable', '/hooks/pausable');
    const paused = await runJson(['destinations', 'pause', destination.id], stack.env);
    expect(paused).toMatchObject({ status: 'paused' });
    const quiet = await publishNeed(stack, 'edit-org', { title: 'While paused' });
    await expect(
      stack.graphql<MutationData<'sendTestSignal'>>(`mutation($id: ID!) { sendTestSignal(destinationId: $id) { id } }`, {
        id: destination.id,
      }),
    ).rejects.toThrow(/enable it first/);
    const again = await runCli(['destinations', 'pause', destination.id], stack.env);
    expect(again.code).toBe(4); // refused: only an active destination can be paused
    expect(again.stderr).toMatch(/not active/);

    const resumed = await runJson(['destinations', 'resume', destination.id], stack.env);
    expect(resumed).toMatchObject({ status: 'active', disabled_reason: null });
    const heard = await publishNeed(stack, 'edit-org', { title: 'After resuming' });
    await receiver.waitFor(() => receiver.on('/hooks/pausable').length >= 1, 'the delivery after resuming');
    const sent = (await deliveries(stack, 'edit-org', destination.id)).map((d) => d.eventId);
    expect(sent.some((id) => id.includes(heard))).toBe(true);
    expect(sent.some((id) => id.includes(quiet))).toBe(false);

    const updated = await runJson(['destinations', 'update', destination.id, '--name', 'Renamed', '--scope', 'platform'], stack.env);
    expect(updated).toMatchObject({ name: 'Renamed', scope: 'platform' });
    const nothing = await runCli(['destinations', 'update', destination.id], stack.env);
    expect(nothing.code).toBe(2); // usage
    expect(nothing.stderr).toMatch(/Nothing to change/);
  });
});
