import { describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../../core/index.ts';
import { PageCache } from './page-cache.ts';

const page = (text: string) => ({ status: 200, body: Buffer.from(text) });

describe('PageCache', () => {
  const feed = { version: 0 } as ChangeFeed;
  let clock = 10_000;
  const cache = new PageCache(feed, { windowMs: 5_000, now: () => clock });

  it('serves an entry until the change feed moves', async () => {
    await cache.compute('a', async () => page('one'));
    expect(cache.peek('a')?.body.toString()).toBe('one');
    feed.version++;
    expect(cache.peek('a')).toBeUndefined();
  });

  it('retires every entry together at the end of a window, never one by one', async () => {
    clock = 20_000;
    await cache.compute('first', async () => page('1'));
    clock = 24_999;
    await cache.compute('second', async () => page('2'));
    expect([cache.peek('first'), cache.peek('second')].map((p) => p?.body.toString())).toEqual(['1', '2']);
    clock = 25_000;
    expect([cache.peek('first'), cache.peek('second')]).toEqual([undefined, undefined]);
  });

  it('never serves a page whose computation overlapped a change', async () => {
    clock = 30_000;
    await cache.compute('c', async () => {
      feed.version++;
      return page('stale');
    });
    expect(cache.peek('c')).toBeUndefined();
  });

  it('does not keep server errors', async () => {
    await cache.compute('e', async () => ({ status: 500, body: Buffer.from('x') }));
    expect(cache.peek('e')).toBeUndefined();
  });
});
