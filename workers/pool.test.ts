import { afterEach, describe, expect, it } from 'vitest';
import { sampleJobs } from '../test/fixtures/sample-jobs.ts';
import { createInlinePreparer, createPoolPreparer, createPreparer, poolInfo, type DeliveryPreparer } from './pool.ts';
import { prepareDeliveries } from './tasks.ts';

const open: DeliveryPreparer[] = [];
function track(preparer: DeliveryPreparer): DeliveryPreparer {
  open.push(preparer);
  return preparer;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((preparer) => preparer.close()));
});

describe('createPoolPreparer', () => {
  it('returns byte-identical deliveries to the inline preparer for 500 mixed jobs', async () => {
    const jobs = sampleJobs(500);
    const pooled = await track(createPoolPreparer({ threads: 2, minBatch: 64 })).prepare(jobs);
    const inline = await track(createInlinePreparer()).prepare(jobs);
    expect(pooled).toHaveLength(500);
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(inline));
    expect(pooled.map((delivery) => delivery.body)).toEqual(prepareDeliveries(jobs).map((delivery) => delivery.body));
  });

  it('runs small batches inline and still answers in order', async () => {
    const jobs = sampleJobs(5);
    const prepared = await track(createPoolPreparer({ minBatch: 32 })).prepare(jobs);
    expect(prepared).toEqual(prepareDeliveries(jobs));
    expect(await track(createPreparer('pool')).prepare([])).toEqual([]);
  });

  it('rejects with the reason of an aborted signal, before and during a batch', async () => {
    const preparer = track(createPoolPreparer({ threads: 1, minBatch: 1 }));
    const reason = new Error('shutting down');
    await expect(preparer.prepare(sampleJobs(10), AbortSignal.abort(reason))).rejects.toBe(reason);

    const controller = new AbortController();
    const pending = preparer.prepare(sampleJobs(20_000), controller.signal);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    // The pool replaced the worker it stopped and keeps serving.
    expect(await preparer.prepare(sampleJobs(3))).toEqual(prepareDeliveries(sampleJobs(3)));
  });

  it('closes: batches in flight finish, later ones are refused, close is idempotent', async () => {
    const preparer = createPoolPreparer({ threads: 1, minBatch: 1 });
    const inFlight = preparer.prepare(sampleJobs(50));
    await preparer.close();
    await expect(inFlight).resolves.toHaveLength(50);
    await expect(preparer.prepare(sampleJobs(1))).rejects.toThrow(/closed/);
    await expect(preparer.close()).resolves.toBeUndefined();
  });

  it('shares one pool between preparers until the last one closes', async () => {
    const first = createPoolPreparer({ threads: 1, minBatch: 1 });
    const second = createPoolPreparer({ threads: 3, minBatch: 1 });
    expect(poolInfo()).toEqual({ threads: 1, leases: 2 });
    await first.close();
    expect(poolInfo()).toEqual({ threads: 1, leases: 1 });
    expect(await second.prepare(sampleJobs(4))).toEqual(prepareDeliveries(sampleJobs(4)));
    await second.close();
    expect(poolInfo()).toBeUndefined();
  });
});

describe('createInlinePreparer', () => {
  it('prepares on the calling thread and honours abort and close', async () => {
    const preparer = createPreparer('inline');
    expect(await preparer.prepare(sampleJobs(6))).toEqual(prepareDeliveries(sampleJobs(6)));
    const reason = new Error('stop');
    await expect(preparer.prepare(sampleJobs(6), AbortSignal.abort(reason))).rejects.toBe(reason);
    await preparer.close();
    await expect(preparer.prepare(sampleJobs(1))).rejects.toThrow(/closed/);
  });
});
