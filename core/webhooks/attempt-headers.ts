// The headers of one delivery attempt as stored with it (delivery_attempts.request_headers and
// response_headers): JSON text of [name, value] pairs, small and bounded. Receivers' cookies are
// never kept; the signing secret is never among them (only the signatures computed with it).

/** Longest header value kept; a longer one ends with "…". */
export const HEADER_VALUE_CHARS = 512;
/** Most headers kept per attempt and side. */
export const HEADERS_KEPT = 40;
/** Longest stored text per attempt and side; headers past it are dropped. */
export const HEADERS_TEXT_CHARS = 4_096;

/** Headers never stored: a receiver's cookies belong to nobody reading the log. */
const DROPPED = new Set(['set-cookie', 'set-cookie2']);

export type HeaderPair = [name: string, value: string];

/** The stored text of `pairs` (names lower-cased), or null when there are none. */
export function headersText(pairs: Iterable<HeaderPair>): string | null {
  const kept: HeaderPair[] = [];
  let chars = 2;
  for (const [rawName, rawValue] of pairs) {
    if (kept.length >= HEADERS_KEPT) break;
    const name = rawName.toLowerCase().slice(0, 100);
    if (DROPPED.has(name)) continue;
    const value = rawValue.length > HEADER_VALUE_CHARS ? `${rawValue.slice(0, HEADER_VALUE_CHARS - 1)}…` : rawValue;
    const size = name.length + value.length + 8;
    if (chars + size > HEADERS_TEXT_CHARS) break;
    chars += size;
    kept.push([name, value]);
  }
  return kept.length === 0 ? null : JSON.stringify(kept);
}

/** Response headers as undici hands them over: name, value, name, value… */
export function rawHeadersText(raw: Buffer[]): string | null {
  const pairs: HeaderPair[] = [];
  for (let i = 0; i + 1 < raw.length && pairs.length < HEADERS_KEPT * 2; i += 2)
    pairs.push([raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1')]);
  return headersText(pairs);
}

/** The pairs of a stored text; an unreadable text reads as none. */
export function readHeaders(text: string | null | undefined): { name: string; value: string }[] | null {
  if (!text) return null;
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
