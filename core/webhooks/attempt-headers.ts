// The headers of one delivery attempt as stored with it (delivery_attempts.request_headers and
// response_headers): one `name: value` line per header, as HTTP writes them, small and bounded.
// A line needs no escaping (HTTP allows no line break in a header), so the text costs the
// dispatcher a concatenation per header; rows written before kept a JSON list of [name, value]
// pairs, and both read alike. Receivers' cookies are never kept; the signing secret is never among
// them (only the signatures computed with it).

/** Longest header value kept; a longer one ends with "…". */
export const HEADER_VALUE_CHARS = 512;
/** Most headers kept per attempt and side. */
export const HEADERS_KEPT = 40;
/** Longest stored text per attempt and side; headers past it are dropped. */
export const HEADERS_TEXT_CHARS = 4_096;

/** Headers never stored: a receiver's cookies belong to nobody reading the log. */
const DROPPED = new Set(['set-cookie', 'set-cookie2']);
const LINE_BREAK = /[\r\n]/;

export type HeaderPair = [name: string, value: string];

/** The stored text, written as it goes (no list of pairs in between): built per attempt and side. */
class HeadersText {
  private text = '';
  private kept = 0;
  private full = false;

  /** Adds one header unless it is dropped or the text is full; false once nothing more fits. */
  add(rawName: string, rawValue: string): boolean {
    if (this.full) return false;
    const name = rawName.toLowerCase().slice(0, 100);
    if (DROPPED.has(name)) return true;
    const cut = rawValue.length > HEADER_VALUE_CHARS ? `${rawValue.slice(0, HEADER_VALUE_CHARS - 1)}…` : rawValue;
    // HTTP allows no line break in a header; one in a value given by hand must not split its line.
    const value = LINE_BREAK.test(cut) ? cut.replace(/[\r\n]+/g, ' ') : cut;
    const line = `${name}: ${value}`;
    if (this.text.length + line.length + 1 > HEADERS_TEXT_CHARS) {
      this.full = true;
      return false;
    }
    this.text = this.kept === 0 ? line : `${this.text}\n${line}`;
    if (++this.kept >= HEADERS_KEPT) this.full = true;
    return !this.full;
  }

  done(): string | null {
    return this.kept === 0 ? null : this.text;
  }
}

/** The stored text of `headers` (names lower-cased), or null when there are none. */
export function headersText(headers: Iterable<HeaderPair> | Record<string, string>): string | null {
  const text = new HeadersText();
  const pairs = Symbol.iterator in headers ? (headers as Iterable<HeaderPair>) : Object.entries(headers);
  for (const [name, value] of pairs) if (!text.add(name, value)) break;
  return text.done();
}

/** Response headers as undici hands them over: name, value, name, value… */
export function rawHeadersText(raw: Buffer[]): string | null {
  const text = new HeadersText();
  for (let i = 0; i + 1 < raw.length; i += 2) if (!text.add(raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1'))) break;
  return text.done();
}

/** The pairs of a stored text; an unreadable text reads as none. */
export function readHeaders(text: string | null | undefined): { name: string; value: string }[] | null {
  if (!text) return null;
  if (text.startsWith('[')) return readJsonPairs(text);
  const headers: { name: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(': ');
    if (colon > 0) headers.push({ name: line.slice(0, colon), value: line.slice(colon + 2) });
  }
  return headers.length === 0 ? null : headers;
}

/** The form of rows written before the line form. */
function readJsonPairs(text: string): { name: string; value: string }[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return null;
    return parsed
      .filter((p): p is HeaderPair => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string')
      .map(([name, value]) => ({ name, value }));
  } catch {
    return null;
  }
}
