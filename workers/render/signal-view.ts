// What a chat message or a card says about one signal, before any format-specific escaping.
import type { Language, WebhookEnvelope } from '../../core/webhooks/contract.ts';
import type { SignalFieldName } from '../../core/webhooks/signal-types.ts';
import { formatDateRange, formatDateTime, labelsFor, parseDate } from './i18n.ts';

/** Longest title shown, in characters; longer ones end with an ellipsis. */
export const MAX_TITLE_LENGTH = 150;
/** Most expertise items listed; the rest are counted (`+3 more`). */
export const MAX_EXPERTISE = 10;
const MAX_ITEM_LENGTH = 50;
const MAX_PLACE_PART_LENGTH = 80;
const MAX_URL_LENGTH = 2000;

export interface Fact {
  label: string;
  value: string;
}

/**
 * A rendered signal in one language. Strings are plain text, truncated, not yet escaped:
 * every renderer escapes or strips them for its own format.
 */
export interface SignalView {
  heading: string;
  title: string | undefined;
  facts: Fact[];
  /** Platform-written remarks, e.g. "Remote possible". */
  notes: string[];
  /** The need or event page: an http(s) URL, or undefined when the data has none. */
  url: string | undefined;
  openLabel: string;
  /** Between a label and its value in this language. */
  colon: string;
}

/** What the view reads of an envelope's data: the declared fields (core/visibility.ts), each of any JSON type. */
export type SignalViewInput = { readonly [K in SignalFieldName]?: unknown };

/** Reads an envelope's data defensively: unknown keys are ignored, wrong types skipped. */
export function signalView(envelope: WebhookEnvelope, language: Language): SignalView {
  const labels = labelsFor(language);
  const data: SignalViewInput = envelope.data ?? {};
  const facts: Fact[] = [];
  const notes: string[] = [];
  const kind = String(envelope.type);

  if (kind === 'need.created' || kind === 'need.updated') {
    const expertise = listOf(data.required_expertise);
    if (expertise.length > 0) facts.push({ label: labels.expertise, value: cappedList(expertise, labels.more) });
    if (data.remote_allowed === true) notes.push(labels.remotePossible);
  } else if (kind === 'event.created' || kind === 'event.updated') {
    const start = parseDate(data.starts_at);
    if (start) facts.push({ label: labels.date, value: formatDateRange(start, parseDate(data.ends_at), language) });
    const place = placeOf(data.place);
    if (place) facts.push({ label: labels.place, value: place });
    else if (data.online === true) facts.push({ label: labels.place, value: labels.online });
  } else {
    const at = parseDate(data.withdrawn_at ?? data.cancelled_at);
    if (at) facts.push({ label: labels.date, value: formatDateTime(at, language) });
  }

  const title = typeof data.title === 'string' ? truncate(singleLine(data.title), MAX_TITLE_LENGTH) : undefined;
  return {
    heading: labels.headings[kind] ?? kind,
    title: title === '' ? undefined : title,
    facts,
    notes,
    url: httpUrl(data.url),
    openLabel: labels.open,
    colon: labels.colon,
  };
}

/** Cuts `text` to `max` characters (code points, so no emoji is split), ending with "…". */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

const singleLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function listOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is string => typeof item === 'string')
    .map((item) => truncate(singleLine(item), MAX_ITEM_LENGTH))
    .filter((item) => item !== '');
}

function cappedList(items: string[], more: (count: number) => string): string {
  const shown = items.slice(0, MAX_EXPERTISE).join(', ');
  return items.length > MAX_EXPERTISE ? `${shown} ${more(items.length - MAX_EXPERTISE)}` : shown;
}

function placeOf(value: unknown): string | undefined {
  if (typeof value === 'string') return truncate(singleLine(value), MAX_PLACE_PART_LENGTH * 3) || undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const place = value as Record<string, unknown>;
  const parts = [place.city, place.region, place.country]
    .filter((part): part is string => typeof part === 'string')
    .map((part) => truncate(singleLine(part), MAX_PLACE_PART_LENGTH))
    .filter((part) => part !== '');
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
