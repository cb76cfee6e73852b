#!/usr/bin/env node
// @ts-check
// Entry point of the `packline` command. The sources are TypeScript, run by Node's own type
// stripping: no loader, no build step. This file and facades/cli/usage.js and server-sizing.js
// stay plain JavaScript: an older Node gets one line naming the version it needs rather than a
// syntax error, and help and --version answer before any TypeScript loads.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`packline needs Node.js 22.19 or later (24 LTS recommended); this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
const argv = process.argv.slice(2);
// `packline start` re-executes itself in place (same process id, signals and output) with the heap
// sizes and malloc arenas of a service rather than of the host, when not given its own.
const { serverSizing } = await import('../facades/cli/server-sizing.js');
const sizing = serverSizing(argv, process.env, process.execArgv);
if (sizing && typeof process.execve === 'function') {
  const args = [process.execPath, ...sizing.flags, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, args, { ...process.env, ...sizing.env });
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
