// Another checkout of Packline to measure beside this one (bench:paired, bench:server-cost): its
// directory checked, the environment and the Node it runs with, its commit.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './processes.ts';

/** A bad command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * Runs a benchmark script's `main` and exits with the code it gives: a UsageError
 * prints one line, `<script>: <message>`, and exits 2; any other failure prints its stack, exit 1.
 */
export function runScript(script: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`${script}: ${error.message}\n`);
        process.exit(2);
      }
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}

/**
 * The `--name value` options of a benchmark's command line (Node's parseArgs, strict), with
 * `--against` required and checked to be another checkout; a bad line throws a UsageError.
 */
export function checkoutOptions<Name extends string>(
  argv: string[],
  names: readonly Name[],
): { other: ReturnType<typeof otherCheckout>; values: Partial<Record<Name, string>> } {
  let values: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(['against', ...names].map((name) => [name, { type: 'string' as const }]));
    values = parseArgs({ args: argv, options, strict: true }).values as Record<string, string | undefined>;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (!values.against) throw new UsageError('--against DIR is required: a checkout to compare with, its dependencies installed');
  return { other: otherCheckout(values.against), values: values as Partial<Record<Name, string>> };
}

/** `dir` resolved, once checked to be another checkout with its dependencies installed. */
export function otherCheckout(dir: string): { dir: string; scripts: Record<string, string> } {
  const resolved = resolve(dir);
  if (resolved === ROOT) throw new UsageError('--against names this checkout: give another one');
  const manifest = join(resolved, 'package.json');
  if (!existsSync(manifest)) throw new UsageError(`${resolved} holds no package.json`);
  if (!existsSync(join(resolved, 'node_modules'))) throw new UsageError(`${resolved} has no node_modules: run npm ci there first`);
  const scripts = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  return { dir: resolved, scripts };
}

/**
 * The environment another checkout runs in: this one's without its own node_modules/.bin (which
 * holds this checkout's Node) and without the npm_* variables of the `npm run` that started this
 * process, so that the other checkout finds its own Node and package settings; with `node`, that
 * Node's folder first on the PATH.
 */
export function otherCheckoutEnv(node?: string): NodeJS.ProcessEnv {
  const mine = `${ROOT}${sep}`;
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('npm_')) env[key] = value;
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !(dir.startsWith(mine) && dir.includes('node_modules')));
  env.PATH = (node ? [dirname(node), ...path] : path).join(delimiter);
  return env;
}

/**
 * `path` resolved, once checked to be an executable file; else a UsageError. With `onPath`, also
 * named `node`: a checkout's npm scripts find it by a PATH lookup (bench:paired).
 */
export function nodeExecutable(path: string, { onPath = false } = {}): string {
  const resolved = resolve(path);
  try {
    accessSync(resolved, constants.X_OK);
    if (!statSync(resolved).isFile()) throw new Error('not a file');
  } catch {
    throw new UsageError(`--node takes an executable Node (got '${path}')`);
  }
  if (onPath && basename(resolved) !== 'node')
    throw new UsageError(`--node takes a file named node, which the other checkout's PATH then finds (got '${path}')`);
  return resolved;
}

/** The `node` that `env`'s PATH finds first, or undefined. */
export function nodeOnPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The short commit of a checkout, or 'unknown'. */
export function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
