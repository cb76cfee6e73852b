import type { Request, Response } from 'express';
import {
  clientAddress as addressOf,
  INTERNAL,
  MEMBER_ACCOUNT_PATH,
  type DomainError,
  type Logger,
  type OnceMarks,
  type SignInLimits,
} from '../../core/index.ts';
import type { Context, Contexts } from '../../schema/index.ts';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type * as accountDocuments from '../generated/web-account.ts';
import type * as adminDocuments from '../generated/web-admin.ts';
import type { OperationOutcome, Operations, OperationsOf } from '../operation-runner.ts';
import { SESSION_COOKIE, type Browser } from './browser.ts';
import { foldingNav, html, sendHtml, seeOther, type Html } from './html.ts';

/**
 * The pages' operations: those of the account pages (facades/web/account/account-documents.ts) and of the
 * administration pages (facades/web/admin/admin-documents.ts), from the documents `npm run codegen`
 * generated for them.
 */
export type PageOperations = OperationsOf<typeof accountDocuments & typeof adminDocuments>;
type PageOperationName = keyof PageOperations & string;

/** What every page (administration, account, consent) shares. */
export interface PageDeps {
  contexts: Contexts;
  operations: Operations<PageOperations>;
  browser: Browser;
  /** The authorization server's issuer, as its metadata states it (RFC 9207 `iss`). */
  issuer: string;
  /** Budgets of password checks (sign-in, password change), spent before each check. */
  signInLimits: SignInLimits;
  /** Reverse proxies in front (TRUSTED_PROXIES): how far X-Forwarded-For is believed. */
  trustedProxies: number;
  /** Where a one-time secret is recorded as shown, for every instance (Redis or the database). */
  onceMarks: OnceMarks;
  log: Logger;
}

export const LOGIN_PATH = '/account/login';
/** The member's account page: also the profile address the member connector gives. */
export const SETTINGS_PATH = MEMBER_ACCOUNT_PATH;
export const SIGN_OUT_PATH = '/account/sign-out';
export const SIGN_OUT_EVERYWHERE_PATH = '/account/sign-out-everywhere';

/**
 * The header of every page for a signed-in member (the administration pages add their sections):
 * where to go, who is signed in, and sign-out. Without a member, the way to sign in.
 */
export function siteHeader(member: { name: string; admin?: boolean } | null, current?: 'account'): Html {
  // The administration link only for a member known to administer an organization: no link to a page they cannot use.
  const items = html`${member?.admin ? html`<li><a href="/admin">Packline admin</a></li>` : ''}
<li><a href="${SETTINGS_PATH}"${current === 'account' ? html` aria-current="page"` : ''}>Your account</a></li>
<li><a href="/api/v1/docs">API reference</a></li>
${member ? html`<li><a href="${SIGN_OUT_PATH}">Sign out</a></li>` : html`<li><a href="${LOGIN_PATH}">Sign in</a></li>`}`;
  return html`<header class="site">${foldingNav('Packline', items)}${member?.name ? html`<p class="who">${member.name}</p>` : ''}</header>`;
}

/** What each ability lets an application do, as the member reads it. */
export const ABILITIES: Record<string, string> = {
  'account:read': 'Read your name, the address of your account page and the organizations you belong to',
  'invitations:read': 'Read your pending team invitations (you accept or refuse them on Packline yourself)',
  'needs:draft': 'Prepare draft needs for your organizations: nothing is published until you review and publish it yourself',
};

export const NEVER = 'It can never publish anything, send a message, sign an agreement or submit an offer for you.';

export interface SignedIn {
  context: Context;
  /** The session cookie's value: what this browser's form tokens are bound to. */
  token: string;
}

/** The member signed in on this browser, or null. */
export async function signedIn(deps: PageDeps, req: Request): Promise<SignedIn | null> {
  const token = deps.browser.read(req, SESSION_COOKIE);
  if (!token) return null;
  const context = await deps.contexts.memberSession(token);
  return context ? { context, token } : null;
}

export function runAs<N extends PageOperationName>(
  deps: PageDeps,
  who: SignedIn | 'internal',
  operation: N,
  variables: VariablesOf<PageOperations[N]>,
): Promise<OperationOutcome<ResultOf<PageOperations[N]>>> {
  return deps.operations.run(operation, variables, who === 'internal' ? deps.contexts.forActor(INTERNAL) : who.context);
}

/** Sends the browser to sign in, then back to `returnTo` (a GET address). */
export function toLogin(res: Response, returnTo: string, requestId: string): void {
  seeOther(res, `${LOGIN_PATH}?return_to=${encodeURIComponent(returnTo)}`, requestId);
}

/** Printable ASCII: nothing that can split a header or that a header cannot carry. */
const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * Where a sign-in may lead back to: the consent page, an account or administration page, on
 * this site only. `value` must be a path of printable ASCII that `new URL(value, origin)` keeps
 * on `origin`; the answer is that URL's normalized path and query. Anything else, the account
 * settings.
 */
export function safeReturn(value: unknown, origin: string): string {
  if (typeof value !== 'string' || value.length > 4_000 || !PRINTABLE.test(value)) return SETTINGS_PATH;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return SETTINGS_PATH;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return SETTINGS_PATH;
  }
  if (url.origin !== origin) return SETTINGS_PATH;
  const path = `${url.pathname}${url.search}`;
  return path.startsWith('/oauth/consent?') || path.startsWith('/account/') || path === '/admin' || path.startsWith('/admin/')
    ? path
    : SETTINGS_PATH;
}

/** A path parameter of the route (`/orgs/:org`); express 5 types a parameter as possibly repeated. */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** Form fields as strings (urlencoded bodies); anything else reads as absent. */
export function field(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A form refused before it did anything: stale, forged, or from another site. */
export function refuseForm(res: Response, requestId: string, back: string): void {
  sendHtml(
    res,
    requestId,
    'This form has expired',
    html`<p>For your safety the form was not accepted. <a href="${back}">Open the page again</a> and retry.</p>`,
    { status: 403, header: siteHeader(null) },
  );
}

/** A domain failure the member can act on, as a page; defects go to the error handler. */
export function failurePage(res: Response, requestId: string, error: DomainError, back: Html): void {
  if (!['not_found', 'invalid_input', 'invalid_state', 'forbidden'].includes(error.code)) throw error;
  sendHtml(res, requestId, 'That did not work', html`<p class="error">${error.message}</p>${back}`, {
    status: error.code === 'not_found' ? 404 : 400,
    header: siteHeader({ name: '' }),
  });
}

export const requestIdOf = (res: Response) => String(res.getHeader('x-request-id') ?? '');

/** The client's address as the proxies in front (TRUSTED_PROXIES) report it, read as every per-address limit reads it. */
export const clientAddress = (deps: PageDeps, req: Request) => addressOf(req, deps.trustedProxies);

/** Too many password attempts: 429 with Retry-After. */
export function tooManyAttempts(res: Response, requestId: string, retryAfter: number, back: Html): void {
  const minutes = Math.ceil(retryAfter / 60);
  sendHtml(
    res,
    requestId,
    'Too many attempts',
    html`<p class="error">Too many password attempts. Nothing was checked. Try again in ${minutes} minute(s).</p>${back}`,
    {
      status: 429,
      headers: { 'retry-after': String(retryAfter) },
    },
  );
}
