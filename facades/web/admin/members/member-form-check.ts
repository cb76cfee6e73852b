import { ROLES } from '../../../../core/index.ts';
import { checkFields, hasControl, textOf, type FieldErrors } from '../../../kit/forms.ts';

// The member forms checked as a whole before the service sees them, each mistake worded for the
// admin; what only the service can tell (already a member, the last admin) it still refuses.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The service's refusals by the form's field, as the page words them. */
export const INVITE_WORDS: Record<string, string> = {
  email: 'Enter an email address, like name@example.org.',
  role: 'Choose a role: Admin or Member.',
};

function email(value: string | string[] | undefined): string | undefined {
  const text = textOf(value).trim();
  if (text === '') return 'Enter the email address of the person to invite, like name@example.org.';
  if (hasControl(text) || text.length > 320 || !EMAIL.test(text)) return INVITE_WORDS.email;
  return undefined;
}

/** A role the organization knows, or the sentence asking for one. */
export const roleProblem = (value: string | string[] | undefined): string | undefined =>
  (ROLES as readonly string[]).includes(textOf(value)) ? undefined : INVITE_WORDS.role;

/** Every mistake of the invitation form, by field. */
export const checkInviteForm = (values: Record<string, string | string[]>): FieldErrors =>
  checkFields(values, { email, role: roleProblem });
