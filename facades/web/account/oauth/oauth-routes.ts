import type { Request, Response, Router } from 'express';
import { hasControlCharacters } from '../../../../core/index.ts';
import { LOGIN_COOKIE, SESSION_COOKIE } from '../../../kit/browser.ts';
import { sendHtml, seeOther } from '../../../kit/html.ts';
import { RESUME_PARAM } from '../../../kit/resume.ts';
import { CONSENT_PATH, type PendingConsent } from '../../../kit/consent-handoff.ts';
import {
  ABILITIES,
  clientAddress,
  field,
  LOGIN_PATH,
  refuseForm,
  requestIdOf,
  runAs,
  safeReturn,
  signedIn,
  siteHeader,
  toLogin,
  type PageDeps,
} from '../../../kit/page-support.ts';
import { consentView, EXPIRED_TITLE, expiredView, loginView } from './oauth-views.ts';

const LOGIN_COOKIE_SECONDS = 1_800;
const SESSION_ENDED = 'Your session ended; sign in again to continue. What you typed is kept, except passwords.';
const CONTROL_CHARACTERS = 'Your email address and password must not contain control characters (such as a null byte). Type them again.';

/** The sign-in page and the consent page: what the member sees between /authorize and the redirect. */
export function mountOAuthPages(router: Router, deps: PageDeps): void {
  router.get(LOGIN_PATH, (req: Request, res: Response) => showLogin(deps, req, res));
  router.post(LOGIN_PATH, (req: Request, res: Response) => signIn(deps, req, res));
  router.get(CONSENT_PATH, (req: Request, res: Response) => showConsent(deps, req, res));
  router.post(CONSENT_PATH, (req: Request, res: Response) => answerConsent(deps, req, res));
}

async function showLogin(deps: PageDeps, req: Request, res: Response): Promise<void> {
  const requestId = requestIdOf(res);
  const returnTo = safeReturn(req.query.return_to, deps.browser.origin);
  if (await signedIn(deps, req)) return seeOther(res, returnTo, requestId);
  const secret = deps.browser.read(req, LOGIN_COOKIE) ?? deps.browser.newLoginSecret();
  const ended = new URL(returnTo, deps.browser.origin).searchParams.has(RESUME_PARAM);
  const notice = req.query.done === 'signed_out_everywhere' ? 'You are signed out everywhere.' : ended ? SESSION_ENDED : undefined;
  await loginPage(deps, res, { returnTo, secret, notice });
}

async function signIn(deps: PageDeps, req: Request, res: Response): Promise<void> {
  const requestId = requestIdOf(res);
  const returnTo = safeReturn(field(req, 'return_to'), deps.browser.origin);
  const secret = deps.browser.read(req, LOGIN_COOKIE);
  if (!secret || !deps.browser.sameOrigin(req) || !deps.browser.checkCsrf(secret, 'login', field(req, 'csrf')))
    return refuseForm(res, requestId, LOGIN_PATH);
  const typed = field(req, 'email') ?? '';
  const email = typed.trim().toLowerCase().slice(0, 320);
  const password = field(req, 'password') ?? '';
  // Nothing is checked, so nothing is spent: no address or password holds a control character.
  if (hasControlCharacters(typed) || hasControlCharacters(password)) {
    return loginPage(deps, res, { returnTo, secret, error: CONTROL_CHARACTERS, status: 400 });
  }
  // Spent before the password is checked: parallel guesses cannot outrun the count.
  const address = clientAddress(deps, req);
  const attempt = await deps.signInLimits.attempt(address, email);
  if (!attempt.allowed) {
    const error = `Too many sign-in attempts. Try again in ${Math.ceil(attempt.retryAfter / 60)} minute(s).`;
    return loginPage(deps, res, { returnTo, secret, email, error, status: 429, retryAfter: attempt.retryAfter });
  }
  const outcome = await runAs(deps, 'internal', 'AccountSignIn', { email, password });
  if (!outcome.ok) {
    if (outcome.error.code !== 'forbidden' && outcome.error.code !== 'invalid_input') throw outcome.error;
    return loginPage(deps, res, { returnTo, secret, email, error: 'Wrong email or password.', status: 401 });
  }
  await deps.signInLimits.succeeded(address, email);
  const { token, expiresAt } = outcome.data.signInMember;
  seeOther(res, returnTo, requestId, [
    deps.browser.cookie(SESSION_COOKIE, token, { maxAgeSeconds: (Date.parse(expiresAt) - Date.now()) / 1000 }),
    deps.browser.cookie(LOGIN_COOKIE, '', { maxAgeSeconds: 0, path: LOGIN_PATH }),
  ]);
}

