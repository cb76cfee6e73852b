import { invalidInput } from './errors.ts';

// Input checks shared by the services. Each names the field at fault so every facade can
// point the user at it (a REST parameter, a GraphQL input field, a CLI flag). The refusals name
// the field, for API callers; a service whose values people type passes its own `words`.

/** Control characters other than tab and line breaks: never valid in stored text. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** What a check refuses a value for. */
export type Problem = 'control' | 'empty' | 'short' | 'long' | 'notUrl' | 'notHttp' | 'entryLong' | 'tooMany' | 'notCountry';

/** A refusal's sentence for people, by problem, in place of the field-named default. */
export type Words = Partial<Record<Problem, string>>;

const refuse = (field: string, words: Words | undefined, problem: Problem, fallback: string) =>
  invalidInput(field, words?.[problem] ?? fallback);

export function text(field: string, value: string, { min = 1, max, words }: { min?: number; max: number; words?: Words }): string {
  if (CONTROL.test(value)) throw refuse(field, words, 'control', `${field} must not contain control characters`);
  const v = value.trim();
  if (v.length < min) {
    throw min === 1
      ? refuse(field, words, 'empty', `${field} must not be empty`)
      : refuse(field, words, 'short', `${field} needs at least ${min} characters`);
  }
  if (v.length > max) throw refuse(field, words, 'long', `${field} must be at most ${max} characters`);
  return v;
}

export function optionalText(field: string, value: string | null | undefined, max: number, words?: Words): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return text(field, value, { max, words });
}

export function list(
  field: string,
  values: readonly string[],
  { maxItems, maxLength, words }: { maxItems: number; maxLength: number; words?: Words },
): string[] {
  const out: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (v === '') continue;
    if (CONTROL.test(v)) throw refuse(field, words, 'control', `${field} must not contain control characters`);
    if (v.length > maxLength) throw refuse(field, words, 'entryLong', `each ${field} entry must be at most ${maxLength} characters`);
    if (!out.some((x) => x.toLowerCase() === v.toLowerCase())) out.push(v);
  }
  if (out.length > maxItems) throw refuse(field, words, 'tooMany', `${field} takes at most ${maxItems} entries`);
  return out;
}

export function httpUrl(field: string, value: string | null | undefined, words?: Words): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = value.trim();
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw refuse(field, words, 'notUrl', `${field} must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(field, words, 'notHttp', `${field} must be an http(s) URL`);
  if (v.length > 500) throw refuse(field, words, 'long', `${field} must be at most 500 characters`);
  return v;
}

export function country(field: string, value: string | null | undefined, words?: Words): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(v)) throw refuse(field, words, 'notCountry', `${field} must be a two-letter ISO 3166 country code`);
  return v;
}

export function date(field: string, value: Date): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw invalidInput(field, `${field} must be a valid date`);
  return value;
}

export function timezone(field: string, value: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    throw invalidInput(field, `${field} must be an IANA time zone such as Europe/Paris`);
  }
  return value;
}
