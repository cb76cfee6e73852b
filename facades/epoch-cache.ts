import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../core/index.ts';

export interface EpochCacheOptions<V> {
  /** @default 10_000 */
  maxEntries?: number;
  /** Most bytes kept, as `sizeOf` counts them; with no `sizeOf`, entries alone are counted. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** Which computed values are kept (say, not server errors). @default every value */
  keep?: (value: V) => boolean;
  /** Length of the windows values are valid in even when nothing changed (events drop off as they end). @default 5_000 */
  windowMs?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  version: number;
  window: number;
}

/**
 * Answers computed from public data, the same for every caller who may see them. An entry is
 * valid only for the change-feed version and the time window it was computed in: any change to
 * public data (an outbox write here or in another process) retires every entry at once, and so
 * does the end of each window. Entries never expire one by one, so two answers served at the
 * same moment never disagree.
 */
export class EpochCache<V extends object> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly keep: (value: V) => boolean;

  constructor(
    private readonly feed: Pick<ChangeFeed, 'version'>,
    { maxEntries = 10_000, maxBytes, sizeOf, keep = () => true, windowMs = 5_000, now = Date.now }: EpochCacheOptions<V> = {},
  ) {
    this.entries = new LRUCache<string, Entry<V>>({
      max: maxEntries,
      ...(maxBytes !== undefined && sizeOf ? { maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) } : {}),
    });
    this.windowMs = windowMs;
    this.now = now;
    this.keep = keep;
  }

  /** The kept value when it is still valid (synchronous: a hot path awaits nothing). */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.version === this.feed.version && hit.window === this.window() ? hit.value : undefined;
  }

  /** Computes and keeps the value. A computation started before a change is never served later. */
  async compute(key: string, compute: () => Promise<V>): Promise<V> {
    const version = this.feed.version;
    const window = this.window();
    const value = await compute();
    if (this.keep(value)) this.entries.set(key, { value, version, window });
    return value;
  }

  private window(): number {
    return Math.floor(this.now() / this.windowMs);
  }
}
