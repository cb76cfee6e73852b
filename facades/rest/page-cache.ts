import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../core/index.ts';

export interface CachedPage {
  status: number;
  body: Buffer;
}

export interface PageCacheOptions {
  /** @default 10_000 */
  maxEntries?: number;
  /** Length of the windows pages are valid in even when nothing changed (events drop off as they end). @default 5_000 */
  windowMs?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

/**
 * Serialized answers of public operations. An entry is valid only for the change-feed version
 * and the time window it was computed in: any change to public data (an outbox write here or in
 * another process) retires every page at once, and so does the end of each window. Pages never
 * expire one by one, so two answers served at the same moment never disagree.
 */
export class PageCache {
  private readonly entries: LRUCache<string, CachedPage & { version: number; window: number }>;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly feed: ChangeFeed,
    { maxEntries = 10_000, windowMs = 5_000, now = Date.now }: PageCacheOptions = {},
  ) {
    this.entries = new LRUCache({ max: maxEntries });
    this.windowMs = windowMs;
    this.now = now;
  }

  /** The cached page when it is still valid (synchronous: the hot path awaits nothing). */
  peek(key: string): CachedPage | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.version === this.feed.version && hit.window === this.window() ? hit : undefined;
  }

  /** Computes and stores the page. A computation started before a change is never served later. */
  async compute(key: string, compute: () => Promise<CachedPage>): Promise<CachedPage> {
    const version = this.feed.version;
    const window = this.window();
    const page = await compute();
    if (page.status < 500) this.entries.set(key, { ...page, version, window });
    return page;
  }

  private window(): number {
    return Math.floor(this.now() / this.windowMs);
  }
}
