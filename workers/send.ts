import type { IncomingHttpHeaders } from 'node:http';
import { Agent, errors, type Dispatcher } from 'undici';
import type { UrlPolicy } from '../core/webhooks/url-policy.ts';
import { guardedLookup } from '../core/webhooks/url-policy.ts';
import type { PreparedDelivery } from '../core/webhooks/envelope.ts';
import { rawHeadersText } from '../core/webhooks/attempt-headers.ts';

/** The receiver's answer time allowed by the contract. */
export const DELIVERY_TIMEOUT_MS = 8_000;
const EXCERPT_BYTES = 2_048;
/** Bytes of a response read past the excerpt to keep the connection reusable; beyond, it is dropped. */
const DRAIN_BYTES = 64 * 1024;
/** How often attempts in flight are checked against their deadline. */
const SWEEP_MS = 100;

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** Seconds asked for by a `Retry-After` header, when present and valid. */
  retryAfterSeconds: number | null;
  durationMs: number;
  /** The headers sent, signatures included, as stored (attempt-headers.ts); null when nothing was sent. */
  requestHeaders?: string | null;
  /** The receiver's headers, without cookies, as stored (attempt-headers.ts); null without an answer. */
  responseHeaders?: string | null;
}

/** Where a delivery goes, split once per destination rather than parsed for every attempt. */
export interface SendTarget {
  /** `https://host:port` */
  origin: string;
  /** Path and query. */
  path: string;
  /**
   * The lines the HTTP client writes before the request's own headers, as an attempt keeps them:
   * `host` (the URL's host, with its port unless it is the scheme's default, as undici writes it)
   * and `connection: keep-alive` (undici writes `close` only on a connection it will not reuse,
   * and never sends a request on one).
   */
  headerLines: string;
}

export function sendTarget(url: string): SendTarget {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, headerLines: `host: ${parsed.host}\nconnection: keep-alive` };
}

/**
 * Keep-alive connections to receivers; every connection re-checks the resolved address. HTTP/1.1
 * only: the headers an attempt keeps are those of an HTTP/1.1 request (HTTP/2 would send
 * `:authority` and no `connection`).
 */
export function createSenderAgent(policy: UrlPolicy): Agent {
  return new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: DELIVERY_TIMEOUT_MS,
    bodyTimeout: DELIVERY_TIMEOUT_MS,
    // Said to the connector (TLS offers only `http/1.1`) rather than to the agent, which would
    // then key its clients by a string built for every request.
    connect: { timeout: DELIVERY_TIMEOUT_MS, lookup: guardedLookup(policy), allowH2: false },
  });
}

/**
 * One POST; never throws. Redirects are not followed: a 3xx is a failed attempt. The whole
 * attempt, from dispatch to the end of the answer, gets DELIVERY_TIMEOUT_MS.
 *
 * It talks to the agent through its handler interface rather than `undici.request`: no response
 * stream, no promise per chunk, no abort signal and timer per request. That was about half of
 * the dispatcher's cost of a delivery.
 */
export function send(agent: Agent, target: SendTarget, prepared: PreparedDelivery): Promise<SendResult> {
  return new Promise((resolve) => {
    const sent = prepared.headersText === null ? target.headerLines : `${target.headerLines}\n${prepared.headersText}`;
    const attempt = new Attempt(resolve, sent);
    agent.dispatch({ origin: target.origin, path: target.path, method: 'POST', headers: prepared.headers, body: prepared.body }, attempt);
  });
}

/** undici's dispatch handler: callbacks on the request's controller, no response stream. */
class Attempt implements Dispatcher.DispatchHandler {
  readonly started = performance.now();
  readonly deadline = this.started + DELIVERY_TIMEOUT_MS;
  private controller: Dispatcher.DispatchController | undefined;
  private statusCode: number | null = null;
  private location: string | null = null;
  private retryAfterSeconds: number | null = null;
  private responseHeaders: string | null = null;
  private excerpt: Buffer[] = [];
  private excerptBytes = 0;
  private seen = 0;
  /** The answer was longer than DRAIN_BYTES: the connection is dropped, the attempt judged on what came. */
  private cutShort = false;
  private settled = false;

  private readonly resolve: (result: SendResult) => void;
  private readonly requestHeaders: string | null;

