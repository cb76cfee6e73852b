import type { Request, Response } from 'express';
import type { DomainError } from '../../../core/index.ts';
import type { AdminOrganizationQuery } from '../../generated/web-admin.ts';
import { html, sendHtml, seeOther, type Html, type PageOptions } from '../kit/html.ts';
import {
  field,
  pathParam,
  refuseForm,
  requestIdOf,
  signedIn,
  SETTINGS_PATH,
  SIGN_OUT_PATH,
  toLogin,
  type PageDeps,
  type SignedIn,
} from '../kit/page-support.ts';

// What every administration page shares: who may see it, the navigation, forms and failures.

export const ADMIN_PATH = '/admin';
export const orgPath = (orgId: string, rest = '') => `${ADMIN_PATH}/orgs/${encodeURIComponent(orgId)}${rest}`;
export const COPY_SCRIPT_PATH = `${ADMIN_PATH}/assets/copy.js`;
export const REFRESH_SCRIPT_PATH = `${ADMIN_PATH}/assets/refresh.js`;

/**
 * Progressive enhancement of a page whose region `[data-refresh]` waits for something (a test
 * event being delivered): the region is fetched again every 2 seconds, for at most a minute, until
 * it holds nothing marked `[data-pending]`. Without script the page says to reload it.
 */
export const REFRESH_SCRIPT = `// Refreshes [data-refresh] regions while they hold pending items.
for (const region of document.querySelectorAll('[data-refresh]')) {
  let rounds = 0;
  const status = document.querySelector('[data-refresh-status]');
  const tick = async () => {
    rounds += 1;
    try {
      const answer = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
      const fresh = page.getElementById(region.id);
      if (!fresh) return;
      if (fresh.innerHTML !== region.innerHTML) {
        region.innerHTML = fresh.innerHTML;
        if (status) status.textContent = 'The deliveries below were updated.';
      }
      if (!region.querySelector('[data-pending]')) return;
    } catch {
      return;
    }
    if (rounds < 30) setTimeout(tick, 2000);
  };
  if (region.querySelector('[data-pending]')) setTimeout(tick, 2000);
}
`;

/** The organization an admin's page is about, as the AdminOrganization operation reads it. */
export type AdminOrganization = AdminOrganizationQuery['organizationAdministration'];

/** The admin of one organization, on a page of that organization. */
export interface AdminVisit {
  session: SignedIn;
  account: AdminOrganizationQuery['account'];
  org: AdminOrganization;
}

export type Section = 'organization' | 'keys' | 'webhooks' | 'usage' | 'applications' | 'plans';

const SECTIONS: { id: Section; label: string; path: string }[] = [
  { id: 'organization', label: 'Organization', path: '' },
  { id: 'keys', label: 'API keys', path: '/keys' },
  { id: 'webhooks', label: 'Webhooks', path: '/webhooks' },
  { id: 'usage', label: 'Usage', path: '/usage' },
  { id: 'applications', label: 'Connected applications', path: '/applications' },
  { id: 'plans', label: 'Plans', path: '/plans' },
];

function header(visit: Pick<AdminVisit, 'account'> & { org?: AdminOrganization }, active?: Section): Html {
  const org = visit.org;
  return html`<header class="site"><nav aria-label="Administration"><ul>
<li><a href="${ADMIN_PATH}">Packline admin</a></li>
${org ? SECTIONS.map((s) => html`<li><a href="${orgPath(org.id, s.path)}"${s.id === active ? html` aria-current="page"` : ''}>${s.label}</a></li>`) : ''}
<li><a href="${SETTINGS_PATH}">Your account</a></li>
<li><a href="/api/v1/docs">API reference</a></li>
<li><a href="${SIGN_OUT_PATH}">Sign out</a></li>
</ul></nav><p class="who">${visit.account.name}${org ? html` · ${org.profile.name} (${org.plan} plan)` : ''}</p></header>`;
}

export function adminPage(
  res: Response,
  visit: Pick<AdminVisit, 'account'> & { org?: AdminOrganization },
  active: Section | undefined,
  title: string,
  body: Html,
  options: PageOptions = {},
): void {
  sendHtml(res, requestIdOf(res), title, body, { ...options, header: header(visit, active) });
}

