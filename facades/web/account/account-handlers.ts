import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../../kit/browser.ts';
import { html, sendHtml, seeOther } from '../../kit/html.ts';
import {
  clientAddress,
  failurePage,
  field,
  LOGIN_PATH,
  pathParam,
  refuseForm,
  requestIdOf,
  runAs,
  SETTINGS_PATH,
  signedIn,
  siteHeader,
  toLogin,
  tooManyAttempts,
  type PageDeps,
  type SignedIn,
} from '../../kit/page-support.ts';
import { freshForm, refusedAll, refusedStatus, sentValues, type FormState } from '../../kit/forms.ts';
import { checkPasswordForm, PASSWORD_WORDS } from './password-form-check.ts';
import { revokeForm, settingsView, signOutView, type SignOut } from './account-views.ts';
import { discardForm, needPath, needReviewView, publishForm } from './need-review-view.ts';

// The account pages' handlers: each reads its request, runs one operation and hands a view its data.

type Handler = (req: Request, res: Response) => Promise<void>;

const DONE: Record<string, string> = {
  revoked: 'The application was disconnected. Its next call will be refused.',
  password: 'Your password was changed. Every other session and every connected application has ended.',
  published: 'The need is published.',
  discarded: 'The draft was discarded. Nothing of it was public.',
};

const backToSettings = html`<p><a href="${SETTINGS_PATH}">Back to your account settings</a></p>`;
const backToNeed = (page: string) => html`<p><a href="${page}">Back to the need</a></p>`;

/** A POST from a signed-in member with a valid token for `form`; otherwise answered here (sign-in, or a refused form). */
export async function memberPost(deps: PageDeps, req: Request, res: Response, form: string, back: string): Promise<SignedIn | undefined> {
  const requestId = requestIdOf(res);
  const session = await signedIn(deps, req);
  if (!session) {
    toLogin(res, back, requestId);
    return undefined;
  }
  if (!deps.browser.sameOrigin(req) || !deps.browser.checkCsrf(session.token, form, field(req, 'csrf'))) {
    refuseForm(res, requestId, back);
    return undefined;
  }
  return session;
}

