import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import { INTERNAL, TEAM_CHAT_CALLBACK_PATH, teamChatCallbackUrl, type Logger, type TeamChatProvider } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import type { Operations } from '../operation-runner.ts';
import { cookieName, readCookie, SESSION_COOKIE } from '../kit/browser.ts';
import type { IntegrationOperations } from './integration-documents.ts';
import { pathOf, queryOf } from '../kit/node-http.ts';
import { sendPage } from '../kit/plain-page.ts';

const EXCHANGE_TIMEOUT_MS = 10_000;
const MAX_PROVIDER_ANSWER_BYTES = 64 * 1024;

export interface TeamChatRouteOptions {
  /** The provider's OAuth app; the flow answers 404 when unset. */
  provider: TeamChatProvider | undefined;
  publicBaseUrl: string;
  contexts: Contexts;
  operations: Operations<IntegrationOperations>;
  log: Logger;
}

type Exchange = { ok: true; url: string; channel: string } | { ok: false; reason: string };

/**
 * `GET /integrations/team-chat/callback?code&state`: the provider sends the admin back here. The
 * code is exchanged for the channel's incoming URL, which becomes a team-chat destination; the
 * access token that comes with it is never kept, stored or logged.
 */
export function createTeamChatCallback({ provider, publicBaseUrl, contexts, operations, log }: TeamChatRouteOptions) {
  return async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const path = pathOf(req.url);
    if (path !== TEAM_CHAT_CALLBACK_PATH) return sendPage(res, 404, { title: 'Not found', lines: [`Nothing at ${path}.`] }, requestId);
    if (req.method !== 'GET') {
      res.setHeader('allow', 'GET');
      return sendPage(
        res,
        405,
        { title: 'Method not allowed', lines: ['This address is opened by the team-chat provider with GET.'] },
        requestId,
      );
    }
    if (!provider) {
      return sendPage(
        res,
        404,
        {
          title: 'Not configured',
          lines: [
            'The team-chat connection flow is not configured on this service. Add the channel’s incoming webhook URL by hand instead.',
          ],
        },
        requestId,
      );
    }
    const query = queryOf(req.url);
    const refusal = query.get('error');
    if (refusal !== null) {
      return sendPage(
        res,
        200,
        {
          title: 'Connection refused',
          lines: [`The team-chat provider reports that access was not granted (${refusal.slice(0, 100)}).`, 'No destination was created.'],
        },
        requestId,
      );
    }
    const code = query.get('code');
    const state = query.get('state');
    if (!code || !state)
      return sendPage(
        res,
        400,
        { title: 'Connection failed', lines: ['The provider’s answer lacks its code or state. Start the connection again.'] },
        requestId,
      );

    // A flow started from the administration pages ends only in the browser session that started it.
    const token = readCookie(req, cookieName(SESSION_COOKIE, publicBaseUrl));
    const session = token ? await contexts.memberSession(token) : null;
    const sessionId = session?.actor.kind === 'memberSession' ? session.actor.sessionId : null;
    const pending = await operations.run('IntegrationPendingTeamChatConnection', { state, sessionId }, contexts.forActor(INTERNAL));
    if (!pending.ok) return failed(res, pending.error, requestId);

    const exchange = await exchangeCode(provider, code, teamChatCallbackUrl(publicBaseUrl));
    if (!exchange.ok) {
      log.warn({ req_id: requestId, reason: exchange.reason }, 'team-chat code exchange failed');
      return sendPage(
        res,
        502,
        {
          title: 'Connection failed',
          lines: [`The team-chat provider did not complete the connection (${exchange.reason}).`, 'Try again in a moment.'],
        },
        requestId,
      );
    }
    const done = await operations.run(
      'IntegrationCompleteTeamChatConnection',
      { state, incomingUrl: exchange.url, sessionId },
      contexts.forActor(INTERNAL),
    );
    if (!done.ok) return failed(res, done.error, requestId);
    const id = done.data.completeTeamChatConnection.id;
    return sendPage(
      res,
      200,
      {
        title: 'Connected',
        lines: [
          `Connected: ${exchange.channel} → destination ${id}`,
          'It is listed with your webhook destinations in the administration pages (/admin); you can close this page.',
        ],
      },
      requestId,
    );
  };
}

function failed(res: ServerResponse, error: { code: string; message: string }, requestId: string): void {
  if (['invalid_state', 'invalid_input', 'plan_limit', 'not_found'].includes(error.code)) {
    sendPage(res, 400, { title: 'Connection failed', lines: [error.message] }, requestId);
    return;
  }
  throw error;
}

/**
 * Trades the code for `{ ok: true, access_token, incoming_webhook: { url, channel } }` and keeps
 * only the incoming webhook: the token is never bound to anything that outlives this call.
 */
async function exchangeCode(provider: TeamChatProvider, code: string, redirectUri: string): Promise<Exchange> {
  let answer: unknown;
  try {
    const response = await request(provider.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code,
        redirect_uri: redirectUri,
      }).toString(),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      return { ok: false, reason: `HTTP ${response.statusCode}` };
    }
    answer = JSON.parse(await boundedText(response.body));
  } catch (error) {
    const name = (error as Error).name;
    return {
      ok: false,
      reason:
        name === 'TimeoutError' || name === 'AbortError'
          ? 'no answer within 10 s'
          : name === 'SyntaxError'
            ? 'unreadable answer'
            : 'unreachable',
    };
  }
  const fields = (answer ?? {}) as { ok?: unknown; error?: unknown; incoming_webhook?: { url?: unknown; channel?: unknown } };
  if (fields.ok !== true) {
    const error = typeof fields.error === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(fields.error) ? fields.error : 'refused';
    return { ok: false, reason: error };
  }
  const url = fields.incoming_webhook?.url;
  const channel = fields.incoming_webhook?.channel;
  if (typeof url !== 'string' || url === '') return { ok: false, reason: 'no incoming webhook in the answer' };
  return { ok: true, url, channel: typeof channel === 'string' && channel !== '' ? channel.slice(0, 100) : 'the chosen channel' };
}

async function boundedText(body: AsyncIterable<Buffer | Uint8Array> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_PROVIDER_ANSWER_BYTES) throw new SyntaxError('answer too large');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
