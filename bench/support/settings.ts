// Benchmark settings read from the environment.

/** A positive (or, with `zero`, non-negative) number from `name`, or `fallback` when unset; throws on anything else. */
export function positive(name: string, fallback: number, { zero = false, integer = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  const kind = integer ? 'integer' : 'number';
  if (!(integer ? Number.isInteger(n) : Number.isFinite(n)) || n < 0 || (n === 0 && !zero)) {
    throw new Error(`${name} must be a ${zero ? 'non-negative' : 'positive'} ${kind} (got '${raw}')`);
  }
  return n;
}
