import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Config, Logger, OnceMarks, SignInLimits } from '../../core/index.ts';
import { schema, type Contexts } from '../../schema/index.ts';
import * as accountDocuments from '../generated/web-account.ts';
import * as adminDocuments from '../generated/web-admin.ts';
import { Operations } from '../operation-runner.ts';
import { mountAccountPages } from './account/account-routes.ts';
import { mountOAuthPages } from './account/oauth/oauth-routes.ts';
import { mountPasswordResetPages } from './account/password-reset/reset-routes.ts';
import { mountInvitationPages } from './account/invitations/invitation-routes.ts';
import { mountDraftPages } from './account/drafts/drafts-routes.ts';
import { mountTeamInvitationPages } from './account/team-invitations/team-invitation-routes.ts';
import { ADMIN_PATH, mountAdminPages } from './admin/admin-pages.ts';
import { pagesServable, type Browser } from '../kit/browser.ts';
import { html, sendHtml, STYLESHEET, STYLESHEET_PATH, type Html } from '../kit/html.ts';

const stripTags = (markup: string) =>
  markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
import { SETTINGS_PATH, signedIn, siteHeader, type PageDeps } from '../kit/page-support.ts';

const PREFIXES = ['/oauth/', '/account/', `${ADMIN_PATH}/`];

export interface WebPages {
  /** True for the addresses of the pages: administration, account, sign-in and consent. */
  handles(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): void;
}

export interface WebPagesOptions {
  contexts: Contexts;
  config: Pick<Config, 'publicBaseUrl' | 'trustedProxies' | 'webhooks'>;
  /** The cookies, form tokens and sealed hand-offs, shared with the member connector's `/authorize`. */
  browser: Browser;
  /** Budgets of password checks: sign-in and the password change. */
  signInLimits: SignInLimits;
  /** Records one-time secrets as shown, for every instance and across restarts. */
  onceMarks: OnceMarks;
  log: Logger;
}

/**
 * Packline's server-rendered pages, for people in a browser: the member's sign-in, consent
 * (`/oauth/consent`, where the member connector's `/authorize` leads) and account pages, and the
 * administration pages of an organization's admins. Forms only, no script but the copy button;
 * each page runs named GraphQL operations as the signed-in member.
 */
export function createWebPages({ contexts, config, browser, signInLimits, onceMarks, log }: WebPagesOptions): WebPages {
  const handles = (url: string) => {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    return path === ADMIN_PATH || PREFIXES.some((p) => path.startsWith(p));
  };
  if (!pagesServable(config.publicBaseUrl)) {
    // Session cookies are Secure off loopback, so a plain-http address could never sign anyone in.
    log.warn(
      { public_base_url: config.publicBaseUrl },
      'account and administration pages disabled: PUBLIC_BASE_URL must be https (or http on localhost)',
    );
    return {
      handles,
      handle(_req, res, requestId) {
        sendHtml(
          res,
          requestId,
          'Unavailable',
          html`<p>These pages need an https <code>PUBLIC_BASE_URL</code>; ask the operator of this service.</p>`,
          { status: 503 },
        );
      },
    };
  }

  const issuer = new URL(config.publicBaseUrl).href;
  const deps: PageDeps = {
    contexts,
    operations: Operations.generated(schema, { ...accountDocuments, ...adminDocuments }),
    browser,
    issuer,
    signInLimits,
    trustedProxies: config.trustedProxies,
    onceMarks,
    log,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustedProxies);
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));
  app.get(STYLESHEET_PATH, (_req: Request, res: Response) => {
    // The name changes with the content: cached for a year.
    res.writeHead(200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
    res.end(STYLESHEET);
  });
  mountOAuthPages(app, deps);
  mountAccountPages(app, deps);
  mountPasswordResetPages(app, deps);
  mountInvitationPages(app, deps);
  mountDraftPages(app, deps);
  mountTeamInvitationPages(app, deps);
  mountAdminPages(app, deps, {
    teamChat: config.webhooks.teamChat,
    publicBaseUrl: config.publicBaseUrl,
    maxAttempts: config.webhooks.retrySchedule.length,
  });

  /** An error as the caller reads it: HTML with the site's navigation, or problem+json for an API client. */
  async function errorPage(req: Request, res: Response, status: number, title: string, detail: Html) {
    const requestId = String(res.getHeader('x-request-id') ?? '');
    if (req.accepts(['html', 'json']) === 'json') {
      const problem = JSON.stringify({ type: 'about:blank', title, status, detail: stripTags(detail.text), request_id: requestId });
      res.writeHead(status, { 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'x-request-id': requestId });
      return res.end(problem);
    }
    const member = await signedIn(deps, req).catch(() => null);
    sendHtml(
      res,
      requestId,
      title,
      html`${detail}<p><a href="/admin">Your organizations</a> · <a href="${SETTINGS_PATH}">Your account</a> · <a href="/api/v1/docs">API reference</a></p>`,
      {
        status,
        header: siteHeader(member ? { name: '' } : null),
      },
    );
  }

  app.use(async (req: Request, res: Response) => {
    await errorPage(req, res, 404, 'Page not found', html`<p>There is no page at <code>${req.path}</code>.</p>`);
  });
  app.use(async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = String(res.getHeader('x-request-id') ?? '');
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Body parser refusals: too large, malformed; or a body cut off after the server already
      // answered (the request deadline's 408).
      if (res.headersSent) return res.destroy();
      return errorPage(req, res, status, 'This form could not be read', html`<p>${(error as Error).message}.</p>`);
    }
    log.error({ req_id: requestId, err: error, path: req.path }, 'page request failed');
    if (res.headersSent) return res.destroy();
    await errorPage(
      req,
      res,
      500,
      'Something went wrong',
      html`<p>Nothing was changed. Quote request id <code>${requestId}</code> when reporting it.</p>`,
    );
  });

  return {
    handles,
    handle(req, res, requestId) {
      res.setHeader('x-request-id', requestId);
      app(req, res);
    },
  };
}
