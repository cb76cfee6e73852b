import { INVITATION_PATH, PASSWORD_MIN } from '../../../../core/index.ts';
import type { AccountInvitationViewFragment } from '../../../generated/web-account.ts';
import { errorSummary, fieldAttrs, fieldError, fieldValue, type FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';
import { LOGIN_PATH, SETTINGS_PATH, SIGN_OUT_PATH } from '../../../kit/page-support.ts';

// The page an invitation link opens: join when signed in with the invited email, sign in when an
// account has it, otherwise create an account. Views only.

export const CREATE_PATH = `${INVITATION_PATH}/create`;
export const JOINED_PATH = `${INVITATION_PATH}/joined`;

type Invitation = AccountInvitationViewFragment;

const CREATE_LABELS = { name: 'Your name', password: 'Password', confirm_password: 'Password again' };
const as = (role: string) => (role === 'admin' ? 'an admin' : 'a member');

export const invitationUrl = (token: string) => `${INVITATION_PATH}?token=${encodeURIComponent(token)}`;

export const invitationTitle = (invitation: Invitation) => `Join ${invitation.organizationName}`;

const about = (i: Invitation) =>
  html`<p>You are invited to join <strong>${i.organizationName}</strong> on Packline as ${as(i.role)}, with the email <strong>${i.email}</strong>.</p>`;

/** Signed in with the invited email: one button. */
export function joinView(invitation: Invitation, token: string, csrf: string): Html {
  return html`${about(invitation)}
<form method="post" action="${INVITATION_PATH}"><input type="hidden" name="token" value="${token}"><input type="hidden" name="csrf" value="${csrf}">
<button type="submit" class="primary">Join ${invitation.organizationName}</button></form>`;
}

/** Signed in as someone else. */
export const otherAccountView = (invitation: Invitation, email: string): Html =>
  html`${about(invitation)}<p class="error" role="alert">You are signed in as ${email}. \
To accept, <a href="${SIGN_OUT_PATH}">sign out</a>, then open the invitation link again and sign in as ${invitation.email}.</p>`;

/** An account has the invited email: sign in, then back here. */
export const signInView = (invitation: Invitation, token: string): Html =>
  html`${about(invitation)}<p>An account with this email exists. Sign in to join.</p>
<p><a class="button" href="${LOGIN_PATH}?return_to=${encodeURIComponent(invitationUrl(token))}">Sign in to join</a></p>`;

/** A new person: their name and a password. */
export function createView(invitation: Invitation, token: string, state: FormState): Html {
  return html`${errorSummary(state, CREATE_LABELS)}${about(invitation)}
<p>Create your account to join.</p>
<form method="post" action="${CREATE_PATH}" novalidate>
<input type="hidden" name="token" value="${token}">
<label for="f-name">Your name</label>${fieldError(state, 'name')}
<input type="text" name="name" autocomplete="name" required value="${fieldValue(state, 'name')}"${fieldAttrs(state, 'name')}>
<label for="f-password">Password</label>${fieldError(state, 'password')}
<input type="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required${fieldAttrs(state, 'password', 'password-rule')}>
<p id="password-rule" class="note">At least ${PASSWORD_MIN} characters.</p>
<label for="f-confirm_password">Password again</label>${fieldError(state, 'confirm_password')}
<input type="password" name="confirm_password" autocomplete="new-password" required${fieldAttrs(state, 'confirm_password')}>
<button type="submit" class="primary">Create my account and join</button>
</form>`;
}

export const unusableInvitationView = (message: string): Html =>
  html`<p class="error" role="alert">${message}.</p><p>Ask an admin of the organization to invite you again.</p>`;

export const joinedView = (admin: boolean): Html =>
  html`<p class="note" role="status">You joined the organization${admin ? ' as an admin' : ''}.</p>
<p>${admin ? html`<a class="button" href="/admin">Administration</a> ` : ''}<a class="button" href="${SETTINGS_PATH}">Your account</a></p>`;
