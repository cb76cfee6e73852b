import { html, type Html } from '../../../kit/html.ts';
import { ABILITIES, LOGIN_PATH, NEVER } from '../../../kit/page-support.ts';
import { FORGOT_PATH } from '../password-reset/reset-views.ts';

// The sign-in and consent pages' markup, nothing else: the routes in oauth-routes.ts decide
// which page to show and fill in its values.

const ASKS = 'asks to connect to your Packline account.';
const ASKING_NEXT = 'Sign in to see what it asks for; nothing is shared before you accept.';
const PASSWORD_INPUT = html`type="password" name="password" autocomplete="current-password" required`;
const RECORDED = 'Everything it does is recorded in your account settings, where you can disconnect it at any time.';

export interface LoginView {
  /** The application whose consent page follows the sign-in, when there is one. */
  app: string | undefined;
  returnTo: string;
  csrf: string;
  email?: string | undefined;
  error?: string | undefined;
  notice?: string | undefined;
}

export function loginView({ app, returnTo, csrf, email = '', error, notice }: LoginView): Html {
  const intro = app
    ? html`<p>The application <strong>“${app}”</strong> ${ASKS} ${ASKING_NEXT}</p>`
    : html`<p>Sign in with your Packline member account.</p>`;
  const described = error ? html` aria-describedby="login-error"` : '';
  const notes = `password-rule${error ? ' login-error' : ''}`;
  const invalid = error ? html` aria-invalid="true"` : '';
  return html`
${intro}
${notice ? html`<p class="note" role="status">${notice}</p>` : ''}
${error ? html`<p class="error" role="alert" id="login-error">${error}</p>` : ''}
<form method="post" action="${LOGIN_PATH}">
<input type="hidden" name="return_to" value="${returnTo}">
<input type="hidden" name="csrf" value="${csrf}">
<label>Email <input type="email" name="email" autocomplete="username" required value="${email}"${described}></label>
<label>Password <input ${PASSWORD_INPUT} aria-describedby="${notes}"${invalid}></label>
<p id="password-rule" class="note">Your password has at least 10 characters.</p>
<button type="submit" class="primary">Sign in</button>
</form>
<p><a href="${FORGOT_PATH}">Forgot password?</a></p>`;
}

export interface ConsentView {
  app: string;
  account: { name: string; email: string };
  redirectUri: string;
  scopes: string[];
  /** The sealed authorization request the form sends back. */
  sealed: string;
  csrf: string;
  action: string;
}

export function consentView({ app, account, redirectUri, scopes, sealed, csrf, action }: ConsentView): Html {
  return html`
<p>An application that calls itself <strong>“${app}”</strong> asks to act for you, ${you(account)}.</p>
<p>After you answer, you will be sent to this address:<br><code>${redirectUri}</code><br>
<span class="note">Only continue if you started this from that application.</span></p>
<h2>It will be able to</h2>
<ul>${scopes.map((s) => html`<li>${ABILITIES[s] ?? s}</li>`)}</ul>
<p>${NEVER} ${RECORDED}</p>
<form method="post" action="${action}">
<input type="hidden" name="request" value="${sealed}">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" name="decision" value="accept" class="primary">Accept</button>
<button type="submit" name="decision" value="refuse">Refuse</button>
</form>`;
}

const you = (account: { name: string; email: string }) => html`<strong>${account.name}</strong> (${account.email})`;

export const EXPIRED_TITLE = 'This request has expired';

export function expiredView(): Html {
  return html`<p>The authorization request is invalid or too old. Go back to the application and connect again.</p>`;
}
