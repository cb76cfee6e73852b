import { INTERNAL, coreOptions, loadConfig, openCore, DomainError, type Config, type Core } from '../../core/index.ts';
import { Contexts, schema } from '../../schema/index.ts';
import { Operations } from '../operations.ts';
import { CLI_OPERATIONS } from './cli-operations.ts';

/** A mistake of the person at the keyboard: printed on stderr, exit code 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export interface Output {
  /** Machine-readable result (printed with --json). */
  json: unknown;
  /** What a person reads. */
  text: string;
}

/**
 * What a command may use: the configuration, and named GraphQL operations run in-process as
 * an internal caller. The database opens on first use, so `--help` needs none.
 */
export class Runtime {
  /** The command being run (`orgs`, `start`, …). */
  readonly command: string;
  private core: Core | undefined;
  private operations: Operations | undefined;
  private configValue: Config | undefined;

  constructor(command: string) {
    this.command = command;
  }

  get config(): Config {
    this.configValue ??= loadConfig();
    return this.configValue;
  }

  async run<T>(operation: string, variables: Record<string, unknown> = {}): Promise<T> {
    this.core ??= await openCore(coreOptions(this.config, { changePollMs: 60_000 }));
    this.operations ??= new Operations(schema, CLI_OPERATIONS, { compileQueries: false });
    const contexts = new Contexts(this.core, this.config.internalApiToken);
    const outcome = await this.operations.run<T>(operation, variables, contexts.forActor(INTERNAL));
    if (!outcome.ok) throw new CliError(describe(outcome.error));
    return outcome.data;
  }

  async openCore(): Promise<Core> {
    this.core ??= await openCore(coreOptions(this.config, { changePollMs: 60_000 }));
    return this.core;
  }

  async close(): Promise<void> {
    await this.core?.close();
  }
}

function describe(error: DomainError): string {
  const flag = error.field ? ` (--${error.field.replace(/_/g, '-')})` : '';
  return `${error.message}${flag}`;
}

/** camelCase keys to snake_case, the public API's convention, recursively. */
export function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCase(v)]));
}

/** `key: value` lines for a person; nested objects are flattened with dots. */
export function describeRecord(record: Record<string, unknown>, prefix = ''): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const name = prefix + key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      lines.push(describeRecord(value as Record<string, unknown>, `${name}.`));
    else lines.push(`${name}: ${Array.isArray(value) ? value.map(listItem).join(', ') : String(value ?? '—')}`);
  }
  return lines.filter((l) => l !== '').join('\n');
}

/** A list entry; objects (GraphQL results have no prototype, hence no toString) as `k=v` pairs. */
function listItem(value: unknown): string {
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}=${String(v ?? '—')}`)
      .join(' ');
  return String(value);
}

/** A fixed-width table for lists. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (Array.isArray(v) ? v.map(listItem).join(',') : String(v ?? '—'));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}
