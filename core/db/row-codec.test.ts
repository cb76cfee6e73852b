import { describe, expect, it } from 'vitest';
import { rowCodec } from './row-codec.ts';

describe('the row codec', () => {
  const at = new Date('2026-11-25T10:00:00.000Z');

  it('writes values as each database keeps them, and reads them back', () => {
    const sqlite = rowCodec('sqlite');
    expect(sqlite.date(at)).toBe(at.getTime());
    expect(sqlite.bool(true)).toBe(1);
    expect(sqlite.readDate(at.getTime())).toEqual(at);
    expect(sqlite.readBool(1)).toBe(true);
    expect(sqlite.readBool(0)).toBe(false);
    expect(sqlite.readJson<string[]>('["a","b"]')).toEqual(['a', 'b']);

    const postgresql = rowCodec('postgresql');
    expect(postgresql.date(at.getTime())).toEqual(at);
    expect(postgresql.bool(false)).toBe(false);
    expect(postgresql.readDate(at)).toEqual(at);
    expect(postgresql.readDate(at.toISOString())).toEqual(at);
    expect(postgresql.readJson(['a'])).toEqual(['a']);
    expect(postgresql.readJsonText({ a: 1 })).toBe('{"a":1}');
  });

  it('reads a missing date as null, and counts from strings of digits as milliseconds', () => {
    for (const kind of ['sqlite', 'postgresql'] as const) {
      expect(rowCodec(kind).readOptionalDate(null)).toBeNull();
      expect(rowCodec(kind).readOptionalDate(undefined)).toBeNull();
      expect(rowCodec(kind).readMs(String(at.getTime()))).toBe(at.getTime());
    }
  });
});
