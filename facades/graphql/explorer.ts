import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, type Logger, type SignInLimits } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import { answerAsset } from '../kit/static-asset.ts';
import { EXPLORER_COOKIE, EXPLORER_LOGIN_COOKIE, pagesServable, type Browser } from '../kit/browser.ts';
import { html, seeOther, sendHtml } from '../kit/html.ts';
import { ASSETS_PREFIX, type ExplorerAssets, loadExplorerAssets } from './explorer-assets.ts';
import { explorerPage } from './explorer-page.ts';
import { GRAPHQL_PATH } from './paths.ts';

// GraphiQL for internal teams at /graphql, in a browser. The internal token is entered once in
// a form; the browser then keeps it encrypted in an HttpOnly, SameSite=Strict cookie, which
// authorizes /graphql only together with a header the explorer page sends (a form token bound
// to that cookie), so no other page and no other site can use the session.

export const EXPLORER_SIGN_IN_PATH = `${GRAPHQL_PATH}/sign-in`;
export const EXPLORER_SIGN_OUT_PATH = `${GRAPHQL_PATH}/sign-out`;
/** The header carrying the explorer's form token on every request it sends to /graphql. */
export const EXPLORER_HEADER = 'x-packline-explorer';

/** How long a browser stays signed in to the explorer. */
const SESSION_SECONDS = 8 * 3600;
const FORM_SECONDS = 1_800;
const FORM_LIMIT_BYTES = 16 * 1024;
/** What the encrypted cookie says it is for, so no other sealed value of the pages can pass for it. */
const PURPOSE = 'graphql-explorer';
/** The sign-in budget's account key: every address shares it, as for a member's email. */
const SIGN_IN_ACCOUNT = 'internal-token';

export interface ExplorerOptions {
  contexts: Contexts;
  browser: Browser;
  signInLimits: SignInLimits;
  /** Reverse proxies in front (TRUSTED_PROXIES), for the sign-in budget per address. */
  trustedProxies: number;
  log: Logger;
}

export interface Explorer {
  /** A browser opening /graphql itself: GET, HTML accepted, no Authorization header. */
  wantsPage(req: IncomingMessage): boolean;
  /** The explorer when this browser is signed in, else the sign-in form. */
  page(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
  /** True for the explorer's own addresses under /graphql/: its files, sign-in and sign-out. */
  handles(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
  /** A request of the explorer page: a valid session cookie, its form token, and no other origin. */
  authorizes(req: IncomingMessage): boolean;
}

export function createExplorer({ contexts, browser, signInLimits, trustedProxies, log }: ExplorerOptions): Explorer {
  let assets: Promise<ExplorerAssets> | undefined;
  const load = () => {
    assets ??= loadExplorerAssets();
    assets.catch(() => (assets = undefined));
    return assets;
  };
  const servable = pagesServable(browser.origin);

  /** The session cookie's value when it holds the current internal token; what form tokens bind to. */
  function session(req: IncomingMessage): string | undefined {
    const value = browser.read(req, EXPLORER_COOKIE);
    const sealed = browser.decrypt<{ purpose?: unknown; token?: unknown }>(value);
    return sealed?.purpose === PURPOSE && typeof sealed.token === 'string' && contexts.isInternalToken(sealed.token) ? value : undefined;
  }

  function signInForm(res: ServerResponse, requestId: string, secret: string, error?: string, status = 200, retryAfter?: number): void {
    const body = html`<p>The GraphQL explorer is for Packline's internal teams: enter the internal API token. This browser then keeps
a session for ${SESSION_SECONDS / 3600} hours in a cookie no script can read; API clients keep sending
<code>Authorization: Bearer</code> instead.</p>
${error ? html`<p class="error" role="alert" id="token-error">${error}</p>` : ''}
<form method="post" action="${EXPLORER_SIGN_IN_PATH}">
<input type="hidden" name="csrf" value="${browser.csrf(secret, 'graphql-sign-in')}">
<label>Internal API token <input type="password" name="token" autocomplete="off" required${error ? html` aria-invalid="true" aria-describedby="token-error"` : ''}></label>
<button type="submit" class="primary">Sign in</button>
</form>`;
    const headers: Record<string, string> = {
      'set-cookie': browser.cookie(EXPLORER_LOGIN_COOKIE, secret, {
        maxAgeSeconds: FORM_SECONDS,
        path: GRAPHQL_PATH,
        sameSite: 'Strict',
      }),
      ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}),
    };
    sendHtml(res, requestId, 'Sign in to the GraphQL explorer', body, { status, headers });
  }

  function refused(res: ServerResponse, requestId: string): void {
    sendHtml(
      res,
      requestId,
      'This form has expired',
      html`<p>For your safety the form was not accepted. <a href="${GRAPHQL_PATH}">Open the explorer again</a> and retry.</p>`,
      { status: 403 },
    );
  }

  function unavailable(res: ServerResponse, requestId: string): void {
    sendHtml(
      res,
      requestId,
      'Unavailable',
      html`<p>The GraphQL explorer needs an https <code>PUBLIC_BASE_URL</code>; API clients can still send <code>Authorization: Bearer</code>.</p>`,
      { status: 503 },
    );
  }

