import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../core/components/change-feed.ts';
import { EpochCache } from './epoch-cache.ts';
import { PageCache, etagOf } from './rest/page-cache.ts';

const page = (text: string, status = 200, tags: string[] = []) => {
  const body = Buffer.from(text);
  return { status, body, etag: etagOf(body), tags };
};
// The feed's database is read only by poll(), never here.
const newFeed = () => new ChangeFeed(undefined as never, undefined as never);
const need = (id: string) => ({ kind: 'need' as const, id, lists: ['opportunities' as const] });

describe('EpochCache', () => {
  const feed = newFeed();
  let clock = 10_000;
  const cache = new EpochCache<{ text: string; tags: string[] }>(feed, { windowMs: 5_000, now: () => clock, tags: (v) => v.tags });

  it('retires only the entries whose tags a change touched', async () => {
    await cache.compute('a', async () => ({ text: 'need a', tags: ['need:a'] }));
    await cache.compute('b', async () => ({ text: 'need b', tags: ['need:b'] }));
    await cache.compute('list', async () => ({ text: 'list', tags: ['list:opportunities'] }));
    await cache.compute('events', async () => ({ text: 'events', tags: ['list:events'] }));
    feed.changed([need('a')]);
    expect(['a', 'b', 'list', 'events'].map((k) => cache.peek(k)?.text)).toEqual([undefined, 'need b', undefined, 'events']);
  });

  it('retires everything on a change that does not say what it touched', async () => {
    await cache.compute('c', async () => ({ text: 'c', tags: ['event:c'] }));
    await cache.compute('d', async () => ({ text: 'd', tags: [] }));
    feed.changed();
    expect([cache.peek('c'), cache.peek('d')]).toEqual([undefined, undefined]);
  });

  it('retires every entry together at the end of a window, never one by one', async () => {
    clock = 20_000;
    await cache.compute('first', async () => ({ text: '1', tags: [] }));
    clock = 24_999;
    await cache.compute('second', async () => ({ text: '2', tags: [] }));
    expect([cache.peek('first'), cache.peek('second')].map((v) => v?.text)).toEqual(['1', '2']);
    clock = 25_000;
    expect([cache.peek('first'), cache.peek('second')]).toEqual([undefined, undefined]);
  });

  it('never keeps a value whose tags changed while it was computed, even tags known only from the value', async () => {
    clock = 30_000;
    const value = await cache.compute('e', async () => {
      feed.changed([{ kind: 'organization', id: 'acme', lists: ['opportunities', 'events'] }]);
      return { text: 'stale', tags: ['need:e', 'organization:acme'] };
    });
    expect(value.text).toBe('stale');
    expect(cache.peek('e')).toBeUndefined();
    const other = await cache.compute('f', async () => {
      feed.changed([need('elsewhere')]);
      return { text: 'fresh', tags: ['need:f'] };
    });
    expect(cache.peek('f')).toBe(other);
  });

  it('keeps nothing of a computation that fails', async () => {
    await expect(cache.compute('g', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.peek('g')).toBeUndefined();
  });

  it('keeps at most maxBytes as sizeOf counts them, dropping the least recently used', async () => {
    const small = new EpochCache<{ text: string }>(newFeed(), { maxBytes: 10, sizeOf: (v) => v.text.length });
    await small.compute('x', async () => ({ text: 'xxxx' }));
    await small.compute('y', async () => ({ text: 'yyyy' }));
    expect(small.peek('x')?.text).toBe('xxxx');
    await small.compute('z', async () => ({ text: 'zzzz' }));
    expect([small.peek('x')?.text, small.peek('y'), small.peek('z')?.text]).toEqual(['xxxx', undefined, 'zzzz']);
    await small.compute('huge', async () => ({ text: 'h'.repeat(11) }));
    expect(small.peek('huge')).toBeUndefined();
  });
});

describe('PageCache', () => {
  it('keeps pages, but never server errors, and retires them by their tags', async () => {
    const feed = newFeed();
    const cache = new PageCache(feed);
    for (let i = 0; i < 2; i++) {
      await cache.compute('ok', async () => page('fine', 200, ['need:ok']));
      await cache.compute('gone', async () => page('{"code":"not_found"}', 404, ['need:gone']));
      await cache.compute('e', async () => page('x', 500));
    }
    expect([cache.peek('ok')?.body.toString(), cache.peek('gone')?.status, cache.peek('e')]).toEqual(['fine', 404, undefined]);
    feed.changed([{ kind: 'need', id: 'gone', lists: [] }]);
    expect([cache.peek('ok')?.body.toString(), cache.peek('gone')]).toEqual(['fine', undefined]);
  });

  it('keeps a page from its second computation on, so a sweep of pages asked for once keeps none', async () => {
    const feed = newFeed();
    const cache = new PageCache(feed, { maxEntries: 100 });
    await cache.compute('p', async () => page('first'));
    expect(cache.peek('p')).toBeUndefined();
    await cache.compute('p', async () => page('second'));
    expect(cache.peek('p')?.body.toString()).toBe('second');
    // Retired by a change, a page asked for before is kept again from its next computation.
    feed.changed();
    await cache.compute('p', async () => page('third'));
    expect(cache.peek('p')?.body.toString()).toBe('third');
    for (let i = 0; i < 50; i++) await cache.compute(`sweep-${i}`, async () => page(`page ${i}`));
    expect(Array.from({ length: 50 }, (_, i) => cache.peek(`sweep-${i}`)).filter(Boolean).length).toBeLessThan(10);
  });

  it('keeps a small body in memory of its own, not a slice that holds a shared 8 KiB slab', async () => {
    const cache = new PageCache(newFeed());
    const made = page('{"id":"need-1"}');
    // Buffer.from of a string is a view into a pool Node shares (8 KiB slabs on Node 20 below 4 KiB,
    // 64 KiB slabs on Node 24 below about 32 KiB): the premise of the copy.
    expect(made.body.buffer.byteLength).toBeGreaterThan(made.body.length);
    await cache.compute('small', async () => made);
    const served = await cache.compute('small', async () => made);
    expect(served).toBe(made);
    const kept = cache.peek('small')!;
    expect(kept.body.toString()).toBe('{"id":"need-1"}');
    expect(kept.body.buffer.byteLength).toBe(kept.body.length);
    expect(kept.etag).toBe(made.etag);
    // A body already alone in its memory is kept as it is.
    const alone = Buffer.alloc(10_000, 'x');
    const large = { status: 200, body: alone, etag: etagOf(alone), tags: [] };
    await cache.compute('large', async () => large);
    await cache.compute('large', async () => large);
    expect(cache.peek('large')!.body).toBe(large.body);
  });

  it('gives each body a strong ETag of its exact bytes', () => {
    expect(etagOf(Buffer.from('a'))).toBe(etagOf(Buffer.from('a')));
    expect(etagOf(Buffer.from('a'))).not.toBe(etagOf(Buffer.from('b')));
    expect(etagOf(Buffer.from('a'))).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });
});

describe('EpochCache, callers missing together', () => {
  it('share one computation while nothing changed, and start a new one after a change', async () => {
    const feed = newFeed();
    const cache = new EpochCache<{ n: number }>(feed);
    let runs = 0;
    const slow = () => new Promise<{ n: number }>((resolve) => setImmediate(() => resolve({ n: ++runs })));
    const [a, b] = await Promise.all([cache.compute('k', slow), cache.compute('k', slow)]);
    expect([a.n, b.n, runs]).toEqual([1, 1, 1]);
    const first = cache.compute('j', slow);
    feed.changed([need('x')]);
    const second = cache.compute('j', slow);
    expect((await first).n).not.toBe((await second).n);
  });
});
