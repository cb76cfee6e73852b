import type { Request, Response, Router } from 'express';
import { DRAFT_REVIEW_PATH } from '../../../core/index.ts';
import { DRAFTS_PATH } from './drafts/drafts-views.ts';
import { SESSION_COOKIE } from '../kit/browser.ts';
import { html, sendHtml, seeOther, type Html } from '../kit/html.ts';
import {
  ABILITIES,
  clientAddress,
  failurePage,
  field,
  LOGIN_PATH,
  pathParam,
  refuseForm,
  requestIdOf,
  runAs,
  SETTINGS_PATH,
  SIGN_OUT_EVERYWHERE_PATH,
  SIGN_OUT_PATH,
  signedIn,
  siteHeader,
  toLogin,
  tooManyAttempts,
  when,
  type PageDeps,
  type SignedIn,
} from '../kit/page-support.ts';

const DONE: Record<string, string> = {
  revoked: 'The application was disconnected. Its next call will be refused.',
  password: 'Your password was changed. Every other session and every connected application has ended.',
  published: 'The need is published.',
  discarded: 'The draft was discarded. Nothing of it was public.',
};
const ERRORS: Record<string, string> = {
  current_password: 'The current password is not right. Nothing changed.',
  new_password: 'The new password needs at least 10 characters. Nothing changed.',
};

/**
 * The member's account pages: connected applications (revoke), what they did (audit log),
 * password change, sign-out everywhere, sign-out, and the review page of drafts.
 */