  async function signIn(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const form = await readForm(req);
    if (!form) return sendHtml(res, requestId, 'This form could not be read', html`<p>Send the sign-in form itself.</p>`, { status: 400 });
    const secret = browser.read(req, EXPLORER_LOGIN_COOKIE);
    if (!secret || !browser.sameOrigin(req) || !browser.checkCsrf(secret, 'graphql-sign-in', form.get('csrf') ?? undefined)) {
      return refused(res, requestId);
    }
    // Spent before the token is compared: parallel guesses cannot outrun the count.
    const address = clientAddress(req, trustedProxies);
    const attempt = await signInLimits.attempt(address, SIGN_IN_ACCOUNT);
    if (!attempt.allowed) {
      const minutes = Math.ceil(attempt.retryAfter / 60);
      return signInForm(res, requestId, secret, `Too many attempts. Try again in ${minutes} minute(s).`, 429, attempt.retryAfter);
    }
    const token = (form.get('token') ?? '').trim();
    if (!contexts.isInternalToken(token)) {
      log.info({ req_id: requestId }, 'graphql explorer sign-in refused');
      return signInForm(res, requestId, secret, 'That is not the internal API token.', 401);
    }
    await signInLimits.succeeded(address, SIGN_IN_ACCOUNT);
    seeOther(res, GRAPHQL_PATH, requestId, [
      browser.cookie(EXPLORER_COOKIE, browser.encrypt({ purpose: PURPOSE, token }, SESSION_SECONDS), {
        maxAgeSeconds: SESSION_SECONDS,
        path: GRAPHQL_PATH,
        sameSite: 'Strict',
      }),
      browser.cookie(EXPLORER_LOGIN_COOKIE, '', { maxAgeSeconds: 0, path: GRAPHQL_PATH, sameSite: 'Strict' }),
    ]);
  }

  async function signOut(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const form = await readForm(req);
    const binding = browser.read(req, EXPLORER_COOKIE);
    if (!form || !binding || !browser.sameOrigin(req) || !browser.checkCsrf(binding, 'graphql-sign-out', form.get('csrf') ?? undefined)) {
      return refused(res, requestId);
    }
    seeOther(res, GRAPHQL_PATH, requestId, [
      browser.cookie(EXPLORER_COOKIE, '', { maxAgeSeconds: 0, path: GRAPHQL_PATH, sameSite: 'Strict' }),
    ]);
  }

  async function file(req: IncomingMessage, res: ServerResponse, requestId: string, name: string): Promise<void> {
    const asset = (await load()).files.get(name);
    if (!asset) return notFound(res, requestId);
    const answer = await answerAsset(asset, req.headers['accept-encoding'], req.headers['if-none-match']);
    const headers: Record<string, string> = {
      'cache-control': asset.cacheControl,
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    };
    for (let i = 0; i < answer.headers.length; i += 2) headers[answer.headers[i]!] = answer.headers[i + 1]!;
    if (answer.fresh) {
      res.writeHead(304, { ...headers, etag: answer.etag });
      return void res.end();
    }
    res.writeHead(200, { ...headers, 'content-type': asset.type, 'content-length': String(answer.body.length) });
    res.end(answer.body);
  }

  return {
    wantsPage: (req) => req.method === 'GET' && req.headers.authorization === undefined && (req.headers.accept ?? '').includes('text/html'),

    async page(req, res, requestId) {
      if (!servable) return unavailable(res, requestId);
      const binding = session(req);
      if (!binding) return signInForm(res, requestId, browser.read(req, EXPLORER_LOGIN_COOKIE) ?? browser.newLoginSecret());
      const { urls } = await load();
      explorerPage(res, requestId, {
        urls,
        requestToken: browser.csrf(binding, PURPOSE),
        signOutToken: browser.csrf(binding, 'graphql-sign-out'),
        signOutPath: EXPLORER_SIGN_OUT_PATH,
      });
    },

    handles: (url) => url.startsWith(`${GRAPHQL_PATH}/`),

    async handle(req, res, requestId) {
      const path = (req.url ?? '').split('?', 1)[0]!;
      if (req.method === 'GET' && path.startsWith(ASSETS_PREFIX)) return file(req, res, requestId, path.slice(ASSETS_PREFIX.length));
      if (!servable && (path === EXPLORER_SIGN_IN_PATH || path === EXPLORER_SIGN_OUT_PATH)) return unavailable(res, requestId);
      if (req.method === 'POST' && path === EXPLORER_SIGN_IN_PATH) return signIn(req, res, requestId);
      if (req.method === 'POST' && path === EXPLORER_SIGN_OUT_PATH) return signOut(req, res, requestId);
      return notFound(res, requestId);
    },

    authorizes(req) {
      if (!servable || req.headers.authorization !== undefined || !browser.sameOrigin(req)) return false;
      const binding = session(req);
      const given = req.headers[EXPLORER_HEADER];
      return binding !== undefined && browser.checkCsrf(binding, PURPOSE, given);
    },
  };
}

function notFound(res: ServerResponse, requestId: string): void {
  const body = JSON.stringify({ error: 'not_found', detail: 'Nothing at this address' });
  res.writeHead(404, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
  });
  res.end(body);
}

/** An urlencoded form of at most 16 KiB; null for anything else. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
