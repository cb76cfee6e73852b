import { checkFields, hasControl, textOf, type FieldErrors } from '../../../kit/forms.ts';
import { newPassword, sameAs } from '../password-form-check.ts';

// The new account an invitation opens, checked as a whole before the service sees it, each
// mistake worded for the person joining.

export const JOIN_FIELDS = ['name', 'password', 'confirm_password'] as const;

/** The service's refusals by field, as the page words them. */
export const JOIN_WORDS: Record<string, string> = {
  name: 'Enter your name, in 200 characters or fewer.',
  password: 'This password cannot be used. Choose another one.',
};

function name(value: string | string[] | undefined): string | undefined {
  const text = textOf(value).trim();
  if (text === '') return 'Enter your name.';
  if (hasControl(text)) return 'Remove the control characters from your name.';
  if (text.length > 200) return `Keep your name to 200 characters or fewer (it has ${text.length}).`;
  return undefined;
}

/** Every mistake of the new account's form, by field. */
export const checkJoinForm = (values: Record<string, string | string[]>): FieldErrors =>
  checkFields(values, { name, password: newPassword('password'), confirm_password: sameAs(values.password) });
