// The Piscina task module: pure functions over plain data (structured-clone in, structured-clone out).
// Loaded by the pool's worker threads (Node strips the types) and called directly on the main thread.
import type { WebhookEnvelope } from '../core/webhooks/contract.ts';
import type { DeliveryJob, PreparedDelivery } from '../core/webhooks/envelope.ts';
import { renderSuiteCard } from './render/suite-card.ts';
import { renderTeamChat } from './render/team-chat.ts';
import { signatureHeaders } from './signing.ts';
import { headersText } from '../core/webhooks/attempt-headers.ts';

/** Sent with every delivery. */
export const USER_AGENT = 'Packline-Webhooks/1';

/** The request body of one job: the envelope itself, a chat message, or a suite card. */
export function renderBody(job: DeliveryJob): string {
  switch (job.format) {
    case 'standard-json':
      return job.envelope;
    case 'team-chat':
      return JSON.stringify(renderTeamChat(JSON.parse(job.envelope) as WebhookEnvelope, job.language));
    case 'collaboration-suite':
      return JSON.stringify(renderSuiteCard(JSON.parse(job.envelope) as WebhookEnvelope, job.language));
    default:
      throw new TypeError(`Unknown delivery format: ${String((job as { format: unknown }).format)}`);
  }
}

/**
 * Body and headers of one delivery (docs/design.md#webhook-envelope): `content-type`, `user-agent`,
 * `x-service-event-id` = `idempotency-key` = envelope id, `x-service-delivery-format`, and for
 * standard JSON with secrets the signature headers (chat and suite destinations have no secret),
 * `x-service-test: 1` for a test signal, and last `content-length`. The length is given rather
 * than left to the HTTP client so that the attempt keeps it: the client writes it last, and refuses
 * a request whose body has another length. `host` and `connection` are the sender's (send.ts).
 */
export function prepareDelivery(job: DeliveryJob): PreparedDelivery {
  const body = renderBody(job);
  const id = job.id;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event-id': id,
    'idempotency-key': id,
    'x-service-delivery-format': job.format,
  };
  if (job.format === 'standard-json' && job.secrets.length > 0) {
    Object.assign(headers, signatureHeaders(body, job.secrets, job.timestamp, id));
  }
  if (job.test) headers['x-service-test'] = '1';
  headers['content-length'] = String(Buffer.byteLength(body));
  return { body, headers, headersText: headersText(headers) };
}

/** Prepares a batch, in order: the task the worker pool runs. */
export function prepareDeliveries(jobs: DeliveryJob[]): PreparedDelivery[] {
  return jobs.map(prepareDelivery);
}

/** What the pool sends back for one job: standard JSON's body is the caller's own envelope text, so it stays behind. */
export type PooledDelivery = PreparedDelivery | Omit<PreparedDelivery, 'body'>;

/** The pool's task: `prepareDeliveries` without the standard-JSON bodies (no copy back across threads). */
export function preparePooledDeliveries(jobs: DeliveryJob[]): PooledDelivery[] {
  return jobs.map((job) => {
    const prepared = prepareDelivery(job);
    return job.format === 'standard-json' ? { headers: prepared.headers, headersText: prepared.headersText } : prepared;
  });
}
