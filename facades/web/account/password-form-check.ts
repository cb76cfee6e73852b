import { PASSWORD_MAX, PASSWORD_MIN } from '../../../core/index.ts';
import { checkFields, textOf, type FieldErrors } from '../../kit/forms.ts';

// The password-change form checked as a whole before the current password is, each mistake
// worded for the member. Neither password is ever written back into the page.

export const PASSWORD_LABELS: Record<string, string> = { current_password: 'Current password', new_password: 'New password' };

/** The service's refusals by field, as the page words them. */
export const PASSWORD_WORDS: Record<string, string> = {
  current_password: 'The current password is not right. Nothing changed.',
  new_password: `The new password needs at least ${PASSWORD_MIN} characters. Nothing changed.`,
};

const CONTROL = /[\u0000-\u001f\u007f]/;

function current(value: string | string[] | undefined): string | undefined {
  return textOf(value) === '' ? 'Enter your current password.' : undefined;
}

function next(value: string | string[] | undefined): string | undefined {
  const text = textOf(value);
  if (text.length < PASSWORD_MIN) return `Choose a new password of at least ${PASSWORD_MIN} characters.`;
  if (text.length > PASSWORD_MAX) return `Keep the new password to ${PASSWORD_MAX} characters or fewer.`;
  if (CONTROL.test(text)) return 'Use letters, digits, spaces and symbols only in the new password: no control characters.';
  return undefined;
}

/** Every mistake of the password-change form, by field. */
export const checkPasswordForm = (values: Record<string, string | string[]>): FieldErrors =>
  checkFields(values, { current_password: current, new_password: next });
