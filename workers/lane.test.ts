import { describe, expect, it } from 'vitest';
import type { AttemptOutcome } from '../core/webhooks/attempt-outcome.ts';
import type { LaneTarget, PendingDelivery } from '../core/webhooks/delivery-store.ts';
import type { DeliveryJob, PreparedDelivery } from '../core/webhooks/envelope.ts';
import { RetryPolicy } from '../core/webhooks/retry-policy.ts';
import { Lane, type LanePort, type Route } from './lane.ts';
import type { SendResult } from './send.ts';

const TARGET = {
  id: 'dst_1',
  organizationId: 'org_1',
  plan: 'pro',
  format: 'standard-json',
  language: 'en',
  scope: 'own',
  url: 'https://receiver.example/hook',
  secrets: ['whsec_test'],
  secretsUntil: Number.POSITIVE_INFINITY,
  active: true,
  stamp: 's1',
} as unknown as LaneTarget;
const ROUTE = { target: { origin: 'https://receiver.example', path: '/hook' }, refused: false } as Route;

const result = (statusCode: number): SendResult => ({
  statusCode,
  error: null,
  responseExcerpt: null,
  retryAfterSeconds: null,
  durationMs: 1,
});

/**
 * A port over an in-memory queue: the receiver answers each delivery with the status `answer`
 * picks; a lane sees nothing else of a dispatcher.
 */
function fakePort(count: number, answer: (delivery: PendingDelivery) => number, options: { cutOffAfter?: number } = {}) {
  const now = Date.now();
  const queue: PendingDelivery[] = Array.from({ length: count }, (_, i) => ({
    id: `dlv_${i + 1}`,
    seq: i + 1,
    eventId: `evt_${i + 1}`,
    envelope: `{"n":${i + 1}}`,
    test: false,
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  }));
  const sent: string[] = [];
  const recorded: AttemptOutcome[] = [];
  const policy = new RetryPolicy([0, 60, 60]);
  let flushes = 0;
  const port: LanePort = {
    holds: () => true,
    settingsVersion: () => 0,
    stamp: async () => TARGET.stamp,
    settings: async () => ({ value: TARGET, route: ROUTE }),
    pending: async (_target, limit, after) => queue.filter((d) => after === undefined || d.seq > after.seq).slice(0, limit),
    prepare: async (jobs: DeliveryJob[]) =>
      jobs.map(
        (job): PreparedDelivery => ({ body: job.envelope, headers: { 'webhook-id': job.id }, headersText: `webhook-id: ${job.id}` }),
      ),
    send: async (_route, prepared) => {
      sent.push(prepared.headers['webhook-id']!);
      const delivery = queue.find((d) => d.eventId === prepared.headers['webhook-id'])!;
      return result(answer(delivery));
    },
    record: (delivery, target, res, at) => {
      if (options.cutOffAfter !== undefined && sent.length > options.cutOffAfter) return undefined;
      const outcome = policy.judge(delivery, target.id, res, at);
      recorded.push(outcome);
      const index = queue.findIndex((d) => d.id === delivery.id);
      if (outcome.next.status === 'pending')
        queue[index] = { ...delivery, attempts: delivery.attempts + 1, nextAttemptAt: outcome.next.at.getTime() };
      else queue.splice(index, 1);
      return outcome;
    },
    flush: async () => {
      flushes++;
    },
    failed: (_id, error) => {
      throw error;
    },
  };
  return { port, sent, recorded, queue, flushes: () => flushes };
}

async function runToIdle(lane: Lane): Promise<void> {
  lane.kick();
  await expect.poll(() => lane.busy).toBe(false);
  await lane.close();
}

describe('Lane', () => {
  it('sends its due deliveries in order, records each and writes the records before going idle', async () => {
    const fake = fakePort(300, () => 204);
    await runToIdle(new Lane('dst_1', fake.port));
    expect(fake.sent).toEqual(Array.from({ length: 300 }, (_, i) => `evt_${i + 1}`));
    expect(fake.recorded.map((o) => o.next.status)).toEqual(Array(300).fill('succeeded'));
    expect(fake.queue).toEqual([]);
    expect(fake.flushes()).toBeGreaterThan(0);
  });

  it('holds the lane on a failure until its retry is due: later deliveries wait, order is kept', async () => {
    const fake = fakePort(3, (d) => (d.seq === 2 ? 500 : 204));
    await runToIdle(new Lane('dst_1', fake.port));
    expect(fake.sent).toEqual(['evt_1', 'evt_2']);
    expect(fake.queue.map((d) => [d.id, d.attempts])).toEqual([
      ['dlv_2', 1],
      ['dlv_3', 0],
    ]);
  });

  it('moves on to the next delivery once a failing one is out of attempts', async () => {
    const fake = fakePort(2, (d) => (d.seq === 1 ? 500 : 204));
    fake.queue[0]!.attempts = 2;
    await runToIdle(new Lane('dst_1', fake.port));
    expect(fake.recorded.map((o) => [o.deliveryId, o.next.status])).toEqual([
      ['dlv_1', 'failed'],
      ['dlv_2', 'succeeded'],
    ]);
  });

  it('stops at once when the receiver answers 410 Gone', async () => {
    const fake = fakePort(3, () => 410);
    await runToIdle(new Lane('dst_1', fake.port));
    expect(fake.sent).toEqual(['evt_1']);
    expect(fake.recorded[0]!.next).toEqual({ status: 'failed', disableDestination: 'The receiver answered 410 Gone' });
  });

  it('stops without recording when an attempt comes back after a stop gave the lane away', async () => {
    const fake = fakePort(5, () => 204, { cutOffAfter: 2 });
    await runToIdle(new Lane('dst_1', fake.port));
    expect(fake.sent).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(fake.recorded).toHaveLength(2);
  });

  it('sends nothing for a destination whose lease is not held or that is not active', async () => {
    const unheld = fakePort(2, () => 204);
    await runToIdle(new Lane('dst_1', { ...unheld.port, holds: () => false }));
    const inactive = fakePort(2, () => 204);
    await runToIdle(new Lane('dst_1', { ...inactive.port, settings: async () => ({ value: { ...TARGET, active: false }, route: ROUTE }) }));
    expect([...unheld.sent, ...inactive.sent]).toEqual([]);
  });
});
