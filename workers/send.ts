import { Agent, errors, request } from 'undici';
import type { UrlPolicy } from '../core/webhooks/url-policy.ts';
import { guardedLookup } from '../core/webhooks/url-policy.ts';
import type { PreparedDelivery } from '../core/webhooks/envelope.ts';

/** The receiver's answer time allowed by the contract. */
export const DELIVERY_TIMEOUT_MS = 8_000;
const EXCERPT_BYTES = 2_048;
/** Bytes of a response read past the excerpt to keep the connection reusable; beyond, it is dropped. */
const DRAIN_BYTES = 64 * 1024;

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** Seconds asked for by a `Retry-After` header, when present and valid. */
  retryAfterSeconds: number | null;
  durationMs: number;
}

/** Keep-alive connections to receivers; every connection re-checks the resolved address. */
export function createSenderAgent(policy: UrlPolicy): Agent {
  return new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: DELIVERY_TIMEOUT_MS,
    bodyTimeout: DELIVERY_TIMEOUT_MS,
    connect: { timeout: DELIVERY_TIMEOUT_MS, lookup: guardedLookup(policy) },
  });
}

/** One POST; never throws. Redirects are not followed: a 3xx is a failed attempt. */
export async function send(agent: Agent, url: string, prepared: PreparedDelivery): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await request(url, {
      method: 'POST',
      headers: prepared.headers,
      body: prepared.body,
      dispatcher: agent,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const excerpt = await readExcerpt(response.body);
    const status = response.statusCode;
    return {
      statusCode: status,
      error: status >= 300 && status < 400 ? `redirect to ${String(response.headers.location ?? 'nowhere')} not followed` : null,
      responseExcerpt: excerpt,
      retryAfterSeconds: retryAfter(response.headers['retry-after']),
      durationMs: elapsed(),
    };
  } catch (error) {
    return { statusCode: null, error: describe(error), responseExcerpt: null, retryAfterSeconds: null, durationMs: elapsed() };
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (keptBytes < EXCERPT_BYTES) {
      kept.push(chunk.subarray(0, EXCERPT_BYTES - keptBytes));
      keptBytes += Math.min(chunk.length, EXCERPT_BYTES - keptBytes);
    }
    if (seen > DRAIN_BYTES) {
      body.destroy();
      break;
    }
  }
  if (keptBytes === 0) return null;
  // Cut on a character boundary: a split multi-byte sequence would become U+FFFD.
  return Buffer.concat(kept).toString('utf8').replace(/\uFFFD+$/, '');
}

function retryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A short, secret-free reason for the delivery log. */
function describe(error: unknown): string {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  const codes = chain.map((e) => (e as { code?: string }).code ?? '');
  const names = chain.map((e) => (e as { name?: string }).name ?? '');
  if (codes.includes('EFORBIDDENADDRESS')) return 'refused: the host resolves to a private or reserved address';
  if (names.includes('TimeoutError') || names.includes('AbortError') || codes.some((c) => c.startsWith('UND_ERR_') && c.includes('TIMEOUT'))) {
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
