import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { INTERNAL, coreOptions, loadConfig, openCore, type Config, type Core } from '../../core/index.ts';
import { Contexts, schema } from '../../schema/index.ts';
import * as documents from '../generated/cli.ts';
import { Operations, type OperationsOf } from '../operation-runner.ts';

type CliOperations = OperationsOf<typeof documents>;

export interface Output {
  /** Machine-readable result (printed with --json). */
  json: unknown;
  /** What a person reads. */
  text: string;
}

/** Validated once per process: the in-process tests run many commands. */
let operations: Operations<CliOperations> | undefined;

/**
 * What a command may use: the configuration (from `env`), and the CLI's named GraphQL operations
 * (facades/generated/cli.ts) run in-process as an internal caller. The database opens on first
 * use, so a usage error needs none.
 */
export class Runtime {
  /** The command being run (`orgs`, `start`, …). */
  readonly command: string;
  private readonly env: Record<string, string | undefined>;
  private core: Core | undefined;
  private configValue: Config | undefined;

  constructor(command: string, env: Record<string, string | undefined> = process.env) {
    this.command = command;
    this.env = env;
  }

  get config(): Config {
    this.configValue ??= loadConfig(this.env);
    return this.configValue;
  }

  /** Runs one operation; a domain error (not found, invalid input, …) is thrown as it is. */
  async run<N extends keyof CliOperations & string>(
    operation: N,
    variables: VariablesOf<CliOperations[N]>,
  ): Promise<ResultOf<CliOperations[N]>> {
    const core = await this.openCore();
    operations ??= Operations.generated(schema, documents, { compileQueries: false, validateAll: false });
    const contexts = new Contexts(core, this.config.internalApiToken);
    const outcome = await operations.run(operation, variables, contexts.forActor(INTERNAL));
    if (!outcome.ok) throw outcome.error;
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

/** `createdAt` → `created_at`, at the type level: the JSON's field names, which the text uses too. */
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** A value after `snakeCase`: the JSON a command prints for it. */
export type SnakeCased<T> = T extends readonly (infer E)[]
  ? SnakeCased<E>[]
  : T extends object
    ? { [K in keyof T & string as Snake<K>]: SnakeCased<T[K]> }
    : T;

/** A column of a list: a top-level field of the JSON rows, or a nested one with a dot (`admin.state`). */
export type Column<T> = {
  [K in keyof T & string]: NonNullable<T[K]> extends readonly unknown[]
    ? Snake<K>
    : NonNullable<T[K]> extends object
      ? `${Snake<K>}.${Column<NonNullable<T[K]>>}`
      : Snake<K>;
}[keyof T & string];

/** camelCase keys to snake_case, the public API's convention, recursively. */
export function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCase(v)]));
}

/** One record: the JSON, and the same fields as `name: value` lines (`notes` follow them). */
export function recordOutput(value: object, ...notes: string[]): Output {
  const json = snakeCase(value) as Record<string, unknown>;
  return { json, text: [describeRecord(json), ...notes].join('\n') };
}

/** A list: the JSON rows, and a table of some of their fields under the same names. */
export function listOutput<T extends object>(rows: readonly T[], columns: readonly Column<T>[]): Output {
  const json = rows.map((row) => snakeCase(row) as Record<string, unknown>);
  return { json, text: table(json, columns) };
}

/** A short sentence for a person; the JSON is the record. */
export function sentenceOutput(value: object, text: string): Output {
  return { json: snakeCase(value), text };
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

/** The value at a dotted path. */
function at(row: Record<string, unknown>, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split('.'))
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** A fixed-width table for lists. */
export function table(rows: Record<string, unknown>[], columns: readonly string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (Array.isArray(v) ? v.map(listItem).join(',') : String(v ?? '—'));
  const cells = rows.map((row) => columns.map((c) => cell(at(row, c))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

interface Page<T> {
  edges: readonly { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Every node of a paginated list, asking for page after page. */
export async function allPages<T>(page: (after: string | null) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  let after: string | null = null;
  do {
    const { edges, pageInfo }: Page<T> = await page(after);
    all.push(...edges.map((edge) => edge.node));
    after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
  } while (after);
  return all;
}
