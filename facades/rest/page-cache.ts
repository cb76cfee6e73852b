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
 * Most bytes of REST answers kept (each in memory of its own, see ownBytes). A page lives one
 * 5-second window at most, so this bounds what one window of distinct answers holds (about 5,000
 * list pages of 20 at 12 KB; answers by id are bounded by the 10,000 entries first): above it the
 * oldest go first. 512 MiB let the process grow past 600 MiB under the computed benchmark.
 */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * `body` in memory of its own. On Node 24 a Buffer made from a string of up to about 32 KiB (every
 * answer by id, and list pages) is a slice of a 64 KiB slab shared with the buffers made around it
 * (on Node 20: under 4 KiB, of 8 KiB slabs), and a kept slice keeps its whole slab alive: under the
 * computed benchmark the kept pages held about three times the bytes counted (docs/benchmarks.md).
 */
function ownBytes(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const own = Buffer.allocUnsafeSlow(body.length);
  body.copy(own);
  return own;
}

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
      stored: (page) => ({ ...page, body: ownBytes(page.body) }),
      tags: (page) => page.tags,
    });
  }
}
