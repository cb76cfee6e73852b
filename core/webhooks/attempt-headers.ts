// The headers of one delivery attempt as stored with it (delivery_attempts.request_headers and
// response_headers): one `name: value` line per header, as HTTP writes them, small and bounded.
// A line needs no escaping (HTTP allows no line break in a header), so the text costs the
// dispatcher a concatenation per header, or for a usual answer one copy of its bytes; rows written
// before kept a JSON list of [name, value] pairs, and both read alike. Receivers' cookies are never
// kept; the signing secret is never among them (only the signatures computed with it).

/** Longest header name kept; a longer one is cut. */
const HEADER_NAME_CHARS = 100;
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
    const name = rawName.toLowerCase().slice(0, HEADER_NAME_CHARS);
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

/**
 * Response headers as undici hands them over: name, value, name, value… Read as latin1, as HTTP
 * sends them. The usual answer (a few short headers, no cookie) is written byte for byte into one
 * buffer and read back as one string: the dispatcher does this for every attempt, and building it
 * header by header made about 1 KB of garbage per attempt. Anything else takes the general way.
 */
export function rawHeadersText(raw: Buffer[]): string | null {
  const plain = plainRawHeadersText(raw);
  if (plain !== undefined) return plain;
  const text = new HeadersText();
  for (let i = 0; i + 1 < raw.length; i += 2) if (!text.add(raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1'))) break;
  return text.done();
}

const COLON = 0x3a;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** The names never stored, as bytes: their lengths, for a cheap first look. */
const DROPPED_LENGTHS = new Set([...DROPPED].map((name) => name.length));

/**
 * The stored text when nothing in `raw` needs a rule beyond lower-casing names: every name of
 * 1–HEADER_NAME_CHARS ASCII bytes and not dropped, every value within HEADER_VALUE_CHARS and
 * without a line break, at most HEADERS_KEPT headers and HEADERS_TEXT_CHARS in all. Otherwise
 * undefined.
 */
function plainRawHeadersText(raw: Buffer[]): string | null | undefined {
  const pairs = raw.length >> 1;
  if (pairs === 0) return null;
  if (pairs > HEADERS_KEPT) return undefined;
  let length = pairs - 1;
  for (let i = 0; i < pairs * 2; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    if (name.length === 0 || name.length > HEADER_NAME_CHARS || value.length > HEADER_VALUE_CHARS) return undefined;
    if (DROPPED_LENGTHS.has(name.length) && DROPPED.has(name.toString('latin1').toLowerCase())) return undefined;
    for (let b = 0; b < name.length; b++) {
      const byte = name[b]!;
      if (byte >= 0x80 || byte === NEWLINE || byte === CARRIAGE_RETURN || byte === COLON) return undefined;
    }
    if (value.includes(NEWLINE) || value.includes(CARRIAGE_RETURN)) return undefined;
    length += name.length + 2 + value.length;
  }
  if (length > HEADERS_TEXT_CHARS) return undefined;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (i > 0) out[at++] = NEWLINE;
    const name = raw[i]!;
    for (let b = 0; b < name.length; b++) {
      const byte = name[b]!;
      out[at++] = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
    }
    out[at++] = COLON;
    out[at++] = SPACE;
    at += raw[i + 1]!.copy(out, at);
  }
  return out.toString('latin1');
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
