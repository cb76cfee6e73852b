import { describe, expect, it } from 'vitest';
import { LANGUAGES, SIGNAL_TYPES } from '../../core/webhooks/contract.ts';
import { formatDateRange, formatDateTime, labelsFor, parseDate } from './i18n.ts';

const at = (iso: string) => parseDate(iso)!;

describe('labels', () => {
  it('has a heading for every signal type in every language', () => {
    for (const language of LANGUAGES) {
      for (const type of SIGNAL_TYPES) expect(labelsFor(language).headings[type], `${language} ${type}`).toMatch(/\S/);
    }
  });

  it('speaks French', () => {
    const fr = labelsFor('fr');
    expect([fr.headings['need.created'], fr.remotePossible, fr.online, fr.place]).toEqual([
      'Nouvelle opportunité',
      'Télétravail possible',
      'En ligne',
      'Lieu',
    ]);
    expect(labelsFor('en').headings['event.cancelled']).toBe('Event cancelled');
  });
});

describe('dates', () => {
  it('formats in the language, in UTC', () => {
    expect(formatDateTime(at('2026-11-22T10:00:00.000Z'), 'en')).toBe('November 22, 2026, 10:00 AM UTC');
    expect(formatDateTime(at('2026-11-22T10:00:00.000Z'), 'fr')).toBe('22 novembre 2026, 10:00 UTC');
    expect(formatDateTime(at('2026-11-22T23:30:00-02:00'), 'fr')).toBe('23 novembre 2026, 01:30 UTC');
  });

  it('writes the day once for a same-day range', () => {
    const start = at('2026-11-22T10:00:00.000Z');
    expect(formatDateRange(start, at('2026-11-22T12:30:00.000Z'), 'en')).toBe('November 22, 2026, 10:00 AM – 12:30 PM UTC');
    expect(formatDateRange(start, at('2026-11-23T09:00:00.000Z'), 'fr')).toBe('22 novembre 2026, 10:00 UTC – 23 novembre 2026, 09:00 UTC');
    expect(formatDateRange(start, undefined, 'fr')).toBe('22 novembre 2026, 10:00 UTC');
  });

  it('parses only valid ISO strings', () => {
    expect(parseDate('not a date')).toBeUndefined();
    expect(parseDate(1_795_341_600)).toBeUndefined();
    expect(parseDate('2026-11-22T10:00:00.000Z')?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });
});
