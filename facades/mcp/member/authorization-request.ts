import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { CONSENT_PATH } from '../../kit/consent-handoff.ts';
import { sendHtml } from '../../kit/html.ts';
import { requestIdOf, siteHeader } from '../../kit/page-support.ts';
import {
  CANNOT_CONTINUE,
  cannotContinueView,
  PACKLINE_FAILED,
  packlineFailedView,
  TOO_MANY,
  tooManyView,
  UNKNOWN_APPLICATION,
  unknownApplicationView,
} from './authorization-pages.ts';

/** Why an authorization request stops before the member is asked: OAuth's code and a sentence. */
export interface Refusal {
  error: 'invalid_request' | 'invalid_client';
  description: string;
}

type Params = Record<string, unknown>;

const refuse = (description: string): Refusal => ({ error: 'invalid_request', description });

/**
 * Everything the SDK's authorize handler validates, checked first so that each refusal is a
 * sentence rather than the SDK's validation dump. The abilities and the resource are the
 * provider's to judge (MemberOAuthProvider.authorize).
 */
export async function authorizationRefusal(params: Params, clients: OAuthRegisteredClientsStore): Promise<Refusal | undefined> {
  const repeated = Object.keys(params).find((name) => typeof params[name] !== 'string');
  if (repeated) return refuse(`The request gives ${repeated.slice(0, 40)} more than once; it must appear once.`);
  const clientId = params.client_id as string | undefined;
  if (!clientId) return refuse('The request does not say which application is asking (client_id is missing).');
  const client = await clients.getClient(clientId);
  if (!client) return { error: 'invalid_client', description: 'The application that sent you here is not registered with Packline.' };
  const redirectUri = params.redirect_uri as string | undefined;
  if (redirectUri === undefined && client.redirect_uris.length !== 1)
    return refuse('The application registered several return addresses but did not say which one to use (redirect_uri).');
  if (redirectUri !== undefined && !URL.canParse(redirectUri))
    return refuse('The address to send you back to (redirect_uri) is not a valid address.');
  if (redirectUri !== undefined && !client.redirect_uris.some((registered) => redirectUriMatches(redirectUri, registered)))
    return refuse('The application asked to send you back to an address it never registered with Packline, so Packline will not.');
  if (params.response_type !== 'code')
    return refuse('The application asked for a kind of answer Packline does not give (response_type must be code).');
  if (!params.code_challenge)
    return refuse('The application did not protect this request with PKCE (code_challenge is missing), so it cannot go on.');
  if (params.code_challenge_method !== 'S256')
    return refuse('The application must protect this request with PKCE’s S256 method (code_challenge_method must be S256).');
  if (params.resource !== undefined && !URL.canParse(params.resource as string))
    return refuse('The service the application wants to use (resource) is not a valid address.');
  return undefined;
}

/** The caller prefers JSON to HTML: a program, not a person's browser. */
export const wantsJson = (req: Request) => req.accepts(['html', 'json']) === 'json';

/**
 * `/authorize` for people: a request that cannot go on is a page in plain words (400), never a
 * redirect to an address nobody verified, nor JSON. Programs asking for JSON get the same words.
 * RFC 9700 §4.11: before the member has answered anything, the provider's refusals (abilities,
 * resource) are shown here too rather than redirected to the application's address, which anyone
 * can register (open redirector); only the hand-over to the consent page is redirected.
 */
export function authorizationPages(clients: OAuthRegisteredClientsStore, issuer: URL): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false }));
  router.all('/', async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'POST') return next();
    const refusal = await authorizationRefusal((req.method === 'POST' ? req.body : req.query) ?? {}, clients);
    if (!refusal) return next();
    res.setHeader('cache-control', 'no-store');
    if (wantsJson(req)) return res.status(400).json({ error: refusal.error, error_description: refusal.description });
    const clientId = typeof req.query.client_id === 'string' ? req.query.client_id : String(req.body?.client_id ?? '');
    if (refusal.error === 'invalid_client') return refusalPage(res, UNKNOWN_APPLICATION, unknownApplicationView(clientId));
    refusalPage(res, CANNOT_CONTINUE, cannotContinueView(refusal.error, refusal.description));
  });
  router.use((_req: Request, res: Response, next: NextFunction) => {
    const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
    res.redirect = ((a: number | string, b?: string | number) => {
      const [status, url] = typeof a === 'number' ? [a, String(b)] : [typeof b === 'number' ? b : 302, a];
      const target = new URL(url, issuer);
      if (target.origin === issuer.origin && target.pathname === CONSENT_PATH) return redirect(status, url);
      const error = target.searchParams.get('error') ?? 'invalid_request';
      if (error === 'server_error') return packlineFailed(res);
      const description = target.searchParams.get('error_description') || 'The application asked for something Packline cannot grant.';
      refusalPage(res, CANNOT_CONTINUE, cannotContinueView(error.slice(0, 60), description.slice(0, 300)));
    }) as Response['redirect'];
    next();
  });
  return router;
}

/** Too many authorization requests from this address, as a page for a person; false for a program. */
export function tooManyRequestsPage(req: Request, res: Response, retryAfter: number): boolean {
  if (wantsJson(req)) return false;
  const body = tooManyView(Math.ceil(retryAfter / 60));
  sendHtml(res, requestIdOf(res), TOO_MANY, body, {
    status: 429,
    headers: { 'retry-after': String(retryAfter) },
    header: siteHeader(null),
  });
  return true;
}

/** A failure of Packline itself on `/authorize`, as a page with the request id to quote. */
export function packlineFailed(res: Response): void {
  sendHtml(res, requestIdOf(res), PACKLINE_FAILED, packlineFailedView(requestIdOf(res)), { status: 500, header: siteHeader(null) });
}

function refusalPage(res: Response, title: string, body: ReturnType<typeof cannotContinueView>): void {
  sendHtml(res, requestIdOf(res), title, body, { status: 400, header: siteHeader(null) });
}
