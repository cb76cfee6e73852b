import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './runtime.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Strict parsing: an unknown flag or a missing value is a clear error, never ignored. */
export function parse(args: string[], options: Options, usage: string): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
      allowNegative: true,
    });
    return { values: values as Parsed['values'], positionals };
  } catch (error) {
    throw new CliError(`${(error as Error).message.replace(/\. To specify.*$/s, '')}\nusage: ${usage}`);
  }
}

export function required(parsed: Parsed, name: string, usage: string): string {
  const value = parsed.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new CliError(`Missing --${name}\nusage: ${usage}`);
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

export function positional(parsed: Parsed, what: string, usage: string): string {
  const [value, ...rest] = parsed.positionals;
  if (!value) throw new CliError(`Missing ${what}\nusage: ${usage}`);
  if (rest.length > 0) throw new CliError(`Unexpected argument '${rest[0]}'\nusage: ${usage}`);
  return value;
}

export function noPositionals(parsed: Parsed, usage: string): void {
  if (parsed.positionals.length > 0) throw new CliError(`Unexpected argument '${parsed.positionals[0]}'\nusage: ${usage}`);
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

export const STRING = { type: 'string' } as const;
export const BOOLEAN = { type: 'boolean' } as const;
