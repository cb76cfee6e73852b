import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, createOrganization } from '../support/webhooks.ts';
import { runInProcess, runJsonInProcess } from './run-cli.ts';

// `packline destinations test ID --kind KIND` against a running service: a sample of the kind
// asked for, among the destination's kinds; an unknown kind, or one it does not receive, is a
// usage error (exit 2) naming the kinds it may be.

const ORG = 'cli-test-kind';

describe('packline destinations test --kind', () => {
  let stack: Stack;
  let receiver: Receiver;
  let id: string;
  const cli = (...args: string[]) => runInProcess(args, stack.env);

  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV, demo: false });
    receiver = await new Receiver().start();
    await createOrganization(stack, ORG, 'clan');
    ({ id } = await createDestination(stack, {
      organizationId: ORG,
      url: receiver.url('/kind'),
      kinds: ['need.created', 'event.cancelled'],
    }));
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  it('queues a sample of the kind asked for, and of the first kind without one', async () => {
    const chosen = await runJsonInProcess<{ type: string; test: boolean }>(
      ['destinations', 'test', id, '--kind', 'event.cancelled', '--json'],
      stack.env,
    );
    expect(chosen).toMatchObject({ type: 'event.cancelled', test: true });
    const plain = await cli('destinations', 'test', id);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^test signal queued as delivery \S+$/m);
    const received = await receiver.waitFor((all) => all.length >= 2, 'both test signals');
    expect(received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort()).toEqual(['event.cancelled', 'need.created']);
    for (const request of received) expect(request.headers['x-service-test']).toBe('1');
  });

  it('refuses an unknown kind, or one the destination does not receive, as a usage error', async () => {
    const unknown = await cli('destinations', 'test', id, '--kind', 'need.deleted');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(
      /^error: --kind must be one of need\.created, need\.updated, need\.withdrawn, event\.created, event\.updated, event\.cancelled \(got 'need\.deleted'\)/,
    );
    expect(unknown.stderr).toContain('usage: packline destinations test DESTINATION_ID [--kind KIND]');

    const other = await cli('destinations', 'test', id, '--kind', 'event.updated', '--json');
    expect(other).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(other.stderr)).toEqual({
      error: { code: 'invalid_input', message: "kind must be one of need.created, event.cancelled (got 'event.updated')", flag: '--kind' },
    });

    expect(await cli('destinations', 'test', id, '--kind')).toMatchObject({ code: 2, stdout: '' });
  });

  it('describes --kind in its help, with an example', async () => {
    const help = await cli('destinations', 'test', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^ {2}--kind KIND\s+the sample's event kind, one the destination receives \(default its first\)$/m);
    expect(help.stdout).toContain('$ packline destinations test dst_7d0e… --kind event.cancelled');
  });
});
