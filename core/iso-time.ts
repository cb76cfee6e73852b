// Date.prototype.toISOString cost about a microsecond on this project's 2-core machine, and a list
// page of the API writes three instants per row. This writes the same text from arithmetic and a
// small cache of day prefixes ("2026-11-25T"), for about a fifth of that. Instants before 1970 or
// from year 10000 on (where toISOString writes a sign and six digits) and invalid dates go to
// toISOString.

const DAY_MS = 86_400_000;
const MAX_MS = 253_402_300_800_000; // 10000-01-01T00:00:00.000Z
const MAX_CACHED_DAYS = 4_096;
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1_000 }, (_, i) => String(i).padStart(3, '0'));
const dayPrefixes = new Map<number, string>();

function dayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= MAX_CACHED_DAYS) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}

/** The same text as `date.toISOString()` (and the same RangeError for an invalid date). */
export function isoString(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= 0 && ms < MAX_MS)) return date.toISOString();
  const day = Math.floor(ms / DAY_MS);
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1_000);
  return `${dayPrefix(day)}${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[rest - seconds * 1_000]}Z`;
}
