import { describe, expect, it } from 'vitest';
import { HEADERS_KEPT, HEADERS_TEXT_CHARS, headersText, rawHeadersText, readHeaders } from './attempt-headers.ts';

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

  it('reads nothing from no headers, and rows written as JSON pairs as before', () => {
    expect(headersText({})).toBeNull();
    expect(rawHeadersText([])).toBeNull();
    expect(readHeaders(null)).toBeNull();
    expect(readHeaders('[["date","Tue, 25 Nov 2026 12:00:00 GMT"]]')).toEqual([{ name: 'date', value: 'Tue, 25 Nov 2026 12:00:00 GMT' }]);
    expect(readHeaders('[not json')).toBeNull();
  });
});
