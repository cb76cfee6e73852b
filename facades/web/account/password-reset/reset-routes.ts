import type { Request, Response, Router } from 'express';
import { PASSWORD_RESET_PATH } from '../../../../core/index.ts';
import { checkFields, freshForm, refusedAll, sentValues, textOf, type FormState } from '../../../kit/forms.ts';
import { LOGIN_COOKIE } from '../../../kit/browser.ts';
import { sendHtml, seeOther, type Html } from '../../../kit/html.ts';
import { clientAddress, field, refuseForm, requestIdOf, runAs, siteHeader, type PageDeps } from '../../../kit/page-support.ts';
import { newPassword, sameAs } from '../password-form-check.ts';
import { doneView, FORGOT_PATH, forgotView, RESET_DONE_PATH, resetView, unusableView } from './reset-views.ts';

const FORM_COOKIE_SECONDS = 1_800;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The service refused a password the form's own check let through. */
const UNUSABLE_PASSWORD = 'This new password cannot be used. Choose another one.';

function email(value: string | string[] | undefined): string | undefined {
  const text = textOf(value).trim();
  if (text === '') return 'Enter the email you sign in with, like name@example.org.';
  return EMAIL.test(text) && text.length <= 320 ? undefined : 'Enter an email address, like name@example.org.';
}

/**
 * A forgotten password: "Forgot password?" asks for the address and mails a link (the sign-in
 * budgets apply, and the answer is the same for every address); the link's page sets a new password.
 */
export function mountPasswordResetPages(router: Router, deps: PageDeps): void {
  const { browser } = deps;
  const page = (res: Response, title: string, body: Html, status = 200, headers: Record<string, string> = {}) =>
    sendHtml(res, requestIdOf(res), title, body, { status, headers, header: siteHeader(null) });

  /** The form's CSRF token, bound to a secret cookie of this browser (there is no session yet). */
  function forgotForm(req: Request, res: Response, state: FormState, sent = false, headers: Record<string, string> = {}) {
    const secret = browser.read(req, LOGIN_COOKIE) ?? browser.newLoginSecret();
    const cookie = browser.cookie(LOGIN_COOKIE, secret, { maxAgeSeconds: FORM_COOKIE_SECONDS, path: PASSWORD_RESET_PATH });
    const status = state.status ?? (Object.keys(state.errors).length ? 400 : 200);
    page(res, 'Forgot your password?', forgotView(browser.csrf(secret, 'forgot'), state, sent), status, {
      'set-cookie': cookie,
      ...headers,
    });
  }

  router.get(FORGOT_PATH, (req: Request, res: Response) => forgotForm(req, res, freshForm(), req.query.done === 'sent'));

  router.post(FORGOT_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    if (!browser.sameOrigin(req) || !browser.checkCsrf(browser.read(req, LOGIN_COOKIE), 'forgot', field(req, 'csrf')))
      return refuseForm(res, requestId, FORGOT_PATH);
    const values = sentValues(req, ['email']);
    const mistakes = checkFields(values, { email });
    if (Object.keys(mistakes).length > 0) return forgotForm(req, res, refusedAll(values, mistakes));
    const address = textOf(values.email).trim().toLowerCase();
    // The sign-in budgets: one link costs an attempt, per address and per account.
    const attempt = await deps.signInLimits.attempt(clientAddress(deps, req), address);
    if (!attempt.allowed) {
      const minutes = Math.ceil(attempt.retryAfter / 60);
      const error = `Too many attempts for this address. Try again in ${minutes} minute(s).`;
      return forgotForm(req, res, { values, errors: { _form: error }, status: 429 }, false, { 'retry-after': String(attempt.retryAfter) });
    }
    const outcome = await runAs(deps, 'internal', 'AccountRequestPasswordReset', { email: address });
    if (!outcome.ok) throw outcome.error;
    seeOther(res, `${FORGOT_PATH}?done=sent`, requestId);
  });

  router.get(PASSWORD_RESET_PATH, async (req: Request, res: Response) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const outcome = await runAs(deps, 'internal', 'AccountPasswordResetTarget', { token });
    if (!outcome.ok) return unusable(res, outcome.error);
    page(res, 'Choose a new password', resetView(token, outcome.data.passwordResetTarget.email, freshForm()));
  });

  router.post(PASSWORD_RESET_PATH, async (req: Request, res: Response) => {
    if (!browser.sameOrigin(req)) return refuseForm(res, requestIdOf(res), FORGOT_PATH);
    const token = field(req, 'token') ?? '';
    const target = await runAs(deps, 'internal', 'AccountPasswordResetTarget', { token });
    if (!target.ok) return unusable(res, target.error);
    const typed = sentValues(req, ['new_password', 'confirm_password']);
    const errors = checkFields(typed, { new_password: newPassword('new password'), confirm_password: sameAs(typed.new_password) });
    if (Object.keys(errors).length === 0) {
      const outcome = await runAs(deps, 'internal', 'AccountResetPassword', { token, newPassword: textOf(typed.new_password) });
      if (outcome.ok) return seeOther(res, RESET_DONE_PATH, requestIdOf(res));
      if (outcome.error.code !== 'invalid_input') return unusable(res, outcome.error);
      errors.new_password = UNUSABLE_PASSWORD;
    }
    // Never a password written back into the page.
    page(res, 'Choose a new password', resetView(token, target.data.passwordResetTarget.email, refusedAll({}, errors)), 400);
  });

  router.get(RESET_DONE_PATH, (_req: Request, res: Response) => page(res, 'Password changed', doneView()));

  function unusable(res: Response, error: { code: string; message: string }) {
    if (error.code !== 'invalid_state' && error.code !== 'invalid_input') throw error;
    page(res, 'This link does not work', unusableView(error.message), 400);
  }
}
