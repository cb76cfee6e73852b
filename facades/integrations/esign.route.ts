import type { IncomingMessage, ServerResponse } from 'node:http';
import { TextDecoder } from 'node:util';
import { ESIGN_INBOUND_PREFIX, INTERNAL, MAX_ESIGN_BODY_BYTES } from '../../core/index.ts';
import type { Contexts } from '../../schema/index.ts';
import type { Operations } from '../operation-runner.ts';
import type { IntegrationOperations } from './integration-documents.ts';
import { pathOf, readBody, sendJson } from '../kit/node-http.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `POST /inbound/e-signature/<connectionId>`: an e-signature provider's notification, signed with
 * `X-Esign-Signature`. 200 `{ updated }` or `{ duplicate: true }`; 401 for any signature or
 * connection problem (one answer for both); 400 for a payload the service cannot read.
 */
export function createEsignInbound({ contexts, operations }: { contexts: Contexts; operations: Operations<IntegrationOperations> }) {
  return async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const path = pathOf(req.url);
    const segment = path.startsWith(ESIGN_INBOUND_PREFIX) ? path.slice(ESIGN_INBOUND_PREFIX.length) : '';
    if (segment === '' || segment.includes('/')) return sendJson(res, 404, { error: 'not_found', detail: `Nothing at ${path}` }, requestId);
    if (req.method !== 'POST')
      return sendJson(res, 405, { error: 'method_not_allowed', detail: 'Notifications are sent with POST' }, requestId, { allow: 'POST' });

    const raw = await readBody(req, MAX_ESIGN_BODY_BYTES);
    if (!raw)
      return sendJson(res, 413, { error: 'payload_too_large', detail: `The body exceeds ${MAX_ESIGN_BODY_BYTES} bytes` }, requestId, {
        connection: 'close',
      });
    let body: string;
    try {
      body = utf8.decode(raw);
    } catch {
      return sendJson(res, 400, { error: 'invalid_payload', detail: 'The body must be UTF-8 JSON' }, requestId);
    }
    const header = req.headers['x-esign-signature'];
    const outcome = await operations.run(
      'IntegrationReceiveEsignNotification',
      { connectionId: safeDecode(segment), body, hmac: typeof header === 'string' ? header : '' },
      contexts.forActor(INTERNAL),
    );
    if (outcome.ok) {
      const receipt = outcome.data.receiveEsignNotification;
      return sendJson(res, 200, receipt.duplicate ? { duplicate: true } : { updated: receipt.updated }, requestId);
    }
    if (outcome.error.code === 'forbidden') return sendJson(res, 401, { error: 'invalid_signature' }, requestId);
    if (outcome.error.code === 'invalid_input')
      return sendJson(res, 400, { error: 'invalid_payload', detail: outcome.error.message }, requestId);
    throw outcome.error;
  };
}

/** A malformed percent-encoding names no connection: passed on as is, to be refused like one. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
