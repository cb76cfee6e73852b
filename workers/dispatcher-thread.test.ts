import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL } from '../core/actor.ts';
import { createLogger, type Logger } from '../core/logger.ts';
import { Receiver } from '../test/support/receiver.ts';
import { openTestCore, type TestCore } from '../test/support/test-core.ts';
import { type AttemptNext, DispatcherThread } from './dispatcher-thread.ts';

// The dispatcher on a thread of its own (what `packline start` runs in role `all`): the main
// thread starts it when there is webhook work, tells it of changes, hears of its attempts, and
// it stops by itself once idle. On both databases (PostgreSQL: the thread opens a pool of its own).
describe('the dispatcher thread', () => {
  const key = randomBytes(32).toString('base64');
  let opened: TestCore;
  let receiver: Receiver;

  beforeAll(async () => {
    opened = await openTestCore('dispatcher-thread', {
      dataEncryptionKey: key,
      urlPolicy: { allowHttp: true, allowPrivateNetworks: true },
    });
    receiver = await new Receiver().start();
  });

  afterAll(async () => {
    await receiver.close();
    await opened.close();
  });

  /** A thread over the test core, with its events and the attempts it reported. */
  function threadFor(idleMs: number, options: { log?: Logger; dataEncryptionKey?: string } = {}) {
    const { core } = opened;
    const events: string[] = [];
    const attempts: AttemptNext[] = [];
    const waiters: { until: () => boolean; resolve: () => void }[] = [];
    const settle = () => {
      for (const waiter of [...waiters]) if (waiter.until()) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve();
    };
    const thread = new DispatcherThread({
      store: core.deliveryStore,
      feed: core.feed,
      log: options.log ?? createLogger('silent'),
      thread: {
        databaseUrl: opened.databaseUrl,
        sqlitePath: core.db.config.get('dbName')!,
        dataDir: opened.dataDir,
        dataEncryptionKey: options.dataEncryptionKey ?? key,
        policy: core.urlPolicy,
        retrySchedule: [0, 1],
        leaseSeconds: 2,
        idleMs,
        graceMs: 1_000,
      },
      onAttempt: ({ next }) => {
        attempts.push(next);
        settle();
      },
      onThread: (event) => {
        events.push(event);
        settle();
      },
    });
    /** Resolves once `until` holds (checked on every event and attempt). */
    const when = (until: () => boolean) =>
      new Promise<void>((resolve) => {
        waiters.push({ until, resolve });
        settle();
      });
    return { thread, events, attempts, when };
  }

  async function publish(title: string) {
    return opened.core.services().needs.publish(INTERNAL, { organizationId: 'thread-org', title, requiredExpertise: ['gis'] });
  }

  it('starts with the work, delivers, reports its attempts, stops when idle and starts again for new work', async () => {
    const services = opened.core.services();
    await services.organizations.create(INTERNAL, { id: 'thread-org', name: 'Thread', plan: 'clan' });
    const { destination } = await services.destinations.create(INTERNAL, {
      organizationId: 'thread-org',
      format: 'standard-json',
      url: receiver.url('/first'),
      scope: 'platform',
    });
    const { thread, events, attempts, when } = threadFor(300);
    thread.start();
    // Nothing waits yet: no thread.
    expect(thread.threadRunning).toBe(false);

    const first = await publish('Surveyor');
    await receiver.waitFor(() => receiver.on('/first').length === 1, 'the first delivery');
    expect(receiver.on('/first')[0]!.headers['x-service-event-id']).toBe(`evt-need.created-${first.id}-v1`);
    await when(() => attempts.length === 1);
    expect(attempts).toEqual([{ status: 'succeeded' }]);
    expect(events).toEqual(['started']);

    // Idle for 300 ms with nothing waiting: the thread ends and gives its lanes back.
    await when(() => events.length === 2);
    expect(events).toEqual(['started', 'stopped']);
    expect(thread.threadRunning).toBe(false);
    expect(await opened.core.deliveryStore.renew('nobody', 1_000)).toEqual([]);

    // A change made on the main thread while the thread runs reaches its lane (the feed's version is relayed).
    await publish('Cartographer');
    await receiver.waitFor(() => receiver.on('/first').length === 2, 'the second delivery');
    expect(events).toEqual(['started', 'stopped', 'started']);
    await services.destinations.update(INTERNAL, destination.id, { url: receiver.url('/moved') });
    await publish('Geodesist');
    await receiver.waitFor(() => receiver.on('/moved').length === 1, 'a delivery to the new address');
    expect(receiver.on('/first')).toHaveLength(2);

    await thread.stop(1_000);
    expect(events).toEqual(['started', 'stopped', 'started', 'stopped']);
    expect(thread.threadRunning).toBe(false);
    await when(() => attempts.length === 3);
    expect(attempts.every((next) => next.status === 'succeeded')).toBe(true);
  }, 30_000);

  it('cuts an attempt past the grace when stopped, and a later thread sends it again', async () => {
    const services = opened.core.services();
    const [destination] = await services.destinations.list(INTERNAL, 'thread-org');
    await services.destinations.update(INTERNAL, destination!.id, { url: receiver.url('/hang') });
    receiver.plan('/hang', { hang: true });
    const first = threadFor(60_000);
    first.thread.start();
    const need = await publish('Hydrographer');
    await receiver.waitFor(() => receiver.on('/hang').length === 1, 'the delivery');
    await first.thread.stop(200);
    expect(first.events).toEqual(['started', 'stopped']);
    // Cut off, not judged: the delivery still waits.
    expect(first.attempts).toEqual([]);

    receiver.plan('/hang', { status: 200 });
    const second = threadFor(60_000);
    second.thread.start();
    await second.when(() => second.attempts.length === 1);
    expect(second.attempts).toEqual([{ status: 'succeeded' }]);
    expect(receiver.on('/hang').map((r) => r.headers['x-service-event-id'])).toEqual([
      `evt-need.created-${need.id}-v1`,
      `evt-need.created-${need.id}-v1`,
    ]);
    await second.thread.stop(1_000);
    expect(second.events).toEqual(['started', 'stopped']);
  }, 30_000);

  it("relays the thread's errors to the main thread's logger, with the error's type, message and stack", async () => {
    const lines: Record<string, unknown>[] = [];
    let heard: (() => void) | undefined;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line) {
            lines.push(JSON.parse(line) as Record<string, unknown>);
            heard?.();
          }
        done();
      },
    });
    const log = createLogger('warn', { destination: sink }).child({ worker: 'dispatcher' });
    const services = opened.core.services();
    const [destination] = await services.destinations.list(INTERNAL, 'thread-org');
    await services.destinations.update(INTERNAL, destination!.id, { url: receiver.url('/sealed') });
    // Another sealing key than the one the destinations were sealed with: the thread cannot open their URLs.
    const { thread } = threadFor(60_000, { log, dataEncryptionKey: randomBytes(32).toString('base64') });
    thread.start();
    await publish('Topographer');
    await new Promise<void>((resolve) => {
      heard = () => lines.length > 0 && resolve();
      heard();
    });
    await thread.stop(1_000);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 50,
      worker: 'dispatcher',
      msg: 'webhook lane failed; retrying shortly',
      destination: destination!.id,
    });
    expect(line!.err).toMatchObject({
      type: 'Error',
      message: expect.stringMatching(/^Cannot open sealed secret: authentication failed/),
      stack: expect.stringContaining('SecretBox.open'),
    });
    expect(receiver.on('/sealed')).toEqual([]);

    // The main thread's key again: the delivery waited and goes out.
    const { thread: again, when, attempts } = threadFor(60_000);
    again.start();
    await when(() => attempts.length === 1);
    expect(receiver.on('/sealed')).toHaveLength(1);
    await again.stop(1_000);
  }, 30_000);

  it('starts no thread for signals no destination takes: the main thread marks their outbox rows', async () => {
    const bare = await openTestCore('dispatcher-thread-bare', {
      dataEncryptionKey: key,
      urlPolicy: { allowHttp: true, allowPrivateNetworks: true },
    });
    const events: string[] = [];
    const looks: { outbox: boolean; work: boolean }[] = [];
    let looked: () => void = () => undefined;
    const firstLook = new Promise<void>((resolve) => {
      looked = resolve;
    });
    const thread = new DispatcherThread({
      store: bare.core.deliveryStore,
      feed: bare.core.feed,
      log: createLogger('silent'),
      thread: {
        databaseUrl: bare.databaseUrl,
        sqlitePath: bare.core.db.config.get('dbName')!,
        dataDir: bare.dataDir,
        dataEncryptionKey: key,
        policy: bare.core.urlPolicy,
        retrySchedule: [0, 1],
        leaseSeconds: 2,
        idleMs: 60_000,
        graceMs: 1_000,
      },
      onThread: (event) => events.push(event),
      onLook: (look) => {
        looks.push(look);
        looked();
      },
    });
    try {
      const services = bare.core.services();
      await services.organizations.create(INTERNAL, { id: 'bare-org', name: 'Bare', plan: 'clan' });
      const need = { organizationId: 'bare-org', requiredExpertise: ['gis'] };
      await services.needs.publish(INTERNAL, { ...need, title: 'Surveyor' });
      expect(await bare.core.deliveryStore.outboxWaiting()).toBe(true);

      // The first look finds the signal, and nobody to send it to: its row is marked, no thread.
      thread.start();
      await firstLook;
      expect(looks[0]).toEqual({ outbox: true, work: false });
      expect(await bare.core.deliveryStore.outboxWaiting()).toBe(false);
      expect(thread.threadRunning).toBe(false);
      expect(events).toEqual([]);

      // With a destination, the next signal is work: the thread starts and delivers it (only it).
      await services.destinations.create(INTERNAL, {
        organizationId: 'bare-org',
        format: 'standard-json',
        url: receiver.url('/bare'),
        scope: 'platform',
      });
      const second = await services.needs.publish(INTERNAL, { ...need, title: 'Cartographer' });
      await receiver.waitFor(() => receiver.on('/bare').length === 1, 'the delivery');
      expect(events).toEqual(['started']);
      expect(looks.at(-1)).toEqual({ outbox: true, work: true });
      expect(receiver.on('/bare')[0]!.headers['x-service-event-id']).toBe(`evt-need.created-${second.id}-v1`);
    } finally {
      await thread.stop(1_000);
      await bare.close();
    }
  }, 30_000);
});
