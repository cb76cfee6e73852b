import { describe, expect, it } from 'vitest';
import { chunked, inBatches } from './scripts.ts';

describe('lists of items for statements', () => {
  it('chunks ids into lists of at most the size', () => {
    expect(chunked([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunked([], 2)).toEqual([]);
  });

  it('batches items into full lists, then powers of two: few sizes to compile', () => {
    const items = Array.from({ length: 64 * 2 + 45 }, (_, i) => i);
    const lists = inBatches(items, 64);
    expect(lists.map((list) => list.length)).toEqual([64, 64, 32, 8, 4, 1]);
    expect(lists.flat()).toEqual(items);
    expect(inBatches([], 64)).toEqual([]);
    // Every size a batch of any length takes, from 1 to 1,000 items: the size and 6 powers of two.
    const sizes = new Set<number>();
    for (let n = 1; n <= 1000; n++) for (const list of inBatches(items.slice(0, Math.min(n, items.length)), 64)) sizes.add(list.length);
    expect([...sizes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64]);
  });
});