export function mountAccountPages(router: Router, deps: PageDeps): void {
  const { browser } = deps;

  /** A POST from a signed-in member with a valid token for `form`; otherwise answered here. */
  async function member(req: Request, res: Response, form: string, back: string): Promise<SignedIn | undefined> {
    const requestId = requestIdOf(res);
    const session = await signedIn(deps, req);
    if (!session) {
      toLogin(res, back, requestId);
      return undefined;
    }
    if (!browser.sameOrigin(req) || !browser.checkCsrf(session.token, form, field(req, 'csrf'))) {
      refuseForm(res, requestId, back);
      return undefined;
    }
    return session;
  }

  const form = (session: SignedIn, action: string, name: string, label: Html | string, fields: Html | string = '', button = '') =>
    html`<form class="inline" method="post" action="${action}"><input type="hidden" name="csrf" value="${browser.csrf(session.token, name)}">${fields}<button type="submit"${button ? html` class="${button}"` : ''}>${label}</button></form>`;

  /** A question before a sign-out: the POST form, and the way back. */
  function confirmSignOut(path: string, form: string, title: string, question: Html, label: string) {
    router.get(path, async (req: Request, res: Response) => {
      const requestId = requestIdOf(res);
      const session = await signedIn(deps, req);
      if (!session) return seeOther(res, LOGIN_PATH, requestId);
      const body = html`${question}
<p><form class="inline" method="post" action="${path}"><input type="hidden" name="csrf" value="${browser.csrf(session.token, form)}"><button type="submit" class="primary">${label}</button></form>
<a class="button" href="${SETTINGS_PATH}">Cancel</a></p>`;
      sendHtml(res, requestId, title, body, { header: siteHeader({ name: '' }, 'account') });
    });
  }
  confirmSignOut(
    SIGN_OUT_PATH,
    'sign-out',
    'Sign out?',
    html`<p>Sign out of Packline on this browser? Your other sessions and connected applications stay as they are.</p>`,
    'Sign out',
  );
  confirmSignOut(
    SIGN_OUT_EVERYWHERE_PATH,
    'sign-out-everywhere',
    'Sign out everywhere?',
    html`<p>This ends <strong>every</strong> session of your account, on every browser and device, and disconnects <strong>every</strong> connected application: each must ask for your consent again.</p>`,
    'Sign out everywhere',
  );

  router.get(SETTINGS_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, SETTINGS_PATH, requestId);
    const outcome = await runAs(deps, session, 'AccountSettings', {});
    if (!outcome.ok) throw outcome.error;
    const { account, accountGrants: grants, accountAuditLog: log } = outcome.data;
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    const error = typeof req.query.error === 'string' ? ERRORS[req.query.error] : undefined;
    const body = html`
<p>Signed in as <strong>${account.name}</strong> (${account.email}). <a href="/admin">Administration of your organizations</a></p>
${done ? html`<p class="note">${done}</p>` : ''}${error ? html`<p class="error">${error}</p>` : ''}
<p><a href="${DRAFTS_PATH}">Drafts your assistants prepared</a></p>
<h2>Connected applications</h2>
${
  grants.length === 0
    ? html`<p class="note">No application can act for you.</p>`
    : html`<table class="list"><thead><tr><th>Application</th><th>Redirect address</th><th>Can</th><th>Since</th><th>Last used</th><th></th></tr></thead><tbody>
${grants.map(
  (
    g,
  ) => html`<tr><td data-label="Application">${g.application.name}</td><td data-label="Redirect address">${g.application.redirectUris.map((u) => html`<code>${u}</code><br>`)}</td>
<td data-label="Can"><ul>${g.scopes.map((s) => html`<li>${ABILITIES[s] ?? s}</li>`)}</ul></td><td data-label="Since">${when(g.createdAt)}</td><td data-label="Last used">${when(g.lastUsedAt)}</td>
<td>${form(session, `/account/grants/${encodeURIComponent(g.id)}/revoke`, `revoke\n${g.id}`, html`Revoke<span class="visually-hidden"> ${g.application.name}</span>`)}</td></tr>`,
)}</tbody></table>`
}
<h2>What applications did for you</h2>
${
  log.length === 0
    ? html`<p class="note">Nothing yet.</p>`
    : html`<table class="list"><thead><tr><th>When</th><th>Application</th><th>Tool</th><th>Outcome</th></tr></thead><tbody>
${log.map((e) => html`<tr><td data-label="When">${when(e.at)}</td><td data-label="Application">${e.applicationName}</td><td data-label="Tool"><code>${e.tool}</code></td><td data-label="Outcome">${e.outcome}</td></tr>`)}</tbody></table>`
}
<h2>Password</h2>
<p class="note">Changing it signs you out everywhere else and disconnects every application.</p>
${form(
  session,
  '/account/password',
  'password',
  'Change password',
  html`
<label>Current password <input type="password" name="current_password" autocomplete="current-password" required></label>
<label>New password <input type="password" name="new_password" autocomplete="new-password" minlength="10" required aria-describedby="new-password-rule"></label>
<p id="new-password-rule" class="note">At least 10 characters.</p>`,
)}
<h2>Sessions</h2>
<p><a class="button" href="${SIGN_OUT_EVERYWHERE_PATH}">Sign out everywhere…</a> ends every session and disconnects every application (you confirm first).</p>
<p><a class="button" href="${SIGN_OUT_PATH}">Sign out…</a></p>`;
    sendHtml(res, requestId, 'Account settings', body, { header: siteHeader(account, 'account') });
  });

  router.post('/account/grants/:id/revoke', async (req: Request, res: Response) => {
    const id = pathParam(req, 'id');
    const session = await member(req, res, `revoke\n${id}`, SETTINGS_PATH);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountRevokeGrant', { id });
    if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, backToSettings);
    seeOther(res, `${SETTINGS_PATH}?done=revoked`, requestIdOf(res));
  });

  router.post('/account/password', async (req: Request, res: Response) => {
    const session = await member(req, res, 'password', SETTINGS_PATH);
    if (!session) return;
    // The current password is a password check like sign-in: same budgets, spent before it.
    const address = clientAddress(deps, req);
    const account = session.context.actor.kind === 'memberSession' ? `member:${session.context.actor.memberId}` : 'member:?';
    const attempt = await deps.signInLimits.attempt(address, account);
    if (!attempt.allowed) return tooManyAttempts(res, requestIdOf(res), attempt.retryAfter, backToSettings);
    const outcome = await runAs(deps, session, 'AccountChangePassword', {
      currentPassword: field(req, 'current_password') ?? '',
      newPassword: field(req, 'new_password') ?? '',
    });
    if (!outcome.ok) {
      const known = outcome.error.code === 'invalid_input' && outcome.error.field && ERRORS[outcome.error.field];
      if (!known) return failurePage(res, requestIdOf(res), outcome.error, backToSettings);
      return seeOther(res, `${SETTINGS_PATH}?error=${outcome.error.field}`, requestIdOf(res));
    }
    await deps.signInLimits.succeeded(address, account);
    const { token, expiresAt } = outcome.data.accountChangePassword;
    const cookie = browser.cookie(SESSION_COOKIE, token, { maxAgeSeconds: (Date.parse(expiresAt) - Date.now()) / 1000 });
    seeOther(res, `${SETTINGS_PATH}?done=password`, requestIdOf(res), [cookie]);
  });

  router.post('/account/sign-out-everywhere', async (req: Request, res: Response) => {
    const session = await member(req, res, 'sign-out-everywhere', SETTINGS_PATH);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountSignOutEverywhere', {});
    if (!outcome.ok) throw outcome.error;
    seeOther(res, `${LOGIN_PATH}?done=signed_out_everywhere`, requestIdOf(res), [browser.cookie(SESSION_COOKIE, '', { maxAgeSeconds: 0 })]);
  });

  router.post('/account/sign-out', async (req: Request, res: Response) => {
    const session = await member(req, res, 'sign-out', SETTINGS_PATH);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountSignOut', {});
    if (!outcome.ok) throw outcome.error;
    seeOther(res, LOGIN_PATH, requestIdOf(res), [browser.cookie(SESSION_COOKIE, '', { maxAgeSeconds: 0 })]);
  });

  router.get(`${DRAFT_REVIEW_PATH}:id`, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const id = pathParam(req, 'id');
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, `${DRAFT_REVIEW_PATH}${encodeURIComponent(id)}`, requestId);
    const outcome = await runAs(deps, session, 'AccountNeed', { id });
    if (!outcome.ok) return failurePage(res, requestId, outcome.error, backToSettings);
    const { need, state } = outcome.data.accountNeed;
    const revision = outcome.data.accountNeed.revision ?? '';
    const done = req.query.done === 'published' ? DONE.published : undefined;
    const body = html`
${done ? html`<p class="note">${done}</p>` : ''}
<p>For <strong>${need.organization.name}</strong> · state: <strong>${state}</strong></p>
<h2>${need.title}</h2>
<p>${need.description || '(no description)'}</p>
<p>Expertise: ${need.requiredExpertise.join(', ') || '—'} · Remote: ${need.remoteAllowed ? 'yes' : 'no'}</p>
${
  state === 'draft'
    ? html`<p class="note">Nothing is public yet. Publishing makes this need public and notifies the organization’s subscribers.</p>
