import { invalidInput } from './errors.ts';

// Input checks shared by the services. Each names the field at fault so every facade can
// point the user at it (a REST parameter, a GraphQL input field, a CLI flag).

/** Control characters other than tab and line breaks: never valid in stored text. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function text(field: string, value: string, { min = 1, max }: { min?: number; max: number }): string {
  if (CONTROL.test(value)) throw invalidInput(field, `${field} must not contain control characters`);
  const v = value.trim();
  if (v.length < min) throw invalidInput(field, min === 1 ? `${field} must not be empty` : `${field} needs at least ${min} characters`);
  if (v.length > max) throw invalidInput(field, `${field} must be at most ${max} characters`);
  return v;
}

export function optionalText(field: string, value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return text(field, value, { max });
}

export function list(field: string, values: readonly string[], { maxItems, maxLength }: { maxItems: number; maxLength: number }): string[] {
  const out: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (v === '') continue;
    if (CONTROL.test(v)) throw invalidInput(field, `${field} must not contain control characters`);
    if (v.length > maxLength) throw invalidInput(field, `each ${field} entry must be at most ${maxLength} characters`);
    if (!out.some((x) => x.toLowerCase() === v.toLowerCase())) out.push(v);
  }
  if (out.length > maxItems) throw invalidInput(field, `${field} takes at most ${maxItems} entries`);
  return out;
}

export function httpUrl(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = value.trim();
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw invalidInput(field, `${field} must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput(field, `${field} must be an http(s) URL`);
  if (v.length > 500) throw invalidInput(field, `${field} must be at most 500 characters`);
  return v;
}

export function country(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(v)) throw invalidInput(field, `${field} must be a two-letter ISO 3166 country code`);
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
