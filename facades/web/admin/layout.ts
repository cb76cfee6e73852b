import type { Request, Response } from 'express';
import type { DomainError } from '../../../core/index.ts';
import type { AdminOrganizationQuery } from '../../generated/web-admin.ts';
import { foldingNav, html, sendHtml, seeOther, type Html, type PageOptions } from '../../kit/html.ts';
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
} from '../../kit/page-support.ts';
import { FAILURE_STATUS } from '../../kit/forms.ts';
import { resumeAddress } from '../../kit/resume.ts';
import { ADMIN_PATH, orgPath } from './admin-paths.ts';

// The shell of every administration page: who may see it, the navigation, forms and failures.

/** The organization an admin's page is about, as the AdminOrganization operation reads it. */
export type AdminOrganization = AdminOrganizationQuery['organizationAdministration'];

/** The admin of one organization, on a page of that organization. */
export interface AdminVisit {
  session: SignedIn;
  account: AdminOrganizationQuery['account'];
  org: AdminOrganization;
}

export type Section = 'organization' | 'members' | 'keys' | 'webhooks' | 'deliveries' | 'usage' | 'applications' | 'plans';

const SECTIONS: { id: Section; label: string; path: string }[] = [
  { id: 'organization', label: 'Organization', path: '' },
  { id: 'members', label: 'Members', path: '/members' },
  { id: 'keys', label: 'API keys', path: '/keys' },
  { id: 'webhooks', label: 'Webhooks', path: '/webhooks' },
  { id: 'deliveries', label: 'Deliveries', path: '/deliveries' },
  { id: 'usage', label: 'Usage', path: '/usage' },
  { id: 'applications', label: 'Connected applications', path: '/applications' },
  { id: 'plans', label: 'Plans', path: '/plans' },
];

function header(visit: Pick<AdminVisit, 'account'> & { org?: AdminOrganization }, active?: Section): Html {
  const org = visit.org;
  // An organization's sections only on its pages, which only its admins reach (adminVisit).
  const section = (org: AdminOrganization, s: (typeof SECTIONS)[number]) =>
    html`<li><a href="${orgPath(org.id, s.path)}"${s.id === active ? html` aria-current="page"` : ''}>${s.label}</a></li>`;
  const items = html`<li><a href="${ADMIN_PATH}">Packline admin</a></li>
${org ? SECTIONS.map((s) => section(org, s)) : ''}
<li><a href="${SETTINGS_PATH}">Your account</a></li>
<li><a href="/api/v1/docs">API reference</a></li>
<li><a href="${SIGN_OUT_PATH}">Sign out</a></li>`;
  const which = org ? html` · ${org.profile.name} (${org.plan} plan)` : '';
  return html`<header class="site">${foldingNav('Administration', items)}<p class="who">${visit.account.name}${which}</p></header>`;
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

/** The forms whose page is their own address: a POST after the session ended comes back to it, refilled. */
const RESUMABLE = ['webhook-create', 'webhook-edit', 'key-create'];

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
    const back =
      req.method === 'GET'
        ? req.originalUrl
        : RESUMABLE.includes(form?.split('\n', 1)[0] ?? '')
          ? resumeAddress(deps.browser, req, req.originalUrl)
          : orgPath(orgId);
    toLogin(res, back, requestId);
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
  const csrf = deps.browser.csrf(visit.session.token, form);
  return html`<form${options.inline ? html` class="inline"` : ''} method="post" action="${action}">\
<input type="hidden" name="csrf" value="${csrf}">${content}</form>`;
}

/** A domain failure the admin can act on, shown on its own page; defects go to the error handler. */
export function adminFailure(res: Response, visit: AdminVisit, section: Section, error: DomainError, back: string): void {
  const status = FAILURE_STATUS[error.code];
  if (status === undefined) throw error;
  const title = error.code === 'plan_limit' ? 'Your plan’s limit is reached' : 'That did not work';
  const plans = error.code === 'plan_limit' ? html` <a href="${orgPath(visit.org.id, '/plans')}">Compare the plans</a>` : '';
  const message = html`<p class="error" role="alert">${error.message}${plans}</p><p><a href="${back}">Back</a></p>`;
  adminPage(res, visit, section, title, message, {
    status,
  });
}

/** Back to a page after a form, with a notice key the page turns into a sentence. */
export function afterForm(res: Response, location: string, done: string): void {
  seeOther(res, `${location}${location.includes('?') ? '&' : '?'}done=${encodeURIComponent(done)}`, requestIdOf(res));
}

export function notice(req: Request, messages: Record<string, string>): Html | '' {
  const done = typeof req.query.done === 'string' ? messages[req.query.done] : undefined;
  return done ? html`<p class="success" role="status">${done}</p>` : '';
}

/** A secret shown once, with a copy button (the only script of these pages) and the warning. */
export function shownOnce(label: string, value: string, warning: string): Html {
  return html`<section class="secret" aria-labelledby="secret-label"><h2 id="secret-label">${label}</h2>
<code id="secret-value">${value}</code>
<button type="button" data-copy="secret-value" hidden>Copy</button> <span data-copy-status role="status"></span>
<p><strong>${warning}</strong></p></section>`;
}