const FORBIDDEN = (orgId: string) =>
  html`<p class="error">Only the admins of organization <code>${orgId}</code> can see its administration pages.</p>
<p><a href="${ADMIN_PATH}">Your organizations</a> · <a href="${SETTINGS_PATH}">Your account</a></p>`;

/**
 * The signed-in admin of `:org`, or an answer already sent: sign-in for a visitor, 403 for a
 * member who does not administer it (whether or not it exists), a refused form for a POST
 * without its CSRF token.
 */
export async function adminVisit(deps: PageDeps, req: Request, res: Response, form?: string): Promise<AdminVisit | undefined> {
  const requestId = requestIdOf(res);
  const orgId = pathParam(req, 'org');
  const session = await signedIn(deps, req);
  if (!session) {
    toLogin(res, req.method === 'GET' ? req.originalUrl : orgPath(orgId), requestId);
    return undefined;
  }
  if (form !== undefined && (!deps.browser.sameOrigin(req) || !deps.browser.checkCsrf(session.token, form, field(req, 'csrf')))) {
    refuseForm(res, requestId, req.originalUrl);
    return undefined;
  }
  const outcome = await deps.operations.run('AdminOrganization', { id: orgId }, session.context);
  if (!outcome.ok) {
    if (outcome.error.code !== 'forbidden' && outcome.error.code !== 'not_found') throw outcome.error;
    const account = await deps.operations.run('AdminAccount', {}, session.context);
    if (!account.ok) throw account.error;
    adminPage(res, { account: account.data.account }, undefined, 'Not allowed', FORBIDDEN(orgId), { status: 403 });
    return undefined;
  }
  return { session, account: outcome.data.account, org: outcome.data.organizationAdministration };
}

/** A form bound to this browser's session: its CSRF token names the form and the object it acts on. */
export function adminForm(
  deps: PageDeps,
  visit: AdminVisit,
  action: string,
  form: string,
  content: Html,
  options: { inline?: boolean } = {},
): Html {
  return html`<form${options.inline ? html` class="inline"` : ''} method="post" action="${action}"><input type="hidden" name="csrf" value="${deps.browser.csrf(visit.session.token, form)}">${content}</form>`;
}

const FAILURE_STATUS: Record<string, number> = {
  not_found: 404,
  invalid_input: 400,
  invalid_cursor: 400,
  invalid_state: 409,
  plan_limit: 403,
  forbidden: 403,
  conflict: 409,
};

/** A domain failure the admin can act on, shown on its own page; defects go to the error handler. */
export function adminFailure(res: Response, visit: AdminVisit, section: Section, error: DomainError, back: string): void {
  const status = FAILURE_STATUS[error.code];
  if (status === undefined) throw error;
  const title = error.code === 'plan_limit' ? 'Your plan’s limit is reached' : 'That did not work';
  const plans = error.code === 'plan_limit' ? html` <a href="${orgPath(visit.org.id, '/plans')}">Compare the plans</a>` : '';
  adminPage(res, visit, section, title, html`<p class="error" role="alert">${error.message}${plans}</p><p><a href="${back}">Back</a></p>`, {
    status,
  });
}

/** Back to a page after a form, with a notice key the page turns into a sentence. */
export function afterForm(res: Response, location: string, done: string): void {
  seeOther(res, `${location}${location.includes('?') ? '&' : '?'}done=${encodeURIComponent(done)}`, requestIdOf(res));
}

export function notice(req: Request, messages: Record<string, string>): Html | '' {
  const done = typeof req.query.done === 'string' ? messages[req.query.done] : undefined;
  return done ? html`<p class="note" role="status">${done}</p>` : '';
}

/** `2026-11-22 10:00 UTC`, or a dash. */
export const at = (value: string | null | undefined) => (value ? `${value.slice(0, 16).replace('T', ' ')} UTC` : '—');

/** `2026-11-22 10:00:05 UTC`, for attempts seconds apart; or a dash. */
export const exactly = (value: string | null | undefined) => (value ? `${value.slice(0, 19).replace('T', ' ')} UTC` : '—');

