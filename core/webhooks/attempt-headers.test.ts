import { describe, expect, it } from 'vitest';
import { HEADER_VALUE_CHARS, HEADERS_KEPT, HEADERS_TEXT_CHARS, headersText, rawHeadersText, readHeaders } from './attempt-headers.ts';

describe('attempt headers', () => {
  it('keeps one line per header, names lower-cased, and reads them back', () => {
    const text = headersText({ 'Content-Type': 'application/json', 'webhook-signature': 'v1,abc= v1,def=' });
    expect(text).toBe('content-type: application/json\nwebhook-signature: v1,abc= v1,def=');
    expect(readHeaders(text)).toEqual([
      { name: 'content-type', value: 'application/json' },
      { name: 'webhook-signature', value: 'v1,abc= v1,def=' },
    ]);
  });

  it("drops a receiver's cookies and keeps values with colons, quotes and empty ones", () => {
    const raw = ['Set-Cookie', 'session=secret', 'Location', 'https://a.example:8443/x?y="z"', 'X-Empty', ''].map((s) => Buffer.from(s));
    const text = rawHeadersText(raw);
    expect(text).not.toContain('secret');
    expect(readHeaders(text)).toEqual([
      { name: 'location', value: 'https://a.example:8443/x?y="z"' },
      { name: 'x-empty', value: '' },
    ]);
  });

  it('never lets a line break in a value start a header of its own', () => {
    const text = headersText([['x-note', 'one\r\nx-forged: two']]);
    expect(readHeaders(text)).toEqual([{ name: 'x-note', value: 'one x-forged: two' }]);
  });

  it('bounds the headers kept, each value and the whole text', () => {
    const many = Array.from({ length: 100 }, (_, i): [string, string] => [`x-${i}`, 'v']);
    expect(readHeaders(headersText(many))).toHaveLength(HEADERS_KEPT);
    const long = headersText([['x-long', 'a'.repeat(2_000)]]);
    expect(readHeaders(long)![0]!.value).toBe(`${'a'.repeat(511)}…`);
    const wide = Array.from({ length: 30 }, (_, i): [string, string] => [`x-${i}`, 'b'.repeat(400)]);
    const text = headersText(wide)!;
    expect(text.length).toBeLessThanOrEqual(HEADERS_TEXT_CHARS);
    expect(readHeaders(text)!.length).toBe(Math.floor((HEADERS_TEXT_CHARS + 1) / ('x-00: '.length + 400 + 1)));
  });

  it('stores raw answer headers exactly as their latin1 pairs would be, whatever they hold', () => {
    // rawHeadersText writes the usual answer byte for byte; every other case goes the general way.
    // Random answers with the edges of every rule, checked against headersText over the same pairs.
    let seed = 25;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const bytes = (length: number, alphabet: readonly number[]) => Buffer.from(Array.from({ length }, () => pick(alphabet)));
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const token = [...range(0x30, 0x39), ...range(0x41, 0x5a), ...range(0x61, 0x7a), 0x2d, 0x5f];
    const text = [...range(0x20, 0x7e), ...range(0x80, 0xff)];
    const names = ['Set-Cookie', 'set-cookie2', 'SET-COOKIE', 'Set-Cookies', 'Content-Type', 'x-ÄÖ', 'a:b', 'x\nforged', ''];
    const valueLengths = [0, 1, 20, HEADER_VALUE_CHARS - 1, HEADER_VALUE_CHARS, HEADER_VALUE_CHARS + 1, 2_000];
    const counts = [0, 1, 2, 5, HEADERS_KEPT - 1, HEADERS_KEPT, HEADERS_KEPT + 1, 60];
    // The whole text's cap, reached by plain headers only (each within every other rule).
    for (const count of [7, 8, 9]) {
      const raw = Array.from({ length: count }, (_, i) => [Buffer.from(`X-${i}`), Buffer.alloc(HEADER_VALUE_CHARS, 'b')]).flat();
      const pairs = Array.from({ length: count }, (_, i): [string, string] => [`X-${i}`, 'b'.repeat(HEADER_VALUE_CHARS)]);
      expect(rawHeadersText(raw), `${count} long headers`).toBe(headersText(pairs));
    }
    for (let round = 0; round < 2_000; round++) {
      const raw: Buffer[] = [];
      for (let h = pick(counts); h > 0; h--) {
        raw.push(
          random() < 0.1 ? Buffer.from(pick(names), 'latin1') : bytes(1 + Math.floor(random() * (random() < 0.05 ? 120 : 20)), token),
        );
        const value = bytes(pick(valueLengths), text);
        if (random() < 0.03) value[Math.floor(random() * value.length)] = pick([0x0a, 0x0d]);
        raw.push(value);
      }
      if (random() < 0.05) raw.push(Buffer.from('odd-one-out'));
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1')]);
      expect(rawHeadersText(raw), `round ${round}`).toBe(headersText(pairs));
    }
  });

  it('reads nothing from no headers, and rows written as JSON pairs as before', () => {
    expect(headersText({})).toBeNull();
    expect(rawHeadersText([])).toBeNull();
    expect(readHeaders(null)).toBeNull();
    expect(readHeaders('[["date","Tue, 25 Nov 2026 12:00:00 GMT"]]')).toEqual([{ name: 'date', value: 'Tue, 25 Nov 2026 12:00:00 GMT' }]);
    expect(readHeaders('[not json')).toBeNull();
  });
});
