// Labels and date formats of rendered deliveries, per destination language.
import type { Language } from '../../core/webhooks/contract.ts';

/** Every label a rendered delivery can show. */
export interface Labels {
  headings: Record<string, string>;
  remotePossible: string;
  expertise: string;
  open: string;
  date: string;
  place: string;
  online: string;
  /** Between a label and its value: `: ` in English, ` : ` in French. */
  colon: string;
  /** Appended when a list is capped: `+3 more`. */
  more: (count: number) => string;
}

const en: Labels = {
  headings: {
    'need.created': 'New opportunity',
    'need.updated': 'Opportunity updated',
    'need.withdrawn': 'Opportunity withdrawn',
    'event.created': 'New event',
    'event.updated': 'Event updated',
    'event.cancelled': 'Event cancelled',
  },
  remotePossible: 'Remote possible',
  expertise: 'Expertise',
  open: 'Open',
  date: 'Date',
  place: 'Place',
  online: 'Online',
  colon: ': ',
  more: (count) => `+${count} more`,
};

const fr: Labels = {
  headings: {
    'need.created': 'Nouvelle opportunité',
    'need.updated': 'Opportunité mise à jour',
    'need.withdrawn': 'Opportunité retirée',
    'event.created': 'Nouvel événement',
    'event.updated': 'Événement mis à jour',
    'event.cancelled': 'Événement annulé',
  },
  remotePossible: 'Télétravail possible',
  expertise: 'Expertise',
  open: 'Ouvrir',
  date: 'Date',
  place: 'Lieu',
  online: 'En ligne',
  colon: ' : ',
  more: (count) => `+${count} autres`,
};

const LABELS: Record<Language, Labels> = { en, fr };

/** The labels of `language`; English for a language the platform does not know. */
export function labelsFor(language: Language): Labels {
  return LABELS[language] ?? en;
}

interface DateFormats {
  day: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  timeWithZone: Intl.DateTimeFormat;
}

// Building an Intl.DateTimeFormat costs far more than formatting with one: build each once.
const formats = new Map<Language, DateFormats>();

function formatsFor(language: Language): DateFormats {
  let found = formats.get(language);
  if (!found) {
    const locale = language in LABELS ? language : 'en';
    const base = { timeZone: 'UTC' } as const;
    found = {
      day: new Intl.DateTimeFormat(locale, { ...base, day: 'numeric', month: 'long', year: 'numeric' }),
      time: new Intl.DateTimeFormat(locale, { ...base, hour: 'numeric', minute: '2-digit' }),
      timeWithZone: new Intl.DateTimeFormat(locale, { ...base, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
    };
    formats.set(language, found);
  }
  return found;
}

// ICU versions disagree on narrow and no-break spaces ("10:00 AM"): plain spaces keep output stable.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** Parses an ISO 8601 string; undefined for anything else or an invalid date. */
export function parseDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `November 22, 2026, 10:00 AM UTC` / `22 novembre 2026, 10:00 UTC`. */
export function formatDateTime(date: Date, language: Language): string {
  const f = formatsFor(language);
  return plain(`${f.day.format(date)}, ${f.timeWithZone.format(date)}`);
}

/** A start and optional end; the day is written once when both fall on the same UTC day. */
export function formatDateRange(start: Date, end: Date | undefined, language: Language): string {
  if (!end || end.getTime() === start.getTime()) return formatDateTime(start, language);
  const f = formatsFor(language);
  const day = f.day.format(start);
  if (day === f.day.format(end)) {
    return plain(`${day}, ${f.time.format(start)} – ${f.timeWithZone.format(end)}`);
  }
  return `${formatDateTime(start, language)} – ${formatDateTime(end, language)}`;
}
