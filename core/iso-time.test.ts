import { describe, expect, it } from 'vitest';
import { isoString } from './iso-time.ts';

describe('isoString', () => {
  it('writes what toISOString writes, across days, leap years and the ends of the range', () => {
    const instants = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    // A deterministic spread over 1970–2100, every field's digits exercised.
    let x = 12_345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push(Math.floor((x / 2_147_483_648) * Date.UTC(2100, 0, 1)) + (i % 1_000));
    }
    for (const ms of instants) expect(isoString(new Date(ms)), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('hands instants before 1970 and from year 10000 on to toISOString', () => {
    for (const ms of [-1, Date.UTC(1969, 6, 20, 20, 17), Date.UTC(-200, 0, 1), Date.UTC(10_000, 0, 1), 8.64e15]) {
      expect(isoString(new Date(ms))).toBe(new Date(ms).toISOString());
    }
  });

  it('throws the same RangeError as toISOString for an invalid date', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
