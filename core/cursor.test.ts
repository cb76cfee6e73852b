import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CursorCodec } from './cursor.ts';
import { DomainError } from './errors.ts';

describe('CursorCodec', () => {
  const codec = new CursorCodec('secret-one');

  it('round-trips a keyset position', () => {
    const cursor = codec.encode('opportunities', { at: 1_795_000_000_123, id: 'n_abc' });
    expect(codec.decode('opportunities', cursor)).toEqual({ at: 1_795_000_000_123, id: 'n_abc' });
  });

  it.each([
    ['a cursor of another list', () => codec.encode('events', { at: 1, id: 'x' })],
    ['a cursor signed with another secret', () => new CursorCodec('secret-two').encode('opportunities', { at: 1, id: 'x' })],
    ['a flipped body character', () => flip(codec.encode('opportunities', { at: 1, id: 'x' }), 2)],
    ['a flipped signature character', () => flip(codec.encode('opportunities', { at: 1, id: 'x' }), -2)],
    ['no signature', () => codec.encode('opportunities', { at: 1, id: 'x' }).split('.')[0]!],
    ['garbage', () => '%%%.###'],
    ['an empty string', () => ''],
    ['a very long string', () => 'a'.repeat(600)],
  ])('refuses %s as invalid_cursor', (_name, make) => {
    const attempt = () => codec.decode('opportunities', make());
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'invalid_cursor', field: 'cursor' }));
  });

  it('signs with the first 18 bytes of the HMAC-SHA-256 of the body, so cursors already handed out stay valid', () => {
    const body = Buffer.from(JSON.stringify({ l: 'opportunities', t: 42, i: 'n_q' })).toString('base64url');
    const signature = createHmac('sha256', 'secret-one').update(body).digest().subarray(0, 18).toString('base64url');
    expect(codec.encode('opportunities', { at: 42, id: 'n_q' })).toBe(`${body}.${signature}`);
    expect(codec.decode('opportunities', `${body}.${signature}`)).toEqual({ at: 42, id: 'n_q' });
  });

  it('refuses a correctly signed payload of the wrong shape', () => {
    const body = Buffer.from(JSON.stringify({ l: 'opportunities', t: 'soon', i: 3 })).toString('base64url');
    const signed = new CursorCodec('secret-one').encode('opportunities', { at: 0, id: '' }).split('.')[1]!;
    expect(() => codec.decode('opportunities', `${body}.${signed}`)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
});

function flip(text: string, index: number): string {
  const i = index < 0 ? text.length + index : index;
  const c = text[i]!;
  return text.slice(0, i) + (c === 'A' ? 'B' : 'A') + text.slice(i + 1);
}

describe('CursorCodec signature check', () => {
  const codec = new CursorCodec('secret-one');
  it.each([
    ['a trailing character', (c: string) => `${c}x`],
    ['a character outside base64url in the signature', (c: string) => `${c.slice(0, -3)}!${c.slice(-2)}`],
    ['padding', (c: string) => `${c}=`],
  ])('refuses a signature with %s', (_name, alter) => {
    const cursor = codec.encode('opportunities', { at: 5, id: 'n_x' });
    expect(() => codec.decode('opportunities', alter(cursor))).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
});
