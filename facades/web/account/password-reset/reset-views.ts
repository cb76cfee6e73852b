import { PASSWORD_MIN, PASSWORD_RESET_PATH } from '../../../../core/index.ts';
import { errorSummary, fieldAttrs, fieldError, fieldValue, type FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';
import { LOGIN_PATH } from '../../../kit/page-support.ts';

// The pages of a forgotten password: ask for a link, choose a new password, done. Views only.

export const FORGOT_PATH = `${PASSWORD_RESET_PATH}/request`;
export const RESET_DONE_PATH = `${PASSWORD_RESET_PATH}/done`;

export const SENT =
  'If an account exists for that address, we sent a link to it. It works once, for 30 minutes. Check your spam folder if nothing arrives.';

const FORGOT_LABELS = { email: 'Email' };
const RESET_LABELS = { new_password: 'New password', confirm_password: 'New password again' };

/** "Forgot password?": the address to send a link to, or what was sent. */
export function forgotView(csrf: string, state: FormState, sent: boolean): Html {
  return html`${sent ? html`<p class="note" role="status">${SENT}</p>` : ''}${errorSummary(state, FORGOT_LABELS)}
<p>Enter the email you sign in with. We send a link to choose a new password.</p>
<form method="post" action="${FORGOT_PATH}" novalidate>
<input type="hidden" name="csrf" value="${csrf}">
<label for="f-email">Email</label>${fieldError(state, 'email')}
<input type="email" name="email" autocomplete="username" required value="${fieldValue(state, 'email')}"${fieldAttrs(state, 'email')}>
<button type="submit" class="primary">Send the link</button>
</form>
<p><a href="${LOGIN_PATH}">Back to sign-in</a></p>`;
}

/** The page a reset link opens: the new password, twice. */
export function resetView(token: string, email: string, state: FormState): Html {
  return html`${errorSummary(state, RESET_LABELS)}
<p>Choose a new password for <strong>${email}</strong>. Every session of your account ends and every connected application is disconnected.</p>
<form method="post" action="${PASSWORD_RESET_PATH}" novalidate>
<input type="hidden" name="token" value="${token}">
<label for="f-new_password">New password</label>${fieldError(state, 'new_password')}
<input type="password" name="new_password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required\
${fieldAttrs(state, 'new_password', 'new-password-rule')}>
<p id="new-password-rule" class="note">At least ${PASSWORD_MIN} characters.</p>
<label for="f-confirm_password">New password again</label>${fieldError(state, 'confirm_password')}
<input type="password" name="confirm_password" autocomplete="new-password" required${fieldAttrs(state, 'confirm_password')}>
<button type="submit" class="primary">Set the new password</button>
</form>`;
}

export const unusableView = (message: string): Html =>
  html`<p class="error" role="alert">${message}.</p><p><a class="button" href="${FORGOT_PATH}">Ask for a new link</a> <a href="${LOGIN_PATH}">Sign in</a></p>`;

export const doneView = (): Html =>
  html`<p class="note" role="status">Your password is changed. Every session of your account has ended and every connected application was disconnected.</p>
<p><a class="button" href="${LOGIN_PATH}">Sign in</a></p>`;
