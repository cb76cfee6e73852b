import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
// The CLI runs in this process (`main(argv, io)`, as bin/packline.js runs it): test/cli proves the binary itself.
import type { DestinationJson } from '../cli/cli-json.ts';
import { runInProcess as runCli, runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, createOrganization, deliveries, publishNeed } from '../support/webhooks.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

async function refusal(stack: Stack, input: Record<string, unknown>): Promise<{ message: string; codes: string[] }> {
  try {
    await stack.graphql<MutationData<'createWebhookDestination'>>(
      `mutation($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { destination { id } } }`,
      {
        input: { format: 'standard-json', ...input },
      },
    );
  } catch (error) {
    return { message: (error as Error).message, codes: (error as { codes: string[] }).codes };
  }
  throw new Error(`expected a refusal for ${JSON.stringify(input)}`);
}

describe('destination URLs under the production rules', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
    await createOrganization(stack, 'strict-org', 'clan');
  });
  afterAll(() => stack?.close());

  const refused: [string, RegExp][] = [
    ['https://127.0.0.1/hook', /private or reserved address/],
    ['https://10.0.0.1/hook', /private or reserved address/],
    ['https://169.254.169.254/latest/meta-data', /private or reserved address/],
    ['https://[::1]/hook', /private or reserved address/],
    ['https://[::ffff:127.0.0.1]/hook', /private or reserved address/],
    ['https://localhost/hook', /localhost|private or reserved/],
    ['http://93.184.216.34/hook', /https/],
    ['https://user:pw@93.184.216.34/hook', /credentials|user/i],
    ['not a url', /URL/i],
  ];
  for (const [url, message] of refused) {
    it(`refuses ${url}`, async () => {
      const { message: got, codes } = await refusal(stack, { organizationId: 'strict-org', url });
      expect(codes).toEqual(['INVALID_INPUT']);
      expect(got).toMatch(message);
    });
  }

  it('refuses unknown formats, kinds, languages and scopes with the field named', async () => {
    expect((await refusal(stack, { organizationId: 'strict-org', url: 'https://93.184.216.34/', format: 'xml' })).message).toMatch(
      /format must be one of/,
    );
    expect(
      (await refusal(stack, { organizationId: 'strict-org', url: 'https://93.184.216.34/', kinds: ['need.deleted'] })).message,
    ).toMatch(/kinds must be one of/);
    expect((await refusal(stack, { organizationId: 'strict-org', url: 'https://93.184.216.34/', language: 'de' })).message).toMatch(
      /language must be one of/,
    );
    expect((await refusal(stack, { organizationId: 'strict-org', url: 'https://93.184.216.34/', scope: 'all' })).message).toMatch(
      /scope must be one of/,
    );
  });
});

