#!/usr/bin/env node
// @ts-check
// Entry point of the `packline` command. The sources are TypeScript, run by Node's own type
// stripping: no loader, no build step. This file and facades/cli/usage.js stay plain JavaScript:
// an older Node gets one line naming the version it needs rather than a syntax error, and help
// and --version answer before any TypeScript loads.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`packline needs Node.js 22.19 or later (24 LTS recommended); this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
const argv = process.argv.slice(2);
// The server's V8 heap is sized for a service, not for the host (docs/operations.md):
// - a young generation of at most 32 MiB (two 16 MiB semi-spaces): on a host with much memory V8
//   grows it to 128 MiB, about 100 MiB more resident for no measured gain;
// - an old generation of at most 1 GiB: below 2 GiB V8 lets the old generation grow by a smaller
//   factor between full collections (about 1.6× instead of up to 4×), so a live set of 65 MiB no
//   longer swells to 250 MiB of garbage before one.
// And glibc's malloc keeps at most two arenas (MALLOC_ARENA_MAX=2) where it would make one per
// thread that allocates (the webhook thread, the worker pool, libuv's threads), each holding on to
// memory of its own: under the REST benchmark the server's peak fell by about 10 MiB.
// `packline start` re-executes itself in place (same process id, signals and output) with the
// flags it was not given, on the command line or in NODE_OPTIONS, and the variable when it is not
// set: an operator's own values win.
const SERVER_V8_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=1024'];
const SERVER_MALLOC_ARENAS = '2';
const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.replaceAll('_', '-');
const missing = SERVER_V8_FLAGS.filter((flag) => !given.includes(flag.slice(0, flag.indexOf('='))));
const arenas = process.env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: SERVER_MALLOC_ARENAS } : {};
if (argv[0] === 'start' && typeof process.execve === 'function' && (missing.length > 0 || 'MALLOC_ARENA_MAX' in arenas)) {
  const args = [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, args, { ...process.env, ...arenas });
}
const { answerWithoutRunning } = await import('../facades/cli/usage.js');
const answer = answerWithoutRunning(argv);
if (answer) {
  if (answer.stdout !== undefined) process.stdout.write(`${answer.stdout}\n`);
  if (answer.stderr !== undefined) process.stderr.write(`${answer.stderr}\n`);
  process.exitCode = answer.code;
} else {
  // Compiled code (and, on Node 24, the stripped TypeScript) kept between runs: each command
  // starts faster than the first. The cache lives in the system's temporary folder.
  (await import('node:module')).enableCompileCache?.();
  const { main } = await import('../facades/cli/main.ts');
  process.exitCode = await main(argv);
}
