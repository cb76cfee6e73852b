import { describe, expect, it } from 'vitest';
import { EpochCache } from './epoch-cache.ts';
import { PageCache } from './rest/page-cache.ts';

const page = (text: string, status = 200) => ({ status, body: Buffer.from(text) });

describe('EpochCache', () => {
  const feed = { version: 0 };
  let clock = 10_000;
  const cache = new EpochCache<{ text: string }>(feed, { windowMs: 5_000, now: () => clock });

  it('serves an entry until the change feed moves', async () => {
    await cache.compute('a', async () => ({ text: 'one' }));
    expect(cache.peek('a')?.text).toBe('one');
    feed.version++;
    expect(cache.peek('a')).toBeUndefined();
  });

  it('retires every entry together at the end of a window, never one by one', async () => {
    clock = 20_000;
    await cache.compute('first', async () => ({ text: '1' }));
    clock = 24_999;
    await cache.compute('second', async () => ({ text: '2' }));
    expect([cache.peek('first'), cache.peek('second')].map((v) => v?.text)).toEqual(['1', '2']);
    clock = 25_000;
    expect([cache.peek('first'), cache.peek('second')]).toEqual([undefined, undefined]);
  });

  it('never serves a value whose computation overlapped a change', async () => {
    clock = 30_000;
    const value = await cache.compute('c', async () => {
      feed.version++;
      return { text: 'stale' };
    });
    expect(value.text).toBe('stale');
    expect(cache.peek('c')).toBeUndefined();
  });

  it('keeps nothing of a computation that fails', async () => {
    await expect(cache.compute('f', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.peek('f')).toBeUndefined();
  });

  it('keeps at most maxBytes as sizeOf counts them, dropping the least recently used', async () => {
    const small = new EpochCache<{ text: string }>({ version: 0 }, { maxBytes: 10, sizeOf: (v) => v.text.length });
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
  it('keeps pages, but never server errors', async () => {
    const cache = new PageCache({ version: 0 });
    await cache.compute('ok', async () => page('fine'));
    await cache.compute('gone', async () => page('{"code":"not_found"}', 404));
    await cache.compute('e', async () => page('x', 500));
    expect([cache.peek('ok')?.body.toString(), cache.peek('gone')?.status, cache.peek('e')]).toEqual(['fine', 404, undefined]);
  });
});
