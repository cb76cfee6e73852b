import { invalidInput } from '../errors.ts';
import { hasControlCharacters } from '../ids.ts';

/** What an e-signature provider tells: one envelope was signed or declined. */
export interface EsignNotification {
  eventId: string;
  envelopeId: string;
  status: 'signed' | 'declined';
  occurredAt: Date;
}

/** The largest notification body accepted, in bytes. */
export const MAX_ESIGN_BODY_BYTES = 256 * 1024;

const STATUSES = ['signed', 'declined'] as const;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Reads `{ "event_id", "envelope_id", "status": "signed" | "declined", "occurred_at": ISO 8601 }`.
 * Throws `invalid_input` naming the field at fault; other fields are ignored.
 */
export function parseEsignNotification(rawBody: string): EsignNotification {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw invalidInput('body', 'The notification body is not valid JSON');
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw invalidInput('body', 'The notification body must be a JSON object');
  const fields = payload as Record<string, unknown>;
  const status = fields.status;
  if (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status)) {
    throw invalidInput('status', `status must be one of ${STATUSES.join(', ')}`);
  }
  const occurredAt = fields.occurred_at;
  const date = typeof occurredAt === 'string' && ISO_INSTANT.test(occurredAt) ? new Date(occurredAt) : undefined;
  if (!date || Number.isNaN(date.getTime()))
    throw invalidInput('occurred_at', 'occurred_at must be an ISO 8601 date-time with a time zone');
  return {
    eventId: identifier('event_id', fields.event_id),
    envelopeId: identifier('envelope_id', fields.envelope_id),
    status: status as EsignNotification['status'],
    occurredAt: date,
  };
}

function identifier(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > 200 || hasControlCharacters(value)) {
    throw invalidInput(field, `${field} must be a string of 1 to 200 characters without control characters`);
  }
  return value;
}
