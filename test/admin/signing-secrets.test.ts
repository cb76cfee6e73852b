import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
import { SIGN_IN_LIMITS } from '../../core/index.ts';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

// A destination's signing secret from the pages: revealed again after the admin's password (wrong
// ones counted by the sign-in budgets), rotated with a chosen overlap; its URL whole for standard
// JSON, masked for the chat formats.

const ORG = 'atelier-nord';
const webhooks = `/admin/orgs/${ORG}/webhooks`;
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
const csrfFor = (html: string, action: string) => hidden(html.slice(html.indexOf(`action="${action}"`)), 'csrf');
const shownSecret = (html: string) => /<code id="secret-value">([^<]+)<\/code>/.exec(html)?.[1];

describe('signing secrets in the pages', () => {
  let stack: Stack;
  let receiver: Receiver;
  let admin: TestBrowser;
  let id: string;
  let secret: string;
  let url: string;

  const text = async (path: string, init: { form?: Record<string, string> } = {}) => {
    const res = await admin.request(path, init);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };

  beforeAll(async () => {
    receiver = await new Receiver().start();
    stack = await startStack({ env: WEBHOOK_TEST_ENV });
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'si@atelier-nord.example', name: 'Si', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
    admin = new TestBrowser(stack);
    await admin.signIn('si@atelier-nord.example', PASSWORD, '/admin');
    url = receiver.url('/hooks/signing-secrets');
    const { createWebhookDestination } = await stack.graphql<MutationData<'createWebhookDestination'>>(
      'mutation ($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { secret destination { id } } }',
      { input: { organizationId: ORG, format: 'standard-json', url, kinds: ['event.created'], scope: 'own' } },
    );
    id = createWebhookDestination.destination.id;
    secret = createWebhookDestination.secret!;
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  it('shows a standard JSON receiver whole on the list, the page and the edit form', async () => {
    for (const path of [webhooks, `${webhooks}/${id}`, `${webhooks}/${id}/edit`])
      expect((await text(path)).html).toContain(`<code>${url}</code>`);
  });

  it('reveals the secret after the right password only, through POST → 303 → the destination page', async () => {
    const path = `${webhooks}/${id}/reveal`;
    const page = await text(`${webhooks}/${id}`);
    expect(page.html).toContain(`href="${path}"`);
    const form = await text(path);
    expect(form.html).toContain('autocomplete="current-password"');
    expect(form.html).not.toContain(secret);
    const csrf = csrfFor(form.html, path);

    const wrong = await text(path, { form: { csrf, password: 'not-my-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('That is not your password. Nothing was shown.');
    expect(wrong.html).not.toContain(secret);
    expect((await text(path, { form: { password: PASSWORD } })).status).toBe(403);

    const right = await text(path, { form: { csrf, password: PASSWORD } });
    expect(right.status).toBe(303);
    expect(right.location).toBe(`${webhooks}/${id}`);
    const shown = await text(`${webhooks}/${id}`);
    expect(shownSecret(shown.html)).toBe(secret);
    expect(shown.html).toContain('<h1>Signing secret</h1>');
    expect(shownSecret((await text(`${webhooks}/${id}`)).html)).toBeUndefined();
  });

  it('counts wrong passwords against the sign-in budget', async () => {
    const path = `${webhooks}/${id}/reveal`;
    const csrf = csrfFor((await text(path)).html, path);
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_LIMITS.addressAndAccount.points; i++)
      statuses.push((await text(path, { form: { csrf, password: `wrong-${i}` } })).status);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    const refused = await admin.request(path, { form: { csrf, password: PASSWORD } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toContain('Too many password attempts');
  });

  it('rotates with the overlap chosen: now stops the old secret, 3 days keeps it signing', async () => {
    const path = `${webhooks}/${id}/rotate`;
    const form = await text(path);
    for (const label of ['No: it stops now', 'for 1 hour', 'for 24 hours', 'for 3 days', 'for 7 days']) expect(form.html).toContain(label);
    const csrf = csrfFor(form.html, path);
    expect((await text(path, { form: { csrf, overlap: 'a-while' } })).status).toBe(400);

    const before = Date.now();
    expect((await text(path, { form: { csrf, overlap: 'three_days' } })).status).toBe(303);
    const rotated = await text(`${webhooks}/${id}`);
    const fresh = shownSecret(rotated.html)!;
    expect(rotated.html).toContain('The old secret keeps signing until');
    const { webhookDestination } = await stack.graphql<QueryData<'webhookDestination'>>(
      `query { webhookDestination(id: "${id}") { previousSecretExpiresAt } }`,
    );
    const until = Date.parse(webhookDestination.previousSecretExpiresAt!) - before;
    expect(until).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(until).toBeLessThanOrEqual(3 * 86_400_000 + 60_000);

    expect((await text(path, { form: { csrf, overlap: 'now' } })).status).toBe(303);
    const latest = shownSecret((await text(`${webhooks}/${id}`)).html)!;
    expect(
      (await stack.graphql<QueryData<'webhookDestination'>>(`query { webhookDestination(id: "${id}") { previousSecretExpiresAt } }`))
        .webhookDestination.previousSecretExpiresAt,
    ).toBeNull();
    await stack.graphql(`mutation { sendTestSignal(destinationId: "${id}") { id } }`);
    const [request] = await receiver
      .waitFor(() => receiver.on('/hooks/signing-secrets').length >= 1)
      .then(() => receiver.on('/hooks/signing-secrets'));
    expect(verifyWebhook(request!.body, request!.headers, latest)).toMatchObject({ type: 'event.created' });
    expect(() => verifyWebhook(request!.body, request!.headers, fresh)).toThrow();
  });

  it('refuses to reveal or rotate a chat destination, whose URL stays masked', async () => {
    const { createWebhookDestination } = await stack.graphql<MutationData<'createWebhookDestination'>>(
      'mutation ($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { destination { id url } } }',
      { input: { organizationId: ORG, format: 'team-chat', url: 'https://chat.example/services/T0SECRETPATH/B0SECRETPATH', scope: 'own' } },
    );
    const chat = createWebhookDestination.destination;
    const page = await text(`${webhooks}/${chat.id}`);
    expect(page.html).not.toContain('SECRETPATH');
    expect(page.html).toContain('(masked)');
    expect(page.html).not.toContain('/reveal"');
    expect((await text(`${webhooks}/${chat.id}/reveal`)).status).toBe(409);
    expect((await text(`${webhooks}/nope/reveal`)).status).toBe(404);
  });
});
