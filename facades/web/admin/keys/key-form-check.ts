import { API_SCOPES } from '../../../../core/index.ts';
import { checkFields, hasControl, textOf, type FieldErrors } from '../../../kit/forms.ts';

// The key form checked as a whole before the service sees it, each mistake worded for the admin.

const DAY_MS = 86_400_000;
/** The service's longest lifetime, two years (leap days included). */
const LATEST_MS = 2 * 366 * DAY_MS;

/** The service's refusals by the form's field, as the page words them. */
export const PLAIN_WORDS: Record<string, string> = {
  name: 'Enter a name of at most 100 characters, such as the system that uses the key.',
  scopes: 'Choose at least one scope.',
  expires_on: 'Choose an expiry date between tomorrow and two years from now.',
};

/** The end (UTC) of the day `YYYY-MM-DD`, or null when it is not a calendar date. */
export function endOfDay(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const end = new Date(`${day}T23:59:59Z`);
  return Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== day ? null : `${day}T23:59:59Z`;
}

function expiresOn(value: string | string[] | undefined): string | undefined {
  const end = endOfDay(textOf(value).trim());
  if (!end) return 'Choose the expiry date as a calendar date, such as 2030-01-31.';
  const left = Date.parse(end) - Date.now();
  if (left <= 0) return 'Choose an expiry date after today.';
  if (left > LATEST_MS) return 'Choose an expiry date within two years.';
  return undefined;
}

function name(value: string | string[] | undefined): string | undefined {
  const text = textOf(value).trim();
  if (text === '') return 'Enter a name for the key, such as the system that uses it.';
  if (hasControl(text)) return 'Remove the control characters from the name.';
  if (text.length > 100) return `Keep the name to 100 characters or fewer (it has ${text.length}).`;
  return undefined;
}

function scopes(value: string | string[] | undefined): string | undefined {
  const chosen = ([] as string[]).concat(value ?? []);
  if (chosen.length === 0) return PLAIN_WORDS.scopes;
  return chosen.every((s) => (API_SCOPES as readonly string[]).includes(s)) ? undefined : 'Choose scopes from the list.';
}

/** Every mistake of the key form, by field. */
export const checkKeyForm = (values: Record<string, string | string[]>): FieldErrors =>
  checkFields(values, { name, scopes, expires_on: expiresOn });
