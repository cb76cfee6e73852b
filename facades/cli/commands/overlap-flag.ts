import { OVERLAPS, overlapNamed, type Overlap } from '../../../core/index.ts';
import { CliError, type Parsed } from '../args.ts';

/** The --overlap value (`1h`, or the GraphQL name `one_hour`) among `allowed`; a usage error otherwise. */
export function overlapFlag<T extends Overlap>(parsed: Parsed, allowed: readonly T[], value: string): T {
  const overlap = overlapNamed(allowed, value);
  if (overlap) return overlap;
  const shorts = allowed.map((o) => OVERLAPS[o].short).join(', ');
  throw new CliError(`--overlap must be one of ${shorts} (got '${value}')\nusage: ${parsed.usage}`);
}
