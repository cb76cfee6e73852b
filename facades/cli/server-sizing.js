// @ts-check
// How `packline start` sizes the server's memory (docs/operations.md, NODE_OPTIONS and
// MALLOC_ARENA_MAX). Plain JavaScript, importing nothing: bin/packline.js decides before any
// TypeScript loads, and re-executes itself in place with what this returns.
//
// The V8 heap is sized for a service that serves the API, not for the host:
// - a young generation of at most 32 MiB (two 16 MiB semi-spaces): on a host with much memory V8
//   grows it to 128 MiB, about 100 MiB more resident for no measured gain to the API;
// - an old generation of at most 1 GiB: below 2 GiB V8 lets the old generation grow by a smaller
//   factor between full collections (about 1.6× instead of up to 4×), so a live set of 65 MiB no
//   longer swells to 250 MiB of garbage before one.
// And glibc's malloc keeps at most two arenas (MALLOC_ARENA_MAX=2) where it would make one per
// thread that allocates (the webhook thread, the worker pool, libuv's threads), each holding on to
// memory of its own: under the REST benchmark the server's peak fell by about 10 MiB.
// An operator's own values win, given on node's command line or in NODE_OPTIONS.
//
// All three serve the API's memory. `--role dispatcher` serves no API and keeps V8's and glibc's
// own sizing: with the caps the dispatcher promotes about 5 KB a delivery into the old generation
// and delivered about a fifth less a second (docs/benchmarks.md). V8's flags are the process's
// (they override a worker's `resourceLimits`), so `--role all` keeps the caps for the API and for
// the dispatcher's thread (workers/dispatcher-thread.ts), whose own heap holds only its work.

export const SERVER_V8_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=1024'];
export const SERVER_MALLOC_ARENAS = '2';

/**
 * What `packline ARGV` must add to its own process before it runs: V8 flags and environment
 * variables, or undefined when nothing (not `start`, a dispatcher, or everything given already).
 * @param {string[]} argv the command's arguments (after `packline`)
 * @param {NodeJS.ProcessEnv} env
 * @param {string[]} execArgv node's own arguments
 * @returns {{ flags: string[], env: Record<string, string> } | undefined}
 */
export function serverSizing(argv, env, execArgv) {
  if (argv[0] !== 'start' || startRole(argv.slice(1), env) === 'dispatcher') return undefined;
  const given = `${execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`.replaceAll('_', '-');
  const flags = SERVER_V8_FLAGS.filter((flag) => !given.includes(flag.slice(0, flag.indexOf('='))));
  /** @type {Record<string, string>} */
  const variables = env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: SERVER_MALLOC_ARENAS } : {};
  return flags.length > 0 || Object.keys(variables).length > 0 ? { flags, env: variables } : undefined;
}

/**
 * The role `packline start` is asked for: its last `--role R` or `--role=R` (before any `--`),
 * else ROLE, else `all`, lower-cased. Read here only to size the memory: the command itself
 * checks the value and refuses an unknown one.
 * @param {string[]} args the arguments after `start`
 * @param {NodeJS.ProcessEnv} env
 */
export function startRole(args, env) {
  let role = env.ROLE ?? 'all';
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const arg = /** @type {string} */ (args[i]);
    if (arg === '--role') role = args[i + 1] ?? role;
    else if (arg.startsWith('--role=')) role = arg.slice('--role='.length);
  }
  return role.toLowerCase();
}