/** A secret shown once, with a copy button (the only script of these pages) and the warning. */
export function shownOnce(label: string, value: string, warning: string): Html {
  return html`<section class="secret" aria-labelledby="secret-label"><h2 id="secret-label">${label}</h2>
<code id="secret-value">${value}</code>
<button type="button" data-copy="secret-value" hidden>Copy</button> <span data-copy-status role="status"></span>
<p><strong>${warning}</strong></p></section>`;
}

export const COPY_SCRIPT = `// The copy button of a secret shown once: shown only where the clipboard can be written.
for (const button of document.querySelectorAll('button[data-copy]')) {
  if (!navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const status = document.querySelector('[data-copy-status]');
    try {
      await navigator.clipboard.writeText(document.getElementById(button.dataset.copy).textContent.trim());
      if (status) status.textContent = 'Copied.';
    } catch {
      if (status) status.textContent = 'Copy failed: select the text and copy it.';
    }
  });
}
`;

/** A form answered again after a refusal: what was typed (never a secret) and the error of each field. */
export interface FormState {
  values: Record<string, string | string[]>;
  /** By form field name; `_form` for an error that names no field. */
  errors: Record<string, string>;
  /** The status of the page answering the refused form. */
  status?: number;
}

export const freshForm = (values: Record<string, string | string[]> = {}): FormState => ({ values, errors: {} });

/** The form's fields as sent (strings and repeated checkboxes), for answering it refilled. */
export function sentValues(req: Request, names: readonly string[]): Record<string, string | string[]> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const values: Record<string, string | string[]> = {};
  for (const name of names) {
    const value = body[name];
    if (typeof value === 'string') values[name] = value.slice(0, 4_000);
    else if (Array.isArray(value)) values[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return values;
}

/**
 * The state of a form refused by `error`: beside its field (the service's name mapped to the
 * form's by `fieldNames`) when the form has it, otherwise at the top. Defects go to the error handler.
 */
export function refused(
  values: Record<string, string | string[]>,
  error: DomainError,
  fields: readonly string[],
  fieldNames: Record<string, string> = {},
): FormState {
  if (FAILURE_STATUS[error.code] === undefined) throw error;
  const at = error.field ? (fieldNames[error.field] ?? error.field) : '_form';
  return { values, errors: { [fields.includes(at) ? at : '_form']: error.message }, status: FAILURE_STATUS[error.code] };
}

/** The status of a page answering a refused form. */
export const refusedStatus = (state: FormState) => state.status ?? (Object.keys(state.errors).length ? 400 : 200);

export const fieldId = (name: string) => `f-${name}`;
const errorId = (name: string) => `f-${name}-error`;

/** The attributes of a field: its id, and when refused `aria-invalid` and the error it is described by (beside `help`). */
export function fieldAttrs(state: FormState, name: string, help?: string): Html {
  const error = state.errors[name];
  const described = [error ? errorId(name) : '', help ?? ''].filter(Boolean).join(' ');
  return html` id="${fieldId(name)}"${error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
}

/** The error of a field, beside it. */
export function fieldError(state: FormState, name: string): Html | '' {
  const error = state.errors[name];
  return error ? html`<p id="${errorId(name)}" class="field-error"><span class="visually-hidden">Error: </span>${error}</p>` : '';
}

/** The `aria-describedby` of a fieldset whose choices were refused. */
export function groupAttrs(state: FormState, name: string): Html | '' {
  return state.errors[name] ? html` aria-describedby="${errorId(name)}" class="invalid"` : '';
}

/** At the top of a refused form's page: each error, linking to its field. */
export function errorSummary(state: FormState, labels: Record<string, string>): Html | '' {
  const entries = Object.entries(state.errors);
  if (entries.length === 0) return '';
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1"><h2 id="error-summary-title">There is a problem</h2><ul>
${entries.map(([name, message]) => (name === '_form' ? html`<li>${message}</li>` : html`<li><a href="#${fieldId(name)}">${labels[name] ?? name}: ${message}</a></li>`))}
</ul></div>`;
}

export const fieldValue = (state: FormState, name: string, fallback = ''): string => {
  const value = state.values[name];
  return typeof value === 'string' ? value : fallback;
};

export const choicesOf = (state: FormState, name: string, fallback: readonly string[]): readonly string[] => {
  const value = state.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : fallback;
};
