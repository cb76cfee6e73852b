// A local stand-in for a team-chat provider's OAuth app (Slack-like): an authorize page that
// sends the admin back with a code, a token endpoint, and the incoming webhooks it hands out.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT_ID = 'packline-client';
export const CLIENT_SECRET = 'packline-client-secret-0123';

/** What the next authorize and token requests do. */
export type Mode = 'grant' | 'deny' | 'token-500' | 'token-refused' | 'bad-url';

export class StandInProvider {
  mode: Mode = 'grant';
  channel = '#ops <b>&';
  /** Every access token handed out: none may be kept by the service. */
  readonly tokens: string[] = [];
  /** Every incoming webhook URL handed out. */
  readonly hooks: string[] = [];
  readonly posted: { path: string; body: string }[] = [];
  tokenCalls = 0;
  origin = '';
  private readonly codes = new Map<string, string>();
  private readonly waiters = new Set<() => void>();
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.method === 'GET' && url.pathname === '/oauth/authorize') return this.authorize(url.searchParams, res);
        if (req.method === 'POST' && url.pathname === '/oauth/token') return this.token(new URLSearchParams(body), res);
        if (req.method === 'POST' && url.pathname.startsWith('/services/')) {
          this.posted.push({ path: url.pathname, body });
          res.writeHead(200).end('ok');
          for (const waiter of this.waiters) waiter();
          return;
        }
        res.writeHead(404).end();
      });
    });
  }

  get authorizeUrl() {
    return `${this.origin}/oauth/authorize`;
  }

  get env(): Record<string, string> {
    return {
      TEAM_CHAT_CLIENT_ID: CLIENT_ID,
      TEAM_CHAT_CLIENT_SECRET: CLIENT_SECRET,
      TEAM_CHAT_AUTHORIZE_URL: this.authorizeUrl,
      TEAM_CHAT_TOKEN_URL: `${this.origin}/oauth/token`,
    };
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once a message was posted to `hookUrl` (guarded against a hung test). */
  waitForPost(hookUrl: string): Promise<string> {
    const path = new URL(hookUrl).pathname;
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.posted.find((p) => p.path === path);
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found.body);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`nothing posted to ${path}`));
      }, 30_000);
      this.waiters.add(check);
      check();
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private authorize(query: URLSearchParams, res: import('node:http').ServerResponse) {
    // Only the incoming-webhook permission may be asked for, by the registered client.
    if (
      query.get('client_id') !== CLIENT_ID ||
      query.get('scope') !== 'incoming-webhook' ||
      !query.get('redirect_uri') ||
      !query.get('state')
    ) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad authorize request: ${query.toString()}`);
      return;
    }
    const back = new URL(query.get('redirect_uri')!);
    back.searchParams.set('state', query.get('state')!);
    if (this.mode === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = `code-${randomBytes(8).toString('hex')}`;
      this.codes.set(code, query.get('redirect_uri')!);
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() }).end();
  }

  private token(form: URLSearchParams, res: import('node:http').ServerResponse) {
    this.tokenCalls++;
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (this.mode === 'token-500') return json(500, { ok: false, error: 'internal_error' });
    const code = form.get('code') ?? '';
    const redirect = this.codes.get(code);
    this.codes.delete(code);
    if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET)
      return json(200, { ok: false, error: 'invalid_client' });
    if (this.mode === 'token-refused' || !redirect || redirect !== form.get('redirect_uri'))
      return json(200, { ok: false, error: 'invalid_code' });
    const token = `xoxb-stand-in-${randomBytes(12).toString('hex')}`;
    const hook =
      this.mode === 'bad-url'
        ? `ftp://127.0.0.1/services/${randomBytes(6).toString('hex')}`
        : `${this.origin}/services/T0001/B0001/${randomBytes(12).toString('hex')}`;
    this.tokens.push(token);
    this.hooks.push(hook);
    return json(200, {
      ok: true,
      access_token: token,
      token_type: 'bot',
      scope: 'incoming-webhook',
      incoming_webhook: { url: hook, channel: this.channel, channel_id: 'C0001' },
    });
  }
}
