import type { Request, Response, Router } from 'express';
import { LOGIN_COOKIE, SESSION_COOKIE } from '../kit/browser.ts';
import { html, sendHtml, seeOther } from '../kit/html.ts';
import { CONSENT_PATH, type PendingConsent } from './consent-handoff.ts';
import { FORGOT_PATH } from './password-reset/reset-views.ts';
import {
  ABILITIES,
  clientAddress,
  field,
  LOGIN_PATH,
  NEVER,
  refuseForm,
  requestIdOf,
  runAs,
  safeReturn,
  signedIn,
  siteHeader,
  toLogin,
  type PageDeps,
} from '../kit/page-support.ts';

const LOGIN_COOKIE_SECONDS = 1_800;

/** The sign-in page and the consent page: what the member sees between /authorize and the redirect. */
export function mountOAuthPages(router: Router, deps: PageDeps): void {
  const { browser, signInLimits } = deps;

  /** The name of the application asking, when the sign-in leads on to its consent page. */
  async function askingApplication(returnTo: string): Promise<string | undefined> {
    if (!returnTo.startsWith(`${CONSENT_PATH}?`)) return undefined;
    const pending = browser.unseal<PendingConsent>(
      new URLSearchParams(returnTo.slice(CONSENT_PATH.length + 1)).get('request') ?? undefined,
    );
    if (!pending) return undefined;
    const outcome = await runAs(deps, 'internal', 'AccountApplicationName', {
      clientId: pending.clientId,
    });
    return outcome.ok ? outcome.data.assistantApplication.name : undefined;
  }

  async function loginForm(
    res: Response,
    requestId: string,
    form: { returnTo: string; secret: string; email?: string; error?: string; notice?: string; status?: number; retryAfter?: number },
  ): Promise<void> {
    const app = await askingApplication(form.returnTo);
    const body = html`
${app ? html`<p>The application <strong>“${app}”</strong> asks to connect to your Packline account. Sign in to see what it asks for; nothing is shared before you accept.</p>` : html`<p>Sign in with your Packline member account.</p>`}
${form.notice ? html`<p class="note" role="status">${form.notice}</p>` : ''}
${form.error ? html`<p class="error" role="alert" id="login-error">${form.error}</p>` : ''}
<form method="post" action="${LOGIN_PATH}">
<input type="hidden" name="return_to" value="${form.returnTo}">
<input type="hidden" name="csrf" value="${browser.csrf(form.secret, 'login')}">
<label>Email <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"${form.error ? html` aria-describedby="login-error"` : ''}></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required aria-describedby="password-rule${form.error ? ' login-error' : ''}"${form.error ? html` aria-invalid="true"` : ''}></label>
<p id="password-rule" class="note">Your password has at least 10 characters.</p>
<button type="submit" class="primary">Sign in</button>
</form>
<p><a href="${FORGOT_PATH}">Forgot password?</a></p>`;
    const cookie = browser.cookie(LOGIN_COOKIE, form.secret, { maxAgeSeconds: LOGIN_COOKIE_SECONDS, path: LOGIN_PATH });
    const headers = { 'set-cookie': cookie, ...(form.retryAfter ? { 'retry-after': String(form.retryAfter) } : {}) };
    sendHtml(res, requestId, 'Sign in to Packline', body, { status: form.status ?? 200, headers, header: siteHeader(null) });
  }

  router.get(LOGIN_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const returnTo = safeReturn(req.query.return_to, browser.origin);
    if (await signedIn(deps, req)) return seeOther(res, returnTo, requestId);
    const secret = browser.read(req, LOGIN_COOKIE) ?? browser.newLoginSecret();
    await loginForm(res, requestId, {
      returnTo,
      secret,
      ...(req.query.done === 'signed_out_everywhere' ? { notice: 'You are signed out everywhere.' } : {}),
    });
  });

  router.post(LOGIN_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const returnTo = safeReturn(field(req, 'return_to'), browser.origin);
    const secret = browser.read(req, LOGIN_COOKIE);
    if (!secret || !browser.sameOrigin(req) || !browser.checkCsrf(secret, 'login', field(req, 'csrf')))
      return refuseForm(res, requestId, LOGIN_PATH);
    const email = (field(req, 'email') ?? '').trim().toLowerCase().slice(0, 320);
    // Spent before the password is checked: parallel guesses cannot outrun the count.
    const address = clientAddress(deps, req);
    const attempt = await signInLimits.attempt(address, email);
    if (!attempt.allowed) {
      const minutes = Math.ceil(attempt.retryAfter / 60);
      return loginForm(res, requestId, {
        returnTo,
        secret,
        email,
        error: `Too many sign-in attempts. Try again in ${minutes} minute(s).`,
        status: 429,
        retryAfter: attempt.retryAfter,
      });
    }
    const outcome = await runAs(deps, 'internal', 'AccountSignIn', {
      email,
      password: field(req, 'password') ?? '',
    });
    if (!outcome.ok) {
      if (outcome.error.code !== 'forbidden' && outcome.error.code !== 'invalid_input') throw outcome.error;
      return loginForm(res, requestId, { returnTo, secret, email, error: 'Wrong email or password.', status: 401 });
    }
    await signInLimits.succeeded(address, email);
    const { token, expiresAt } = outcome.data.signInMember;
    seeOther(res, returnTo, requestId, [
      browser.cookie(SESSION_COOKIE, token, { maxAgeSeconds: (Date.parse(expiresAt) - Date.now()) / 1000 }),
      browser.cookie(LOGIN_COOKIE, '', { maxAgeSeconds: 0, path: LOGIN_PATH }),
    ]);
  });

  router.get(CONSENT_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const sealed = typeof req.query.request === 'string' ? req.query.request : undefined;
    const pending = browser.unseal<PendingConsent>(sealed);
    if (!pending) return expired(res, requestId);
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, `${CONSENT_PATH}?request=${encodeURIComponent(sealed!)}`, requestId);
    const outcome = await runAs(deps, session, 'AccountConsent', { clientId: pending.clientId });
    if (!outcome.ok) {
      if (outcome.error.code === 'not_found') return expired(res, requestId);
      throw outcome.error;
    }
    const { account, assistantApplication: app } = outcome.data;
    const scopes = pending.scopes.length > 0 ? pending.scopes : Object.keys(ABILITIES);
    const body = html`
<p>An application that calls itself <strong>“${app.name}”</strong> asks to act for you, <strong>${account.name}</strong> (${account.email}).</p>
<p>After you answer, you will be sent to this address:<br><code>${pending.redirectUri}</code><br>
<span class="note">Only continue if you started this from that application.</span></p>
<h2>It will be able to</h2>
<ul>${scopes.map((s) => html`<li>${ABILITIES[s] ?? s}</li>`)}</ul>
<p>${NEVER} Everything it does is recorded in your account settings, where you can disconnect it at any time.</p>
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="request" value="${sealed}">
<input type="hidden" name="csrf" value="${browser.csrf(session.token, `consent\n${sealed}`)}">
<button type="submit" name="decision" value="accept" class="primary">Accept</button>
<button type="submit" name="decision" value="refuse">Refuse</button>
</form>`;
    sendHtml(res, requestId, `Connect “${app.name}” to your account?`, body, {
      formAction: [redirectSource(pending.redirectUri)],
      header: siteHeader(account),
    });
  });

  router.post(CONSENT_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const sealed = field(req, 'request');
    const pending = browser.unseal<PendingConsent>(sealed);
    if (!pending) return expired(res, requestId);
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, `${CONSENT_PATH}?request=${encodeURIComponent(sealed!)}`, requestId);
    if (!browser.sameOrigin(req) || !browser.checkCsrf(session.token, `consent\n${sealed}`, field(req, 'csrf'))) {
      return refuseForm(res, requestId, `${CONSENT_PATH}?request=${encodeURIComponent(sealed!)}`);
    }
    const back = new URL(pending.redirectUri);
    if (field(req, 'decision') !== 'accept') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The member refused access');
    } else {
      const outcome = await runAs(deps, session, 'AccountAuthorize', {
        input: {
          clientId: pending.clientId,
          redirectUri: pending.redirectUri,
          scopes: pending.scopes,
          codeChallenge: pending.codeChallenge,
          resource: pending.resource,
        },
      });
      if (!outcome.ok) {
        if (outcome.error.code === 'not_found' || outcome.error.code === 'invalid_input') return expired(res, requestId);
        throw outcome.error;
      }
      back.searchParams.set('code', outcome.data.authorizeAssistantApplication.code);
    }
    if (pending.state !== undefined) back.searchParams.set('state', pending.state);
    back.searchParams.set('iss', deps.issuer);
    seeOther(res, back.href, requestId);
  });
}

function expired(res: Response, requestId: string): void {
  sendHtml(
    res,
    requestId,
    'This request has expired',
    html`<p>The authorization request is invalid or too old. Go back to the application and connect again.</p>`,
    { status: 400, header: siteHeader(null) },
  );
}

/** The CSP source a consent form may lead to: the redirect's origin, or its app scheme. */
function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
