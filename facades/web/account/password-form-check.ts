import { PASSWORD_MAX, PASSWORD_MIN } from '../../../core/index.ts';
import { checkFields, textOf, type FieldErrors } from '../../kit/forms.ts';

// The password forms checked as a whole before the service sees them, each mistake worded for the
// person at the keyboard: the password change here; the reset and the invitation's new account
// use its checks of a new password. No password is ever written back into a page.

export const PASSWORD_LABELS: Record<string, string> = { current_password: 'Current password', new_password: 'New password' };

/** The service's refusals by field, as the page words them. */
export const PASSWORD_WORDS: Record<string, string> = {
  current_password: 'The current password is not right. Nothing changed.',
  new_password: `The new password needs at least ${PASSWORD_MIN} characters. Nothing changed.`,
};

const CONTROL = /[\u0000-\u001f\u007f]/;

/** What `value` typed as a new password (`what`: "new password", "password") lacks, for the person choosing it. */
export const newPassword =
  (what: string) =>
  (value: string | string[] | undefined): string | undefined => {
    const text = textOf(value);
    if (text.length < PASSWORD_MIN) return `Choose a ${what} of at least ${PASSWORD_MIN} characters.`;
    if (text.length > PASSWORD_MAX) return `Keep the ${what} to ${PASSWORD_MAX} characters or fewer.`;
    if (CONTROL.test(text)) return `Use letters, digits, spaces and symbols only in the ${what}: no control characters.`;
    return undefined;
  };

/** The password typed again, checked against the first. */
export const sameAs =
  (first: string | string[] | undefined) =>
  (value: string | string[] | undefined): string | undefined =>
    textOf(value) === textOf(first) ? undefined : 'The two passwords differ. Type the same one twice.';

function current(value: string | string[] | undefined): string | undefined {
  return textOf(value) === '' ? 'Enter your current password.' : undefined;
}

/** Every mistake of the password-change form, by field. */
export const checkPasswordForm = (values: Record<string, string | string[]>): FieldErrors =>
  checkFields(values, { current_password: current, new_password: newPassword('new password') });
