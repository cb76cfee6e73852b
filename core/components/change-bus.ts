import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { CHANGE_KINDS, type ChangeBus, type ChangeKind, type PublicList } from './change-feed.ts';

type WireChange = { seq: number | undefined; kind: ChangeKind; id: string; lists: PublicList[] };

const LISTS: readonly string[] = ['opportunities', 'events'];

/**
 * Changes committed here, published on a Redis channel the moment they commit, and those of
 * other processes as they arrive. Best effort: a message lost while Redis is down is still read
 * from the `changes` table by the change feed's next poll (which skips what came by Redis).
 */
export class RedisChangeBus implements ChangeBus {
  private readonly origin = randomUUID();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;

  private readonly channel: string;

  /** A bus over the Redis of `url`; ioredis is loaded only then, so a process without Redis never loads it. */
  static async connect(url: string, channel: string): Promise<RedisChangeBus> {
    const { Redis } = await import('ioredis');
    // Publishing never waits for a connection: the database feed covers what is not sent.
    return new RedisChangeBus(
      new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 }),
      new Redis(url, { connectTimeout: 2_000 }),
      channel,
    );
  }

  private constructor(publisher: Redis, subscriber: Redis, channel: string) {
    this.channel = channel;
    this.publisher = publisher;
    this.subscriber = subscriber;
    // Errors are reported by the limits' connection; here a lost message only waits for a poll.
    this.publisher.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
  }

  publish(changes: readonly { seq: number | undefined; kind: ChangeKind; id: string; lists: readonly PublicList[] }[]): void {
    if (changes.length === 0 || this.publisher.status !== 'ready') return;
    this.publisher.publish(this.channel, JSON.stringify({ origin: this.origin, changes })).catch(() => undefined);
  }

  subscribe(receive: (changes: WireChange[]) => void): void {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const changes = this.read(message);
      if (changes && changes.length > 0) receive(changes);
    });
    this.subscriber.subscribe(this.channel).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  /** The message's changes; undefined for this process's own messages and for anything malformed. */
  private read(message: string): WireChange[] | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return undefined;
    }
    const body = parsed as { origin?: unknown; changes?: unknown };
    if (body.origin === this.origin || !Array.isArray(body.changes)) return undefined;
    const changes: WireChange[] = [];
    for (const raw of body.changes as Record<string, unknown>[]) {
      const { seq, kind, id, lists } = raw ?? {};
      if (!(CHANGE_KINDS as readonly unknown[]).includes(kind) || typeof id !== 'string' || id.length > 120) return undefined;
      if (seq !== undefined && seq !== null && !Number.isSafeInteger(seq)) return undefined;
      if (!Array.isArray(lists) || !lists.every((l) => LISTS.includes(l as string))) return undefined;
      changes.push({ seq: typeof seq === 'number' ? seq : undefined, kind: kind as ChangeKind, id, lists: lists as PublicList[] });
    }
    return changes;
  }
}
