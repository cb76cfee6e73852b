import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatcherOver } from '../../test/support/dispatcher.ts';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';
import { INTERNAL } from '../actor.ts';
import { type ScriptRunner, SqliteThreadRunner } from './script-runners.ts';

// The SQLite runner's thread runs only while there is webhook work. These tests open a SQLite
// database in both runs of the suite (the PostgreSQL runner has no thread).
describe('the SQLite script runner', () => {
  let opened: TestCore;

  beforeAll(async () => {
    opened = await openTestCore('runner', { databaseUrl: undefined, urlPolicy: { allowHttp: true, allowPrivateNetworks: true } });
  });

  afterAll(async () => {
    await opened.close();
  });

  it('answers probes without a thread, starts one for other work, stops it when idle and starts it again', async () => {
    const events: string[] = [];
    let stopped: () => void = () => undefined;
    const runner = new SqliteThreadRunner(opened.core.db, {
      idleMs: 20,
      onThread: (event) => {
        events.push(event);
        if (event === 'stopped') stopped();
      },
    });

    expect(await runner.call('outboxWaiting', {})).toBe(false);
    expect(await runner.call('destinationsWithWork', {})).toEqual([]);
    expect(runner.threadRunning).toBe(false);
    expect(events).toEqual([]);

    // Work written by this process's own connection is what both the probes and the thread see.
    const services = opened.core.services();
    await services.organizations.create(INTERNAL, { id: 'runner-org', name: 'Runner', plan: 'base' });
    const created = await services.destinations.create(INTERNAL, {
      organizationId: 'runner-org',
      format: 'standard-json',
      url: 'http://127.0.0.1:9/runner',
      scope: 'platform',
    });
    await services.needs.publish(INTERNAL, { organizationId: 'runner-org', title: 'Cartographer', requiredExpertise: ['gis'] });
    expect(await runner.call('outboxWaiting', {})).toBe(true);
    expect(runner.threadRunning).toBe(false);

    const wasStopped = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    const fanned = await runner.call('fanOut', { limit: 500, maxDeliveries: 2_000 });
    expect(events).toEqual(['started']);
    expect(fanned.destinations).toEqual([created.destination.id]);
    // While the thread runs, probes go to it, after the writes sent before them.
    expect(await runner.call('outboxWaiting', {})).toBe(false);
    expect(await runner.call('destinationsWithWork', {})).toEqual([created.destination.id]);
    await wasStopped;
    expect(events).toEqual(['started', 'stopped']);
    expect(runner.threadRunning).toBe(false);

    // A probe with the thread stopped reads what the thread wrote.
    expect(await runner.call('destinationsWithWork', {})).toEqual([created.destination.id]);
    expect(
      await runner.call('claimLanes', { owner: 'runner-test', ids: [created.destination.id], leaseMs: 10_000, now: Date.now() }),
    ).toEqual([created.destination.id]);
    expect(events).toEqual(['started', 'stopped', 'started']);
    await runner.call('releaseLanes', { owner: 'runner-test' });

    await runner.close();
    expect(runner.threadRunning).toBe(false);
    await expect(runner.call('outboxWaiting', {})).rejects.toThrow(/closed/);
    await expect(runner.call('fanOut', { limit: 1, maxDeliveries: 1 })).rejects.toThrow(/closed/);
  });

  it('keeps an idle dispatcher off the thread: its looks at the outbox and the queues are probes', async () => {
    // A database of its own: the first test leaves a delivery waiting.
    const idle = await openTestCore('runner-idle', { databaseUrl: undefined });
    const events: string[] = [];
    const runner = new SqliteThreadRunner(idle.core.db, { onThread: (event) => events.push(event) });
    // Counts the calls by name, and says when the dispatcher's full look-around has run twice.
    const calls = new Map<string, number>();
    let scanned: () => void = () => undefined;
    const scannedTwice = new Promise<void>((resolve) => {
      scanned = resolve;
    });
    const counting: ScriptRunner = {
      kind: runner.kind,
      call: (name, args) => {
        const count = (calls.get(name) ?? 0) + 1;
        calls.set(name, count);
        if (name === 'destinationsWithWork' && count === 2) scanned();
        return runner.call(name, args);
      },
      close: () => runner.close(),
    };
    const { store, dispatcher } = dispatcherOver(counting, idle.core);
    dispatcher.start();
    await scannedTwice;
    await dispatcher.stop();
    await store.close();
    await idle.close();
    expect(calls.get('outboxWaiting')).toBeGreaterThan(2);
    // No lease renewed or given back, no fan-out, no trimming: nothing but probes.
    expect([...calls.keys()].sort()).toEqual(['destinationsWithWork', 'outboxWaiting']);
    expect(events).toEqual([]);
  });

  it("marks the outbox on the caller's connection while no destination is active, and leaves it to the fan-out once one is", async () => {
    const bare = await openTestCore('runner-bare', { databaseUrl: undefined, urlPolicy: { allowHttp: true, allowPrivateNetworks: true } });
    const events: string[] = [];
    const runner = new SqliteThreadRunner(bare.core.db, { onThread: (event) => events.push(event) });
    try {
      const services = bare.core.services();
      await services.organizations.create(INTERNAL, { id: 'bare-org', name: 'Bare', plan: 'base' });
      const need = { organizationId: 'bare-org', requiredExpertise: ['gis'] };
      await services.needs.publish(INTERNAL, { ...need, title: 'Surveyor' });
      expect(await runner.call('outboxWaiting', {})).toBe(true);
      // Nobody to deliver to: marked here, with no thread.
      expect(await runner.call('settleOutbox', { limit: 500 })).toBe(false);
      expect(await runner.call('outboxWaiting', {})).toBe(false);
      expect(events).toEqual([]);

      const created = await services.destinations.create(INTERNAL, {
        organizationId: 'bare-org',
        format: 'standard-json',
        url: 'http://127.0.0.1:9/bare',
        scope: 'platform',
      });
      await services.needs.publish(INTERNAL, { ...need, title: 'Cartographer' });
      // Somebody to deliver to: nothing written, the row waits for the fan-out (on the thread).
      expect(await runner.call('settleOutbox', { limit: 500 })).toBe(true);
      expect(await runner.call('outboxWaiting', {})).toBe(true);
      expect(events).toEqual([]);
      const fanned = await runner.call('fanOut', { limit: 500, maxDeliveries: 2_000 });
      expect(fanned.destinations).toEqual([created.destination.id]);
      expect(events).toEqual(['started']);
    } finally {
      await runner.close();
      await bare.close();
    }
  });
});
