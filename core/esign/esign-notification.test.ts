import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { parseEsignNotification } from './esign-notification.ts';

const valid = { event_id: 'ev_1', envelope_id: 'env_1', status: 'signed', occurred_at: '2026-11-22T10:00:00Z' };

function fieldOf(body: string): string | undefined {
  try {
    parseEsignNotification(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    return (error as DomainError).field;
  }
  throw new Error(`accepted ${body}`);
}

describe('parseEsignNotification', () => {
  it('reads the four fields and ignores others', () => {
    expect(parseEsignNotification(JSON.stringify({ ...valid, extra: 1 }))).toEqual({
      eventId: 'ev_1',
      envelopeId: 'env_1',
      status: 'signed',
      occurredAt: new Date('2026-11-22T10:00:00Z'),
    });
    expect(parseEsignNotification(JSON.stringify({ ...valid, status: 'declined' })).status).toBe('declined');
  });

  it('names the field at fault', () => {
    expect(fieldOf('{not json')).toBe('body');
    expect(fieldOf('[]')).toBe('body');
    expect(fieldOf(JSON.stringify({ ...valid, status: 'viewed' }))).toBe('status');
    expect(fieldOf(JSON.stringify({ ...valid, occurred_at: '2026-11-22' }))).toBe('occurred_at');
    expect(fieldOf(JSON.stringify({ ...valid, occurred_at: '2026-13-40T10:00:00Z' }))).toBe('occurred_at');
    expect(fieldOf(JSON.stringify({ ...valid, event_id: 7 }))).toBe('event_id');
    expect(fieldOf(JSON.stringify({ ...valid, event_id: 'x'.repeat(201) }))).toBe('event_id');
    expect(fieldOf(JSON.stringify({ ...valid, envelope_id: 'a\u0000b' }))).toBe('envelope_id');
  });
});
