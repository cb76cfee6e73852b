import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../core/index.ts';
import { Doorkeeper } from './doorkeeper.ts';

export interface EpochCacheOptions<V> {
  /** @default 10_000 */
  maxEntries?: number;
  /** Most bytes kept, as `sizeOf` counts them; with no `sizeOf`, entries alone are counted. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** Which computed values are kept (say, not server errors). @default every value */
  keep?: (value: V) => boolean;
  /** What is kept of a value the caller got (say, a copy holding no memory beyond its own). @default the value itself */
  stored?: (value: V) => V;
  /** What a value shows, as change-feed tags (`need:<id>`, `list:opportunities`, `organization:*`). @default none */
  tags?: (value: V) => readonly string[];
  /** Length of the windows values are valid in even when nothing changed (events drop off as they end). @default 5_000 */
  windowMs?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
  /**
   * Keep a value only when its key was computed before, among the last `maxEntries` keys computed
   * (see Doorkeeper): answers asked for once never displace the ones asked for again. @default false
   */
  admitOnRepeat?: boolean;
}

interface Entry<V> {
  value: V;
  tags: readonly string[];
  stamps: number[];
  generation: number;
  window: number;
}

/** What the cache reads of the change feed. */
export type CacheFeed = Pick<ChangeFeed, 'generation' | 'mark' | 'stamp'>;

/**
 * Answers computed from public data, the same for every caller who may see them. An entry is
 * tagged with what it shows and valid while no change touched those tags (a change made here
 * or in another process, see ChangeFeed), within the time window it was computed in. A change
 * that says nothing of what it touched retires every entry, and so does the end of each window:
 * entries never expire one by one by age, so two answers served at the same moment agree.
 */
export class EpochCache<V extends object> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly keep: (value: V) => boolean;
  private readonly stored: (value: V) => V;
  private readonly tags: (value: V) => readonly string[];
  private readonly doorkeeper: Doorkeeper | undefined;
  /** Computations under way, so that callers missing the same key together share one. */
  private readonly pending = new Map<string, { promise: Promise<V>; mark: number; generation: number }>();

  private readonly feed: CacheFeed;

  constructor(feed: CacheFeed, options: EpochCacheOptions<V> = {}) {
    this.feed = feed;
    const {
      maxEntries = 10_000,
      maxBytes,
      sizeOf,
      keep = () => true,
      stored = (value) => value,
      tags = () => [],
      windowMs = 5_000,
      now = Date.now,
      admitOnRepeat = false,
    } = options;
    this.entries = new LRUCache<string, Entry<V>>({
      max: maxEntries,
      ...(maxBytes !== undefined && sizeOf ? { maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) } : {}),
    });
    this.windowMs = windowMs;
    this.now = now;
    this.keep = keep;
    this.stored = stored;
    this.tags = tags;
    this.doorkeeper = admitOnRepeat ? new Doorkeeper(maxEntries) : undefined;
  }

  /** The kept value when it is still valid (synchronous: a hot path awaits nothing). */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined || hit.generation !== this.feed.generation || hit.window !== this.window()) return undefined;
    for (let i = 0; i < hit.tags.length; i++) if (this.feed.stamp(hit.tags[i]!) !== hit.stamps[i]) return undefined;
    return hit.value;
  }

  /**
   * Computes and keeps the value, tagged with `tags(value)` (or the cache's own tags). A value
   * whose tags changed while it was computed is returned but never kept. Callers asking for a
   * key whose computation is under way, with no change since it started, share it.
   */
  compute(key: string, compute: () => Promise<V>, tags: (value: V) => readonly string[] = this.tags): Promise<V> {
    const mark = this.feed.mark();
    const generation = this.feed.generation;
    const running = this.pending.get(key);
    if (running && running.mark === mark && running.generation === generation) return running.promise;
    const promise = this.run(key, compute, tags, mark, generation);
    this.pending.set(key, { promise, mark, generation });
    const done = () => {
      if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
    };
    promise.then(done, done);
    return promise;
  }

  private async run(
    key: string,
    compute: () => Promise<V>,
    tags: (value: V) => readonly string[],
    mark: number,
    generation: number,
  ): Promise<V> {
    const window = this.window();
    const value = await compute();
    if (!this.keep(value) || this.feed.generation !== generation) return value;
    if (this.doorkeeper && !this.doorkeeper.seen(key)) return value;
    const kept = tags(value);
    const stamps = kept.map((tag) => this.feed.stamp(tag));
    if (stamps.some((stamp) => stamp > mark)) return value;
    this.entries.set(key, { value: this.stored(value), tags: kept, stamps, generation, window });
    return value;
  }

  private window(): number {
    return Math.floor(this.now() / this.windowMs);
  }
}
