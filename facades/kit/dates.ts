// Dates as the pages show them: ISO strings cut to the minute or the second, in UTC.

/** `2026-11-22 10:00 UTC`, or a dash. */
export const at = (value: string | null | undefined) => (value ? `${value.slice(0, 16).replace('T', ' ')} UTC` : '—');

/** `2026-11-22 10:00:05 UTC`, for attempts seconds apart; or a dash. */
export const exactly = (value: string | null | undefined) => (value ? `${value.slice(0, 19).replace('T', ' ')} UTC` : '—');

/** `2026-11-22 10:00 UTC`, or `never`. */
export const when = (date: string | null) => (date ? `${date.slice(0, 16).replace('T', ' ')} UTC` : 'never');