  constructor(resolve: (result: SendResult) => void, requestHeaders: string | null) {
    this.resolve = resolve;
    this.requestHeaders = requestHeaders;
    inFlight.add(this);
    sweep ??= setInterval(sweepDeadlines, SWEEP_MS).unref();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new errors.RequestAbortedError());
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.statusCode = statusCode;
    const raw = rawPairs(controller.rawHeaders, headers);
    this.responseHeaders = rawHeadersText(raw);
    if (statusCode < 200 || statusCode >= 300) this.readHeaders(raw);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.cutShort) return;
    this.seen += chunk.length;
    if (this.excerptBytes < EXCERPT_BYTES) {
      const kept = chunk.subarray(0, EXCERPT_BYTES - this.excerptBytes);
      this.excerpt.push(kept);
      this.excerptBytes += kept.length;
    }
    if (this.seen > DRAIN_BYTES) {
      this.cutShort = true;
      this.controller?.abort(new errors.ResponseExceededMaxSizeError());
      this.answered();
    }
  }

  onResponseEnd(): void {
    this.answered();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.cutShort) return;
    this.finish({ statusCode: null, error: describe(error), responseExcerpt: null, retryAfterSeconds: null });
  }

  /** Past the deadline: the attempt ends now, whatever the connection does later. */
  expire(now: number): void {
    if (now < this.deadline) return;
    this.finish({
      statusCode: null,
      error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`,
      responseExcerpt: null,
      retryAfterSeconds: null,
    });
    this.controller?.abort(new errors.RequestAbortedError());
  }

  private answered(): void {
    const status = this.statusCode;
    this.finish({
      statusCode: status,
      error: status !== null && status >= 300 && status < 400 ? `redirect to ${this.location ?? 'nowhere'} not followed` : null,
      responseExcerpt: excerptText(this.excerpt, this.excerptBytes),
      retryAfterSeconds: this.retryAfterSeconds,
      responseHeaders: this.responseHeaders,
    });
  }

  private finish(result: Omit<SendResult, 'durationMs'>): void {
    if (this.settled) return;
    this.settled = true;
    inFlight.delete(this);
    if (inFlight.size === 0 && sweep) {
      clearInterval(sweep);
      sweep = undefined;
    }
    this.resolve({
      responseHeaders: null,
      ...result,
      durationMs: Math.round(performance.now() - this.started),
      requestHeaders: this.requestHeaders,
    });
  }

  /** `Location` and `Retry-After`, read only from answers that are not a success. */
  private readHeaders(raw: Buffer[]): void {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toString('latin1').toLowerCase();
      if (name === 'location' && this.location === null) this.location = raw[i + 1]!.toString('latin1');
      else if (name === 'retry-after' && this.retryAfterSeconds === null)
        this.retryAfterSeconds = retryAfter(raw[i + 1]!.toString('latin1'));
    }
  }
}

/** The answer's headers as name, value, name, value…: the raw list when undici gives one, else the parsed object's. */
function rawPairs(raw: Dispatcher.DispatchController['rawHeaders'], parsed: IncomingHttpHeaders): Buffer[] {
  if (Array.isArray(raw)) return raw.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part));
  const pairs: Buffer[] = [];
  for (const [name, value] of Object.entries(raw ?? parsed)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      pairs.push(Buffer.from(name, 'latin1'), Buffer.from(one, 'latin1'));
  }
  return pairs;
}

const inFlight = new Set<Attempt>();
let sweep: NodeJS.Timeout | undefined;

function sweepDeadlines(): void {
  const now = performance.now();
  for (const attempt of inFlight) attempt.expire(now);
}

function excerptText(chunks: Buffer[], bytes: number): string | null {
  if (bytes === 0) return null;
  // Cut on a character boundary: a split multi-byte sequence would become U+FFFD.
  return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes)).toString('utf8').replace(/\uFFFD+$/, '');
}

function retryAfter(value: string): number | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A short, secret-free reason for the delivery log. */
function describe(error: unknown): string {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  const codes = chain.map((e) => (e as { code?: string }).code ?? '');
  const names = chain.map((e) => (e as { name?: string }).name ?? '');
  if (codes.includes('EFORBIDDENADDRESS')) return 'refused: the host resolves to a private or reserved address';
  if (
    names.includes('TimeoutError') ||
    names.includes('AbortError') ||
    codes.some((c) => c.startsWith('UND_ERR_') && c.includes('TIMEOUT'))
  ) {
    return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  if (codes.includes('ECONNRESET') || codes.includes('UND_ERR_SOCKET')) return 'connection reset by the receiver';
  if (codes.includes('ECONNREFUSED')) return 'connection refused';
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) return 'host name does not resolve';
  if (codes.some((c) => c.startsWith('ERR_TLS') || c.includes('CERT'))) return 'TLS handshake failed';
  if (error instanceof errors.UndiciError) return `connection error (${(error as { code?: string }).code ?? error.name})`;
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 200);
}