describe('destinations and deliveries administration', () => {
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

  it('enforces the plan limits: Base 1, Alpha 2, Clan 10', async () => {
    for (const [plan, limit] of [
      ['base', 1],
      ['alpha', 2],
      ['clan', 10],
    ] as const) {
      const org = await createOrganization(stack, `limit-${plan}`, plan);
      for (let i = 0; i < limit; i++) await createDestination(stack, { organizationId: org, url: receiver.url(`/limit-${plan}-${i}`) });
      const { codes, message } = await refusal(stack, { organizationId: org, url: receiver.url('/one-too-many') });
      expect(codes).toEqual(['PLAN_LIMIT']);
      expect(message).toContain(`The ${plan} plan allows ${limit} webhook destination`);
    }
  });

  it('stores URLs and secrets sealed and shows them masked only', async () => {
    const org = await createOrganization(stack, 'sealed-org');
    const url = receiver.url('/sealed/T0SECRETPATH/B0SECRETPATH');
    const { id, secret } = await createDestination(stack, { organizationId: org, url });
    const { webhookDestination: shown } = await stack.graphql<QueryData<'webhookDestination'>>(
      `query($id: ID!) { webhookDestination(id: $id) { url secret } }`,
      { id },
    );
    expect(shown.url).not.toContain('SECRETPATH');
    expect(shown.secret).toMatch(/^whsec_•+.{4}$/);
    const rows = await stack.app.core.db.em.fork().getConnection().execute('select * from webhook_destinations where id = ?', [id]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain('SECRETPATH');
    expect(stored).not.toContain(secret!.slice(6));
  });

  it('never sends discreet, demonstration or amount-bearing needs', async () => {
    const org = await createOrganization(stack, 'exclusion-org');
    await createDestination(stack, { organizationId: org, url: receiver.url('/exclusions') });
    await publishNeed(stack, org, { title: 'Quiet need', discreet: true });
    await publishNeed(stack, org, { title: 'Demo need', demo: true });
    await publishNeed(stack, org, { title: 'Site audit', description: 'Budget : 15 k€ sur trois mois' });
    await publishNeed(stack, org, { title: 'Audit for USD 40k' });
    const sent = await publishNeed(stack, org, { title: 'Plain need' });
    await receiver.waitFor(() => receiver.on('/exclusions').length >= 1, 'the plain need');
    expect(receiver.on('/exclusions').map((r) => JSON.parse(r.body).data.id)).toEqual([sent]);
    expect(await deliveries(stack, org)).toHaveLength(1);
  });

  it('rotates the secret: both sign for 24 hours, each verifies alone', async () => {
    const org = await createOrganization(stack, 'rotate-org');
    const { id, secret: old } = await createDestination(stack, { organizationId: org, url: receiver.url('/rotate') });
    const rotated = await runJson<DestinationJson>(['destinations', 'rotate-secret', id, '--json'], stack.env);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    await publishNeed(stack, org);
    const [request] = await receiver.waitFor(() => receiver.on('/rotate').length >= 1).then(() => receiver.on('/rotate'));
    expect(String(request!.headers['x-service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(request!.body, request!.headers, old!).type).toBe('need.created');
    expect(verifyWebhook(request!.body, request!.headers, rotated.secret!).type).toBe('need.created');
  });

  it('sends a test signal on request, marked as a test', async () => {
    const org = await createOrganization(stack, 'test-signal-org');
    const { id, secret } = await createDestination(stack, { organizationId: org, url: receiver.url('/ping'), kinds: ['event.created'] });
    const delivery = await runJson(['destinations', 'test', id, '--json'], stack.env);
    expect(delivery).toMatchObject({ test: true, status: 'pending' });
    const [request] = await receiver.waitFor(() => receiver.on('/ping').length >= 1).then(() => receiver.on('/ping'));
    expect(request!.headers['x-service-test']).toBe('1');
    expect(verifyWebhook(request!.body, request!.headers, secret!)).toMatchObject({
      type: 'event.created',
      data: { title: 'Packline test signal' },
    });
  });

  it('retries a failed delivery by hand on Clan and refuses it elsewhere', async () => {
    for (const plan of ['clan', 'base'] as const) {
      const org = await createOrganization(stack, `manual-${plan}`, plan);
      await createDestination(stack, { organizationId: org, url: receiver.url(`/manual-${plan}`) });
      receiver.plan(`/manual-${plan}`, { status: 500 });
      await publishNeed(stack, org);
      await expect.poll(async () => (await deliveries(stack, org))[0]?.status, { timeout: 15_000 }).toBe('failed');
      const [failed] = await deliveries(stack, org);
      receiver.plan(`/manual-${plan}`, { status: 200 });
      const result = await runCli(['deliveries', 'retry', failed!.id, '--json'], stack.env);
      if (plan === 'base') {
        expect(result.code).toBe(5); // plan limit
        expect(JSON.parse(result.stderr)).toMatchObject({
          error: { code: 'plan_limit', message: expect.stringMatching(/Manual retry is part of the clan plan/) },
        });
        continue;
      }
      expect(result.code, result.stderr).toBe(0);
      await expect.poll(async () => (await deliveries(stack, org))[0]?.status).toBe('succeeded');
      const [done] = await deliveries(stack, org);
      expect(done!.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(done!.attempts.at(-1)!.statusCode).toBe(200);
      const again = await runCli(['deliveries', 'retry', failed!.id], stack.env);
      expect(again.code).toBe(4); // refused: not in a state that allows it
      expect(again.stderr).toMatch(/only failed deliveries, or ones waiting for their next attempt, can be retried/);
    }
  }, 90_000);

  it('keeps the newest deliveries the plan retains (Base: 12)', async () => {
    const org = await createOrganization(stack, 'retention-org', 'base');
    await createDestination(stack, { organizationId: org, url: receiver.url('/retention') });
    for (let i = 0; i < 15; i++) await publishNeed(stack, org, { title: `Need ${i}` });
    await receiver.waitFor(() => receiver.on('/retention').length >= 15, '15 deliveries');
    // Trimming runs with the dispatcher's periodic look-around (about once a second).
    await expect.poll(async () => (await deliveries(stack, org)).length, { timeout: 10_000 }).toBe(12);
  });

  it('administers destinations and deliveries from the CLI', async () => {
    const org = await createOrganization(stack, 'cli-org', 'alpha');
    const created = await runJson<DestinationJson>(
      [
        'destinations',
        'create',
        '--org',
        org,
        '--format',
        'standard-json',
        '--url',
        receiver.url('/cli'),
        '--language',
        'fr',
        '--kinds',
        'need.created,need.withdrawn',
        '--scope',
        'own',
        '--json',
      ],
      stack.env,
    );
    expect(created).toMatchObject({
      id: expect.stringMatching(/^dst_/),
      secret: expect.stringMatching(/^whsec_/),
      language: 'fr',
      scope: 'own',
      kinds: ['need.created', 'need.withdrawn'],
    });
    const suite = await runJson<DestinationJson>(
      ['destinations', 'create', '--org', org, '--format', 'collaboration-suite', '--url', receiver.url('/cli-suite'), '--json'],
      stack.env,
    );
    expect(suite.secret).toBeNull();
    const listed = await runJson<DestinationJson[]>(['destinations', 'list', '--org', org, '--json'], stack.env);
    expect(listed.map((d) => d.id)).toEqual([created.id, suite.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    await publishNeed(stack, org);
    await receiver.waitFor(() => receiver.on('/cli').length >= 1);
    // The receiver has the request before the dispatcher records the answer.
    await expect
      .poll(() => runJson(['deliveries', 'list', '--org', org, '--destination', created.id, '--json'], stack.env))
      .toEqual([expect.objectContaining({ destination_id: created.id, status: 'succeeded', attempt_count: 1 })]);
    const bad = await runCli(
      ['destinations', 'create', '--org', org, '--format', 'standard-json', '--url', receiver.url('/third')],
      stack.env,
    );
    expect(bad.code).toBe(5); // plan limit
    expect(bad.stderr).toMatch(/alpha plan allows 2 webhook destinations/);
    expect(await runJson(['destinations', 'delete', suite.id, '--json'], stack.env)).toMatchObject({ id: suite.id });
    const missing = await runCli(['destinations', 'test', suite.id], stack.env);
    expect(missing.code).toBe(3); // not found
    expect(missing.stderr).toMatch(/No webhook destination with id/);
  }, 90_000);
});
