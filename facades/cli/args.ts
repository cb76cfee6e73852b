import { parseArgs, type ParseArgsConfig } from 'node:util';
import { specOf, usageLine } from './usage.js';

/** A mistake of the person at the keyboard (exit code 2, see facades/cli/failure.ts). */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  /** The operand, for a command that takes one (`keys revoke KEY_ID`). */
  operand: string;
  /** The command's one-line usage, for messages. */
  usage: string;
}

/**
 * Parses a command's arguments against its declaration in command-specs.js (`keys create`):
 * an unknown flag, a missing value, a missing required flag or operand, or an extra argument is
 * a clear error, never ignored.
 */
export function parse(args: string[], path: string): Parsed {
  const [command = '', sub] = path.split(' ');
  const spec = specOf(command, sub);
  if (!spec) throw new Error(`No declaration of 'packline ${path}'`);
  const usage = usageLine(path, spec);
  const options: NonNullable<ParseArgsConfig['options']> = { json: { type: 'boolean' } };
  for (const flag of spec.flags) options[flag.name] = { type: flag.value ? 'string' : 'boolean' };
  let parsed: { values: Parsed['values']; positionals: string[] };
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, allowNegative: true }) as typeof parsed;
  } catch (error) {
    throw new CliError(`${(error as Error).message.replace(/\. To specify.*$/s, '')}\nusage: ${usage}`);
  }
  const [operand, ...extra] = parsed.positionals;
  const unexpected = spec.operand ? extra[0] : operand;
  if (unexpected !== undefined) throw new CliError(`Unexpected argument '${unexpected}'\nusage: ${usage}`);
  if (spec.operand && !operand) throw new CliError(`Missing ${spec.operand}\nusage: ${usage}`);
  const missing = spec.flags.filter((f) => f.required && !(typeof parsed.values[f.name] === 'string' && parsed.values[f.name] !== ''));
  if (missing.length > 0) throw new CliError(`Missing ${missing.map((f) => `--${f.name}`).join(', ')}\nusage: ${usage}`);
  return { values: parsed.values, operand: operand ?? '', usage };
}

/** A flag declared required (parse has checked it is there). */
export function required(parsed: Parsed, name: string): string {
  const value = parsed.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new CliError(`Missing --${name}\nusage: ${parsed.usage}`);
  return value;
}

export function optional(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function flag(parsed: Parsed, name: string): boolean | undefined {
  const value = parsed.values[name];
  return typeof value === 'boolean' ? value : undefined;
}

/** A flag whose value is one of `choices` (typed as such), or undefined when absent. */
export function oneOf<const C extends string>(parsed: Parsed, name: string, choices: readonly C[]): C | undefined {
  const value = optional(parsed, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new CliError(`--${name} must be one of ${choices.join(', ')} (got '${value}')\nusage: ${parsed.usage}`);
  return value as C;
}

/** `a,b, c` → ['a', 'b', 'c']. */
export const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** An ISO 8601 instant, checked here so the message names the flag. */
export function isoDate(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new CliError(`--${name} must be an ISO 8601 date or date-time with a time zone, such as 2027-01-31T00:00:00Z (got '${value}')`);
  }
  return value;
}
