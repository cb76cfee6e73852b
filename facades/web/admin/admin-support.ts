import type { Request, Response } from 'express';
import type { DomainError, Plan } from '../../../core/index.ts';
import { html, sendHtml, seeOther, type Html, type PageOptions } from '../kit/html.ts';
import { field, pathParam, refuseForm, requestIdOf, signedIn, SETTINGS_PATH, toLogin, type PageDeps, type SignedIn } from '../kit/page-support.ts';

// What every administration page shares: who may see it, the navigation, forms and failures.

export const ADMIN_PATH = '/admin';
export const orgPath = (orgId: string, rest = '') => `${ADMIN_PATH}/orgs/${encodeURIComponent(orgId)}${rest}`;
export const COPY_SCRIPT_PATH = `${ADMIN_PATH}/assets/copy.js`;

export interface Allowances {
  activeKeys: number;
  monthlyQuota: number;
  destinations: number;
  retainedDeliveries: number;
  manualRetry: boolean;
}

export interface AdminOrganization {
  id: string;
  plan: Plan;
  listed: boolean;
  complete: boolean;
  allowances: Allowances;
  profile: Record<string, unknown> & { id: string; name: string };
}

/** The admin of one organization, on a page of that organization. */
export interface AdminVisit {
  session: SignedIn;
  account: { id: string; name: string; email: string };
  org: AdminOrganization;
}

export type Section = 'organization' | 'keys' | 'webhooks' | 'usage';

const SECTIONS: { id: Section; label: string; path: string }[] = [
  { id: 'organization', label: 'Organization', path: '' },
  { id: 'keys', label: 'API keys', path: '/keys' },
  { id: 'webhooks', label: 'Webhooks', path: '/webhooks' },
  { id: 'usage', label: 'Usage', path: '/usage' },
];

export const ADMIN_STYLE = `
header.admin{background:#123;color:#fff;padding:.5rem 1rem}header.admin a{color:#fff}
header.admin nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
header.admin nav a[aria-current=page]{font-weight:bold;text-decoration:underline}
header.admin .who{font-size:.9rem;margin:.25rem 0}
main{max-width:60rem;margin:0 auto}body{max-width:none;margin:0;padding:0}main{padding:0 1rem 3rem}
a{color:#0645ad}a:focus,button:focus,input:focus,select:focus{outline:3px solid #f90;outline-offset:2px}
button{padding:.4rem .8rem;font-size:1rem;cursor:pointer}button.danger{background:#a30000;color:#fff;border:1px solid #700}
fieldset{border:1px solid #ccc;margin:.75rem 0;padding:.5rem 1rem}legend{font-weight:bold}
fieldset label{display:flex;gap:.5rem;align-items:center}fieldset label input{display:inline;width:auto;margin:0}
select{display:block;margin-top:.2rem;padding:.3rem;font-size:1rem;max-width:100%}
.secret{background:#fff8d6;border:2px solid #c90;padding:.75rem;margin:1rem 0}
.secret code{font-size:1.05rem;display:block;margin:.5rem 0;word-break:break-all}
.status-failed,.status-revoked,.status-expired,.status-disabled{color:#a30000}.status-succeeded,.status-active{color:#0a6b2d}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:bold}dd{margin:0}
pre{background:#f4f4f4;white-space:pre-wrap;word-break:break-word;padding:.75rem;overflow-x:auto;font-size:.85rem}
.meter{height:1rem;background:#e3e3e3;border-radius:.25rem;overflow:hidden;max-width:30rem}.meter span{display:block;height:100%;background:#2b6cb0}
@media (max-width:40rem){
 dl{grid-template-columns:1fr}input{width:100%;box-sizing:border-box}
}`;

function header(visit: Pick<AdminVisit, 'account'> & { org?: AdminOrganization }, active?: Section): Html {
  const org = visit.org;
  return html`<header class="admin"><nav aria-label="Administration"><ul>
<li><a href="${ADMIN_PATH}">Packline admin</a></li>
${org ? SECTIONS.map((s) => html`<li><a href="${orgPath(org.id, s.path)}"${s.id === active ? html` aria-current="page"` : ''}>${s.label}</a></li>`) : ''}
<li><a href="${SETTINGS_PATH}">Your account</a></li>
<li><a href="/api/v1/docs">API reference</a></li>
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
  sendHtml(res, requestIdOf(res), title, body, { ...options, header: header(visit, active), style: ADMIN_STYLE + (options.style ?? '') });
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
  const outcome = await deps.operations.run<{ account: AdminVisit['account']; organizationAdministration: AdminOrganization }>(
    'AdminOrganization',
    { id: orgId },
    session.context,
  );
  if (!outcome.ok) {
    if (outcome.error.code !== 'forbidden' && outcome.error.code !== 'not_found') throw outcome.error;
    const account = await deps.operations.run<{ account: AdminVisit['account'] }>('AdminAccount', {}, session.context);
    if (!account.ok) throw account.error;
    adminPage(res, { account: account.data.account }, undefined, 'Not allowed', FORBIDDEN(orgId), { status: 403 });
    return undefined;
  }
  return { session, account: outcome.data.account, org: outcome.data.organizationAdministration };
}

/** A form bound to this browser's session: its CSRF token names the form and the object it acts on. */
export function adminForm(deps: PageDeps, visit: AdminVisit, action: string, form: string, content: Html, options: { inline?: boolean } = {}): Html {
  return html`<form${options.inline ? html` class="inline"` : ''} method="post" action="${action}"><input type="hidden" name="csrf" value="${deps.browser.csrf(visit.session.token, form)}">${content}</form>`;
}

/** A domain failure the admin can act on, shown on its own page; defects go to the error handler. */
export function adminFailure(res: Response, visit: AdminVisit, section: Section, error: DomainError, back: string): void {
  const status = ({ not_found: 404, invalid_input: 400, invalid_cursor: 400, invalid_state: 409, plan_limit: 403, forbidden: 403, conflict: 409 } as Record<string, number>)[error.code];
  if (status === undefined) throw error;
  const title = error.code === 'plan_limit' ? 'Your plan’s limit is reached' : 'That did not work';
  adminPage(res, visit, section, title, html`<p class="error" role="alert">${error.message}</p><p><a href="${back}">Back</a></p>`, { status });
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
