import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { DomainError } from './errors.ts';

/** A keyset position: the sort value (epoch milliseconds) and the id that breaks ties. */
export interface KeysetPosition {
  at: number;
  id: string;
}

const MAX_CURSOR_LENGTH = 512;
/** The signature: the first 18 bytes of the HMAC-SHA-256, as 24 base64url characters. */
const SIGNATURE_CHARS = 24;

/**
 * Opaque, tamper-evident keyset cursors: `base64url(json).base64url(hmac)`. The list name is
 * part of the signed payload, so a cursor of one list is refused by another.
 */
export class CursorCodec {
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret));
  }

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
    if (!sameText(cursor.slice(dot + 1), this.sign(body))) throw invalid();
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
    // 18 bytes are 24 base64url characters with no padding: the digest's text cut at 24 is theirs.
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, SIGNATURE_CHARS);
  }
}

/** Equal strings, in time that depends on their length only (a signature's check must not leak where it differs). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
