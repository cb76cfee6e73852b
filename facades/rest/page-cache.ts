import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../core/index.ts';

export interface CachedPage {
  status: number;
  body: Buffer;
}

export interface PageCacheOptions {
  /** @default 10_000 */
  maxEntries?: number;
  /** Upper bound on reuse even when nothing changed (events drop off as they end). @default 5_000 */
  ttlMs?: number;
}

/**
 * Serialized answers of public operations. An entry is valid only for the change-feed version
 * it was computed under, so any change to public data (an outbox write here or in another
 * process) retires every page at once.
 */
export class PageCache {
  private readonly entries: LRUCache<string, CachedPage & { version: number }>;

  constructor(
    private readonly feed: ChangeFeed,
    { maxEntries = 10_000, ttlMs = 5_000 }: PageCacheOptions = {},
  ) {
    this.entries = new LRUCache({ max: maxEntries, ttl: ttlMs });
  }

  /** The cached page, or computes it. Computation started before a change is never stored. */
  async get(key: string, compute: () => Promise<CachedPage>): Promise<CachedPage> {
    const hit = this.entries.get(key);
    if (hit && hit.version === this.feed.version) return hit;
    const version = this.feed.version;
    const page = await compute();
    if (page.status < 500) this.entries.set(key, { ...page, version });
    return page;
  }
}
