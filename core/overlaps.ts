/**
 * How long a replaced credential keeps working after it is rolled or rotated: one list for API
 * keys and signing secrets; each names the choices it offers.
 */
export const OVERLAPS = {
  now: { seconds: 0, short: 'now', label: 'Stop now' },
  one_hour: { seconds: 3_600, short: '1h', label: '1 hour' },
  one_day: { seconds: 86_400, short: '24h', label: '24 hours' },
  three_days: { seconds: 3 * 86_400, short: '3d', label: '3 days' },
  seven_days: { seconds: 7 * 86_400, short: '7d', label: '7 days' },
} as const;

export type Overlap = keyof typeof OVERLAPS;

/** What rolling an API key offers. */
export const KEY_ROLL_OVERLAPS = ['now', 'one_hour', 'one_day', 'seven_days'] as const satisfies readonly Overlap[];
export type KeyRollOverlap = (typeof KEY_ROLL_OVERLAPS)[number];

/** What rotating a signing secret offers; `one_day` is what rotation always gave. */
export const SECRET_OVERLAPS = ['now', 'one_hour', 'one_day', 'three_days', 'seven_days'] as const satisfies readonly Overlap[];
export type SecretOverlap = (typeof SECRET_OVERLAPS)[number];

/** The choice named `value` (an enum name such as `one_hour`, or its short form `1h`) among `allowed`, or undefined. */
export function overlapNamed<T extends Overlap>(allowed: readonly T[], value: string): T | undefined {
  return allowed.find((o) => o === value || OVERLAPS[o].short === value);
}
