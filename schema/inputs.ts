/**
 * GraphQL tells "absent" (leave unchanged) from `null`. The services read `undefined` as
 * unchanged and `null` as "clear", which only makes sense for clearable fields: elsewhere an
 * explicit null is read as absent.
 */
export function withoutNulls<T extends object, K extends keyof T = never>(
  input: T,
  clearable: readonly K[] = [],
): { [P in keyof T]?: P extends K ? T[P] : Exclude<T[P], null> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (value === null && !(clearable as readonly PropertyKey[]).includes(key)) continue;
    out[key] = value;
  }
  return out as never;
}
