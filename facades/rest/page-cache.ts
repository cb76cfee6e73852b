import type { ChangeFeed } from '../../core/index.ts';
import { EpochCache, type EpochCacheOptions } from '../epoch-cache.ts';

export interface CachedPage {
  status: number;
  body: Buffer;
}

/** Most bytes of REST answers kept: 10,000 pages of 50 items stay well within it. */
const MAX_BYTES = 512 * 1024 * 1024;

/** Serialized REST answers of public operations, by operation and variables; server errors are never kept. */
export class PageCache extends EpochCache<CachedPage> {
  constructor(feed: Pick<ChangeFeed, 'version'>, options: Omit<EpochCacheOptions<CachedPage>, 'keep' | 'sizeOf'> = {}) {
    super(feed, { maxBytes: MAX_BYTES, ...options, sizeOf: (page) => page.body.length, keep: (page) => page.status < 500 });
  }
}
