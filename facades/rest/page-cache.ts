import { hash } from 'node:crypto';
import { EpochCache, type CacheFeed, type EpochCacheOptions } from '../epoch-cache.ts';

export interface CachedPage {
  status: number;
  body: Buffer;
  /** Strong validator of the body's bytes, quoted (`"…"`); computed once, when the page is made. */
  etag: string;
  /** What the page shows, as change-feed tags. */
  tags: readonly string[];
}

/**
 * Most bytes of REST answers kept. A page lives one 5-second window at most, so this bounds what
 * one window of distinct answers holds (about 5,000 list pages of 20 at 12 KB, or 70,000 answers by id):
 * above it the oldest go first, and the process stays within its memory budget (256 MiB under the
 * computed benchmark) where 512 MiB let it grow past 600.
 */
const MAX_BYTES = 64 * 1024 * 1024;

/** The strong ETag of a body: a digest of its exact bytes. */
export const etagOf = (body: Buffer) => `"${hash('sha1', body, 'base64url')}"`;

/**
 * Serialized REST answers of public operations, by operation and variables; server errors are
 * never kept. A page is kept from the second time it is computed (see Doorkeeper): a sweep over
 * every cursor or id keeps nothing and costs no upkeep, where keeping each answer it computed
 * cost a computed list page a fifth of its CPU (docs/benchmarks.md). A page is retired when a
 * change touches one of its tags (see EpochCache).
 */
export class PageCache extends EpochCache<CachedPage> {
  constructor(feed: CacheFeed, options: Omit<EpochCacheOptions<CachedPage>, 'keep' | 'sizeOf' | 'tags'> = {}) {
    super(feed, {
      maxBytes: MAX_BYTES,
      admitOnRepeat: true,
      ...options,
      sizeOf: (page) => page.body.length,
      keep: (page) => page.status < 500,
      tags: (page) => page.tags,
    });
  }
}