${form(session, `${DRAFT_REVIEW_PATH}${encodeURIComponent(need.id)}/publish`, publishForm(need.id, revision), 'Publish', html`<input type="hidden" name="revision" value="${revision}">`, 'primary')}
${
  outcome.data.accountNeed.discardable
    ? html`${form(session, `${DRAFT_REVIEW_PATH}${encodeURIComponent(need.id)}/discard`, discardForm(need.id), 'Discard draft', '', 'danger')}
<p class="note">Discard deletes this draft for good; nothing of it was public.</p>`
    : html`<p class="note">This draft was prepared for another member: only they can discard it.</p>`
}`
    : state === 'public'
      ? html`<p>Public at <a href="${need.url}">${need.url}</a></p>`
      : ''
}
<p><a href="${SETTINGS_PATH}">Back to your account</a></p>`;
    sendHtml(res, requestId, 'Review a need', body, { header: siteHeader({ name: '' }) });
  });

  router.post(`${DRAFT_REVIEW_PATH}:id/publish`, async (req: Request, res: Response) => {
    const id = pathParam(req, 'id');
    const page = `${DRAFT_REVIEW_PATH}${encodeURIComponent(id)}`;
    // The form is bound to the revision reviewed: a changed, published or private need refuses it.
    const revision = field(req, 'revision') ?? '';
    const session = await member(req, res, publishForm(id, revision), page);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountPublishNeed', { id, revision });
    if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, html`<p><a href="${page}">Back to the need</a></p>`);
    seeOther(res, `${page}?done=published`, requestIdOf(res));
  });

  router.post(`${DRAFT_REVIEW_PATH}:id/discard`, async (req: Request, res: Response) => {
    const id = pathParam(req, 'id');
    const page = `${DRAFT_REVIEW_PATH}${encodeURIComponent(id)}`;
    const session = await member(req, res, discardForm(id), page);
    if (!session) return;
    const outcome = await runAs(deps, session, 'AccountDiscardNeed', { id });
    if (!outcome.ok) return failurePage(res, requestIdOf(res), outcome.error, html`<p><a href="${page}">Back to the need</a></p>`);
    seeOther(res, `${SETTINGS_PATH}?done=discarded`, requestIdOf(res));
  });
}

const publishForm = (id: string, revision: string) => `publish\n${id}\n${revision}`;
const discardForm = (id: string) => `discard\n${id}`;

const backToSettings = html`<p><a href="${SETTINGS_PATH}">Back to your account settings</a></p>`;
