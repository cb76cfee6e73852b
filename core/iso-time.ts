// Date.prototype.toISOString cost about half a microsecond on this project's 2-core machine, and a
// list page of the API writes three instants per row. This writes the same text from arithmetic,
// in one String.fromCharCode call: the string is made flat, in one allocation. (Joining cached
// parts with a template, as this did before, made a chain of seven cons strings that JSON.stringify
// then flattened: 370 bytes an instant against 116, and 200 against 150 ns, serialized in a page.)
// Instants before 1970 or from year 10000 on (where toISOString writes a sign and six digits) and
// invalid dates go to toISOString.

const DAY_MS = 86_400_000;
const MAX_MS = 253_402_300_800_000; // 10000-01-01T00:00:00.000Z
const ZERO = 48;
const [DASH, COLON, DOT, T, Z] = ['-', ':', '.', 'T', 'Z'].map((c) => c.charCodeAt(0)) as [number, number, number, number, number];

/** The same text as `date.toISOString()` (and the same RangeError for an invalid date). */
export function isoString(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= 0 && ms < MAX_MS)) return date.toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1_000);
  const millis = rest - seconds * 1_000;
  // The civil date of a day count (Howard Hinnant's civil_from_days, for days ≥ 0).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return String.fromCharCode(
    ZERO + Math.floor(year / 1_000),
    ZERO + (Math.floor(year / 100) % 10),
    ZERO + (Math.floor(year / 10) % 10),
    ZERO + (year % 10),
    DASH,
    ZERO + Math.floor(month / 10),
    ZERO + (month % 10),
    DASH,
    ZERO + Math.floor(day / 10),
    ZERO + (day % 10),
    T,
    ZERO + Math.floor(hours / 10),
    ZERO + (hours % 10),
    COLON,
    ZERO + Math.floor(minutes / 10),
    ZERO + (minutes % 10),
    COLON,
    ZERO + Math.floor(seconds / 10),
    ZERO + (seconds % 10),
    DOT,
    ZERO + Math.floor(millis / 100),
    ZERO + (Math.floor(millis / 10) % 10),
    ZERO + (millis % 10),
    Z,
  );
}
