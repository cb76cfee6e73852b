import type { AccountSettingsQuery } from '../../generated/web-account.ts';
import type { Browser } from '../../kit/browser.ts';
import { when } from '../../kit/dates.ts';
import { errorSummary, fieldAttrs, fieldError, fieldId, type FormState } from '../../kit/forms.ts';
import { html, type Html } from '../../kit/html.ts';
import { PASSWORD_LABELS } from './password-form-check.ts';
import { ABILITIES, SETTINGS_PATH, SIGN_OUT_EVERYWHERE_PATH, SIGN_OUT_PATH } from '../../kit/page-support.ts';
import type { SignedIn } from '../../kit/page-support.ts';
import { DRAFTS_PATH } from './drafts/drafts-views.ts';

// The member's account settings, and the questions before a sign-out.

type Settings = AccountSettingsQuery;
type Grant = Settings['accountGrants'][number];
type AuditEntry = Settings['accountAuditLog'][number];

/** A form of this browser's session: its CSRF token names the form and what it acts on. */
export function memberForm(
  browser: Browser,
  session: SignedIn,
  target: { action: string; name: string },
  label: Html | string,
  fields: Html | string = '',
  button = '',
): Html {
  const csrf = browser.csrf(session.token, target.name);
  return html`<form class="inline" method="post" action="${target.action}">\
<input type="hidden" name="csrf" value="${csrf}">${fields}\
<button type="submit"${button ? html` class="${button}"` : ''}>${label}</button></form>`;
}

export const revokePath = (id: string) => `/account/grants/${encodeURIComponent(id)}/revoke`;
export const revokeForm = (id: string) => `revoke\n${id}`;

function grantRow(browser: Browser, session: SignedIn, g: Grant): Html {
  const name = g.application.name;
  const revoke = memberForm(
    browser,
    session,
    { action: revokePath(g.id), name: revokeForm(g.id) },
    html`Revoke<span class="visually-hidden"> ${name}</span>`,
  );
  return html`<tr><td data-label="Application">${name}</td>\
<td data-label="Redirect address">${g.application.redirectUris.map((u) => html`<code>${u}</code><br>`)}</td>
<td data-label="Can"><ul>${g.scopes.map((s) => html`<li>${ABILITIES[s] ?? s}</li>`)}</ul></td>\
<td data-label="Since">${when(g.createdAt)}</td><td data-label="Last used">${when(g.lastUsedAt)}</td>
<td>${revoke}</td></tr>`;
}

function grantsTable(browser: Browser, session: SignedIn, grants: Grant[]): Html {
  if (grants.length === 0) return html`<p class="note">No application can act for you.</p>`;
  return html`<table class="list"><thead><tr><th>Application</th><th>Redirect address</th><th>Can</th><th>Since</th>\
<th>Last used</th><th></th></tr></thead><tbody>
${grants.map((g) => grantRow(browser, session, g))}</tbody></table>`;
}

function auditTable(log: AuditEntry[]): Html {
  if (log.length === 0) return html`<p class="note">Nothing yet.</p>`;
  const row = (e: AuditEntry) =>
    html`<tr><td data-label="When">${when(e.at)}</td><td data-label="Application">${e.applicationName}</td>\
<td data-label="Tool"><code>${e.tool}</code></td><td data-label="Outcome">${e.outcome}</td></tr>`;
  return html`<table class="list"><thead><tr><th>When</th><th>Application</th><th>Tool</th>\
<th>Outcome</th></tr></thead><tbody>
${log.map(row)}</tbody></table>`;
}

const passwordFields = (form: FormState) => html`
<label for="${fieldId('current_password')}">Current password</label>\
<input type="password" name="current_password" autocomplete="current-password" required${fieldAttrs(form, 'current_password')}>
${fieldError(form, 'current_password')}
<label for="${fieldId('new_password')}">New password</label>\
<input type="password" name="new_password" autocomplete="new-password" minlength="10" required\
${fieldAttrs(form, 'new_password', 'new-password-rule')}>
${fieldError(form, 'new_password')}
<p id="new-password-rule" class="note">At least 10 characters.</p>`;

export interface SettingsView {
  settings: Settings;
  /** The sentence confirming what the last form did. */
  done: string | undefined;
  /** The password form as refused: its errors only, never the passwords typed. */
  password: FormState;
}

export function settingsView(browser: Browser, session: SignedIn, { settings, done, password: form }: SettingsView): Html {
  const { account, accountGrants: grants, accountAuditLog: log } = settings;
  const passwordTarget = { action: '/account/password', name: 'password' };
  const password = memberForm(browser, session, passwordTarget, 'Change password', passwordFields(form), 'primary');
  return html`
<p>Signed in as <strong>${account.name}</strong> (${account.email}).\
${settings.accountOrganizations.some((o) => o.role === 'admin') ? html` <a href="/admin">Administration of your organizations</a>` : ''}</p>
${done ? html`<p class="success" role="status">${done}</p>` : ''}${errorSummary(form, PASSWORD_LABELS)}
<p><a href="${DRAFTS_PATH}">Drafts your assistants prepared</a></p>
<h2>Connected applications</h2>
${grantsTable(browser, session, grants)}
<h2>What applications did for you</h2>
${auditTable(log)}
<h2>Password</h2>
<p class="note">Changing it signs you out everywhere else and disconnects every application.</p>
${password}
<h2>Sessions</h2>
<p><a class="button" href="${SIGN_OUT_EVERYWHERE_PATH}">Sign out everywhere…</a> \
ends every session and disconnects every application (you confirm first).</p>
<p><a class="button" href="${SIGN_OUT_PATH}">Sign out…</a></p>`;
}

/** The two sign-outs, each asked first: its address, form, page title, question and button. */
export const SIGN_OUTS = [
  {
    path: SIGN_OUT_PATH,
    form: 'sign-out',
    title: 'Sign out?',
    question: html`<p>Sign out of Packline on this browser? \
Your other sessions and connected applications stay as they are.</p>`,
    label: 'Sign out',
  },
  {
    path: SIGN_OUT_EVERYWHERE_PATH,
    form: 'sign-out-everywhere',
    title: 'Sign out everywhere?',
    question: html`<p>This ends <strong>every</strong> session of your account, on every browser and device, \
and disconnects <strong>every</strong> connected application: each must ask for your consent again.</p>`,
    label: 'Sign out everywhere',
  },
] as const;

export type SignOut = (typeof SIGN_OUTS)[number];

export function signOutView(browser: Browser, session: SignedIn, { path, form, question, label }: SignOut): Html {
  const csrf = browser.csrf(session.token, form);
  return html`${question}
<p><form class="inline" method="post" action="${path}"><input type="hidden" name="csrf" value="${csrf}">\
<button type="submit" class="primary">${label}</button></form>
<a class="button" href="${SETTINGS_PATH}">Cancel</a></p>`;
}