interface LoginPage {
  returnTo: string;
  secret: string;
  email?: string;
  error?: string;
  notice?: string | undefined;
  status?: number;
  retryAfter?: number;
}

async function loginPage(deps: PageDeps, res: Response, page: LoginPage): Promise<void> {
  const { browser } = deps;
  const app = await askingApplication(deps, page.returnTo);
  const body = loginView({ ...page, app, csrf: browser.csrf(page.secret, 'login') });
  const cookie = browser.cookie(LOGIN_COOKIE, page.secret, { maxAgeSeconds: LOGIN_COOKIE_SECONDS, path: LOGIN_PATH });
  const headers = { 'set-cookie': cookie, ...(page.retryAfter ? { 'retry-after': String(page.retryAfter) } : {}) };
  sendHtml(res, requestIdOf(res), 'Sign in to Packline', body, { status: page.status ?? 200, headers, header: siteHeader(null) });
}

/** The name of the application asking, when the sign-in leads on to its consent page. */
async function askingApplication(deps: PageDeps, returnTo: string): Promise<string | undefined> {
  if (!returnTo.startsWith(`${CONSENT_PATH}?`)) return undefined;
  const sealed = new URLSearchParams(returnTo.slice(CONSENT_PATH.length + 1)).get('request') ?? undefined;
  const pending = deps.browser.unseal<PendingConsent>(sealed);
  if (!pending) return undefined;
  const outcome = await runAs(deps, 'internal', 'AccountApplicationName', { clientId: pending.clientId });
  return outcome.ok ? outcome.data.assistantApplication.name : undefined;
}

async function showConsent(deps: PageDeps, req: Request, res: Response): Promise<void> {
  const requestId = requestIdOf(res);
  const sealed = typeof req.query.request === 'string' ? req.query.request : undefined;
  const pending = deps.browser.unseal<PendingConsent>(sealed);
  if (!pending || !sealed) return expired(res, requestId);
  const session = await signedIn(deps, req);
  if (!session) return toLogin(res, consentAgain(sealed), requestId);
  const outcome = await runAs(deps, session, 'AccountConsent', { clientId: pending.clientId });
  if (!outcome.ok) {
    if (outcome.error.code === 'not_found') return expired(res, requestId);
    throw outcome.error;
  }
  const { account, assistantApplication: app } = outcome.data;
  const body = consentView({
    app: app.name,
    account,
    redirectUri: pending.redirectUri,
    scopes: pending.scopes.length > 0 ? pending.scopes : Object.keys(ABILITIES),
    sealed,
    csrf: deps.browser.csrf(session.token, `consent\n${sealed}`),
    action: CONSENT_PATH,
  });
  sendHtml(res, requestId, `Connect “${app.name}” to your account?`, body, {
    formAction: [redirectSource(pending.redirectUri)],
    header: siteHeader(account),
  });
}

async function answerConsent(deps: PageDeps, req: Request, res: Response): Promise<void> {
  const requestId = requestIdOf(res);
  const sealed = field(req, 'request');
  const pending = deps.browser.unseal<PendingConsent>(sealed);
  if (!pending || !sealed) return expired(res, requestId);
  const session = await signedIn(deps, req);
  if (!session) return toLogin(res, consentAgain(sealed), requestId);
  if (!deps.browser.sameOrigin(req) || !deps.browser.checkCsrf(session.token, `consent\n${sealed}`, field(req, 'csrf')))
    return refuseForm(res, requestId, consentAgain(sealed));
  const back = new URL(pending.redirectUri);
  if (field(req, 'decision') !== 'accept') {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'The member refused access');
  } else {
    const { clientId, redirectUri, scopes, codeChallenge, resource } = pending;
    const input = { clientId, redirectUri, scopes, codeChallenge, resource };
    const outcome = await runAs(deps, session, 'AccountAuthorize', { input });
    if (!outcome.ok) {
      if (outcome.error.code === 'not_found' || outcome.error.code === 'invalid_input') return expired(res, requestId);
      throw outcome.error;
    }
    back.searchParams.set('code', outcome.data.authorizeAssistantApplication.code);
  }
  if (pending.state !== undefined) back.searchParams.set('state', pending.state);
  back.searchParams.set('iss', deps.issuer);
  seeOther(res, back.href, requestId);
}

const consentAgain = (sealed: string) => `${CONSENT_PATH}?request=${encodeURIComponent(sealed)}`;

function expired(res: Response, requestId: string): void {
  sendHtml(res, requestId, EXPIRED_TITLE, expiredView(), { status: 400, header: siteHeader(null) });
}

/** The CSP source a consent form may lead to: the redirect's origin, or its app scheme. */
function redirectSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
