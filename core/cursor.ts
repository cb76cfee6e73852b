import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from './errors.ts';

/** A keyset position: the sort value (epoch milliseconds) and the id that breaks ties. */
export interface KeysetPosition {
  at: number;
  id: string;
}

const MAX_CURSOR_LENGTH = 512;

/**
 * Opaque, tamper-evident keyset cursors: `base64url(json).base64url(hmac)`. The list name is
 * part of the signed payload, so a cursor of one list is refused by another.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(list: string, position: KeysetPosition): string {
    const body = Buffer.from(JSON.stringify({ l: list, t: position.at, i: position.id })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(list: string, cursor: string): KeysetPosition {
    const invalid = () => new DomainError('invalid_cursor', 'The cursor is malformed, altered or belongs to another list', 'cursor');
    if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) throw invalid();
    const dot = cursor.indexOf('.');
    if (dot <= 0) throw invalid();
    const body = cursor.slice(0, dot);
    // Compare the signature as text: base64url decoding ignores stray and trailing characters.
    const given = Buffer.from(cursor.slice(dot + 1));
    const expected = Buffer.from(this.sign(body));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    const p = payload as { l?: unknown; t?: unknown; i?: unknown };
    if (p.l !== list || typeof p.t !== 'number' || !Number.isFinite(p.t) || typeof p.i !== 'string') throw invalid();
    return { at: p.t, id: p.i };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest().subarray(0, 18).toString('base64url');
  }
}
