import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { utcInstant } from './row-decoding.ts';

// The read path's fast reading of PostgreSQL's timestamptz text must give what the ORM's own
// parser gives, and leave every text it does not read to that parser.
const platform = new PostgreSqlPlatform();
const orm = (text: string) => (platform.parseDate(text) as Date).getTime();

describe('utcInstant', () => {
  it('reads a UTC session timestamp as the ORM does, the fraction cut to milliseconds', () => {
    const texts = [
      '2026-11-28 23:25:16+00',
      '2026-11-28 23:25:16.1+00',
      '2026-11-28 23:25:16.12+00',
      '2026-11-28 23:25:16.123+00',
      '2026-11-28 23:25:16.1239+00',
      '2026-11-28 23:25:16.999999+00',
      '2024-02-29 00:00:00+00',
      '1970-01-01 00:00:00+00',
      '1969-12-31 23:59:59.999+00',
      '1000-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999+00',
    ];
    for (const text of texts) expect(utcInstant(text)?.getTime(), text).toBe(orm(text));
  });

  it('reads many instants as the ORM does', () => {
    for (let ms = -5e11; ms < 4e12; ms += 7_654_321_987) {
      const iso = new Date(ms).toISOString();
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 23)}${ms % 3 === 0 ? '456' : ''}+00`;
      expect(utcInstant(text)?.getTime(), text).toBe(orm(text));
    }
  });

  it('leaves other zones, years before 1000, BC, infinity and malformed text to the ORM', () => {
    for (const text of [
      '2026-11-28 23:25:16+01',
      '2026-11-28 23:25:16.123+05:30',
      '2026-11-28 23:25:16-08',
      '0999-12-31 23:59:59+00',
      '2026-11-28 23:25:16+00 BC',
      'infinity',
      '-infinity',
      '2026-11-28T23:25:16.123Z',
      '2026-11-28 23:25:16.+00',
      '2026-11-28 23:25:16.1234567+00',
      '2026-13-28 23:25:16+00',
      '2026-02-30 23:25:16+00',
      '2026-11-28 24:00:00+00',
      '2026-11-28 23:25:1x+00',
      '',
    ]) {
      expect(utcInstant(text), text).toBeUndefined();
    }
    expect(utcInstant(1_800_000_000_000)).toBeUndefined();
    expect(utcInstant(null)).toBeUndefined();
  });
});