export function accountHandlers(deps: PageDeps) {
  const { browser } = deps;
  const signedOut = () => browser.cookie(SESSION_COOKIE, '', { maxAgeSeconds: 0 });
  const member = (req: Request, res: Response, form: string, back: string) => memberPost(deps, req, res, form, back);

  /** A question before a sign-out: the POST form, and the way back. */
  const confirmSignOut =
    (signOut: SignOut): Handler =>
    async (req, res) => {
      const requestId = requestIdOf(res);
      const session = await signedIn(deps, req);
      if (!session) return seeOther(res, LOGIN_PATH, requestId);
      const body = signOutView(browser, session, signOut);
      sendHtml(res, requestId, signOut.title, body, { header: siteHeader({ name: '' }, 'account') });
    };

  /** The settings page, with the password form as refused (never refilled: it holds only secrets). */
  async function settingsPage(req: Request, res: Response, session: SignedIn, password: FormState): Promise<void> {
    const outcome = await runAs(deps, session, 'AccountSettings', {});
    if (!outcome.ok) throw outcome.error;
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    const body = settingsView(browser, session, { settings: outcome.data, done, password });
    const admin = outcome.data.accountOrganizations.some((o) => o.role === 'admin');
    const header = siteHeader({ ...outcome.data.account, admin }, 'account');
    sendHtml(res, requestIdOf(res), 'Account settings', body, { header, status: refusedStatus(password) });
  }

  const settings: Handler = async (req, res) => {
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, SETTINGS_PATH, requestIdOf(res));
    // After a refusal by the service (POST → 303 → GET): the field it named, in plain words.
    const named = typeof req.query.error === 'string' ? PASSWORD_WORDS[req.query.error] : undefined;
    const password = named ? { values: {}, errors: { [String(req.query.error)]: named } } : freshForm();
    await settingsPage(req, res, session, password);
  };

  const revokeGrant: Handler = async (req, res) => {
    const id = pathParam(req, 'id');
    const session = await member(req, res, revokeForm(id), SETTINGS_PATH);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountRevokeGrant', { id });
    if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, backToSettings);
    seeOther(res, `${SETTINGS_PATH}?done=revoked`, requestIdOf(res));
  };

  const changePassword: Handler = async (req, res) => {
    const session = await member(req, res, 'password', SETTINGS_PATH);
    if (!session) return;
    const mistakes = checkPasswordForm(sentValues(req, ['current_password', 'new_password']));
    if (Object.keys(mistakes).length) return settingsPage(req, res, session, refusedAll({}, mistakes));
    // The current password is a password check like sign-in: same budgets, spent before it.
    const address = clientAddress(deps, req);
    const { actor } = session.context;
    const account = actor.kind === 'memberSession' ? `member:${actor.memberId}` : 'member:?';
    const attempt = await deps.signInLimits.attempt(address, account);
    if (!attempt.allowed) return tooManyAttempts(res, requestIdOf(res), attempt.retryAfter, backToSettings);
    const outcome = await runAs(deps, session, 'AccountChangePassword', {
      currentPassword: field(req, 'current_password') ?? '',
      newPassword: field(req, 'new_password') ?? '',
    });
    if (!outcome.ok) {
      const known = outcome.error.code === 'invalid_input' && outcome.error.field && PASSWORD_WORDS[outcome.error.field];
      if (!known) return failurePage(res, requestIdOf(res), outcome.error, backToSettings);
      return seeOther(res, `${SETTINGS_PATH}?error=${outcome.error.field}`, requestIdOf(res));
    }
    await deps.signInLimits.succeeded(address, account);
    const { token, expiresAt } = outcome.data.accountChangePassword;
    const maxAgeSeconds = (Date.parse(expiresAt) - Date.now()) / 1000;
    const cookie = browser.cookie(SESSION_COOKIE, token, { maxAgeSeconds });
    seeOther(res, `${SETTINGS_PATH}?done=password`, requestIdOf(res), [cookie]);
  };

  const signOutEverywhere: Handler = async (req, res) => {
    const session = await member(req, res, 'sign-out-everywhere', SETTINGS_PATH);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountSignOutEverywhere', {});
    if (!outcome.ok) throw outcome.error;
    seeOther(res, `${LOGIN_PATH}?done=signed_out_everywhere`, requestIdOf(res), [signedOut()]);
  };

  const signOut: Handler = async (req, res) => {
    const session = await member(req, res, 'sign-out', SETTINGS_PATH);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountSignOut', {});
    if (!outcome.ok) throw outcome.error;
    seeOther(res, LOGIN_PATH, requestIdOf(res), [signedOut()]);
  };

  const needReview: Handler = async (req, res) => {
    const requestId = requestIdOf(res);
    const id = pathParam(req, 'id');
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, needPath(id), requestId);
    const outcome = await runAs(deps, session, 'AccountNeed', { id });
    if (!outcome.ok) return failurePage(res, requestId, outcome.error, backToSettings);
    const done = req.query.done === 'published' ? DONE.published : undefined;
    const body = needReviewView(browser, session, outcome.data.accountNeed, done);
    sendHtml(res, requestId, 'Review a need', body, { header: siteHeader({ name: '' }) });
  };

  const publishNeed: Handler = async (req, res) => {
    const id = pathParam(req, 'id');
    const page = needPath(id);
    // The form is bound to the revision reviewed: a changed, published or private need refuses it.
    const revision = field(req, 'revision') ?? '';
    const session = await member(req, res, publishForm(id, revision), page);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountPublishNeed', { id, revision });
    if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, backToNeed(page));
    seeOther(res, `${page}?done=published`, requestIdOf(res));
  };

  const discardNeed: Handler = async (req, res) => {
    const id = pathParam(req, 'id');
    const page = needPath(id);
    const session = await member(req, res, discardForm(id), page);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountDiscardNeed', { id });
    if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, backToNeed(page));
    seeOther(res, `${SETTINGS_PATH}?done=discarded`, requestIdOf(res));
  };

  return {
    confirmSignOut,
    settings,
    revokeGrant,
    changePassword,
    signOutEverywhere,
    signOut,
    needReview,
    publishNeed,
    discardNeed,
  };
}
