import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';
import { INTERNAL } from '../actor.ts';
import type { Core } from '../composition-root.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import { createScriptRunner } from './script-runners.ts';

// The dispatcher's bookkeeping on the database of this run (SQLite, or PostgreSQL with
// DATABASE_URL): on SQLite every call crosses to the store's own thread and back.
describe('the delivery store', () => {
  let opened: TestCore;
  let core: Core;

  beforeAll(async () => {
    opened = await openTestCore('store', {
      urlPolicy: { allowHttp: true, allowPrivateNetworks: true },
    });
    core = opened.core;
  });

  afterAll(async () => {
    await opened.close();
  });

  it('fans a signal out once to the destinations that take it, reads it back with its envelope, records it and trims to the plan', async () => {
    const services = core.services();
    await services.organizations.create(INTERNAL, { id: 'store-base', name: 'Store', plan: 'base' });
    const feed = await core.services().destinations.create(INTERNAL, {
      organizationId: 'store-base',
      format: 'standard-json',
      url: 'http://127.0.0.1:9/feed',
      scope: 'platform',
    });
    await core.services().organizations.create(INTERNAL, { id: 'store-clan', name: 'Store clan', plan: 'clan' });
    const eventsOnly = await core.services().destinations.create(INTERNAL, {
      organizationId: 'store-clan',
      format: 'standard-json',
      url: 'http://127.0.0.1:9/events',
      kinds: ['event.created'],
      scope: 'own',
    });
    const needIds: string[] = [];
    for (let n = 0; n < 14; n++) {
      const need = await core
        .services()
        .needs.publish(INTERNAL, { organizationId: 'store-base', title: `Surveyor ${n}`, requiredExpertise: ['gis'] });
      needIds.push(need.id);
    }

    const store = core.deliveryStore;
    const touched = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const { rows, destinations } = await store.fanOut();
      for (const id of destinations) touched.add(id);
      if (rows === 0) break;
    }
    expect([...touched]).toEqual([feed.destination.id]);
    expect((await store.fanOut()).rows).toBe(0);

    const targets = await store.targets([feed.destination.id, eventsOnly.destination.id, 'dst_gone']);
    const target = targets.get(feed.destination.id)!;
    expect(target).toMatchObject({ url: 'http://127.0.0.1:9/feed', secrets: [feed.secret], plan: 'base', scope: 'platform', active: true });
    expect(targets.get(eventsOnly.destination.id)).toMatchObject({ secrets: [eventsOnly.secret], scope: 'own', plan: 'clan' });
    expect(targets.get('dst_gone')).toBeNull();

    const queue = await store.pending(target, 256);
    expect(queue.map((delivery) => delivery.eventId)).toEqual(needIds.map((id) => `evt-need.created-${id}-v1`));
    expect(JSON.parse(queue[0]!.envelope)).toMatchObject({
      id: `evt-need.created-${needIds[0]}-v1`,
      type: 'need.created',
      version: '1',
      organization_id: null,
      data: { id: needIds[0] },
    });
    expect((await store.pending(target, 256, queue[4])).map((delivery) => delivery.id)).toEqual(
      queue.slice(5).map((delivery) => delivery.id),
    );
    expect(await store.pending(targets.get(eventsOnly.destination.id)!, 256)).toEqual([]);

    const at = new Date();
    const outcomes: AttemptOutcome[] = queue.map((delivery) => ({
      deliveryId: delivery.id,
      destinationId: target.id,
      number: 1,
      at,
      durationMs: 3,
      statusCode: 200,
      error: null,
      responseExcerpt: 'ok',
      requestHeaders: '[["x-service-signature","t=1,v1=ab"]]',
      responseHeaders: '[["x-trace","7"]]',
      next: { status: 'succeeded' },
    }));
    await store.record(outcomes, new Map([[target.id, 'base']]));
    // The headers go in the same batched insert and read back as they were sent.
    expect(await core.services().deliveries.attempts(INTERNAL, queue[0]!.id)).toEqual([
      expect.objectContaining({
        number: 1,
        statusCode: 200,
        requestHeaders: '[["x-service-signature","t=1,v1=ab"]]',
        responseHeaders: '[["x-trace","7"]]',
      }),
    ]);
    expect(await store.pending(target, 256)).toEqual([]);
    expect(await store.destinationsWithWork()).toEqual([]);

    const count = async (sql: string, params: unknown[]) =>
      Number((await core.db.em.fork().getConnection().execute<{ n: number | string }[]>(sql, params))[0]!.n);
    const ids = queue.map((delivery) => delivery.id);
    const attempts = () =>
      count(`select count(*) as n from delivery_attempts where delivery_id in (${ids.map(() => '?').join(', ')})`, ids);
    expect(await attempts()).toBe(queue.length);
    await store.trimRetained();
    const kept = await core.services().deliveries.list(INTERNAL, { organizationId: 'store-base', destinationId: target.id }, { first: 50 });
    expect(kept.items).toHaveLength(12);
    // The trimmed deliveries' attempts went with them.
    expect(await attempts()).toBe(12);
    expect(kept.items.every((delivery) => delivery.status === 'succeeded' && delivery.attempts === 1)).toBe(true);
    // The newest are the ones kept (by creation; a fan-out writes its rows at one instant, and ties go by id).
    const newest = [...queue].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).slice(0, 12);
    expect(new Set(kept.items.map((delivery) => delivery.id))).toEqual(new Set(newest.map((delivery) => delivery.id)));

    // Deleting the destination deletes its deliveries and their attempts.
    await core.services().destinations.delete(INTERNAL, target.id);
    expect(await count('select count(*) as n from webhook_deliveries where destination_id = ?', [target.id])).toBe(0);
    expect(await attempts()).toBe(0);
  });

  it('leases lanes: one owner at a time, renewed by their owner, taken over once expired, given back', async () => {
    await core.services().organizations.create(INTERNAL, { id: 'store-lease', name: 'Leases', plan: 'clan' });
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      const created = await core
        .services()
        .destinations.create(INTERNAL, { organizationId: 'store-lease', format: 'standard-json', url: `http://127.0.0.1:9/lease-${n}` });
      ids.push(created.destination.id);
    }
    const [a, b, c] = ids as [string, string, string];
    const store = core.deliveryStore;
    expect(await store.claim('one', [a, b], 60_000)).toEqual(expect.arrayContaining([a, b]));
    // Held by a live owner: another dispatcher gets only the free lane.
    expect(await store.claim('two', [a, b, c], 60_000)).toEqual([c]);
    expect(new Set(await store.renew('one', 60_000))).toEqual(new Set([a, b]));
    // An expired lease is free to take.
    expect((await store.claim('one', [a], -1)).sort()).toEqual([a]);
    expect(await store.claim('two', [a], 60_000)).toEqual([a]);
    expect(await store.renew('one', 60_000)).toEqual([b]);
    await store.release('one', [b]);
    expect(await store.renew('one', 60_000)).toEqual([]);
    expect(await store.claim('two', [b], 60_000)).toEqual([b]);
    await store.release('two');
    expect(await store.renew('two', 60_000)).toEqual([]);
    expect(await store.claim('one', [], 60_000)).toEqual([]);
  });

  it("fails a call with the database's own message, and refuses calls once its runner is closed", async () => {
    const outcome: AttemptOutcome = {
      deliveryId: 'dlv_nobody',
      destinationId: 'dst_nobody',
      number: 1,
      at: new Date(),
      durationMs: 1,
      statusCode: 200,
      error: null,
      responseExcerpt: null,
      next: { status: 'succeeded' },
    };
    // An attempt of a delivery that does not exist breaks the attempts' foreign key.
    await expect(core.deliveryStore.record([outcome], new Map())).rejects.toThrow(/foreign key/i);

    const runner = createScriptRunner(core.db);
    expect(await runner.call('outboxWaiting', {})).toBe(false);
    await runner.close();
    await expect(runner.call('outboxWaiting', {})).rejects.toThrow(/closed/);
  });
});
