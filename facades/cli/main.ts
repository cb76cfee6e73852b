import { failureOf } from './failure.ts';
import type { Output, Runtime } from './runtime.ts';
import { COMMANDS, USAGE, answerWithoutRunning, asksForHelp, formatFailure, helpOf, version } from './usage.js';

export { COMMANDS, USAGE, asksForHelp, helpOf, version };

type Command = (rt: Runtime, args: string[], io: Io) => Promise<Output | undefined>;
type Group = (rt: Runtime, sub: string, args: string[]) => Promise<Output>;

/** A command group's module, loaded when it runs: help and --version load none of them. */
const group =
  (load: () => Promise<Group>): Command =>
  async (rt, [sub = '', ...args]) =>
    (await load())(rt, sub, args);

const RUNNERS: Record<string, Command> = {
  start: async (rt, args, io) => (await import('./commands/server.command.ts')).start(rt, args, io.out),
  migrate: async (rt, args) => (await import('./commands/server.command.ts')).migrate(rt, args),
  seed: async (rt, args, io) => (await import('./commands/server.command.ts')).seed(rt, args, io.err),
  orgs: group(async () => (await import('./commands/orgs.command.ts')).orgs),
  keys: group(async () => (await import('./commands/keys.command.ts')).keys),
  needs: group(async () => (await import('./commands/needs.command.ts')).needs),
  events: group(async () => (await import('./commands/events.command.ts')).events),
  members: group(async () => (await import('./commands/members.command.ts')).members),
  grants: group(async () => (await import('./commands/grants.command.ts')).grants),
  destinations: group(async () => (await import('./commands/destinations.command.ts')).destinations),
  deliveries: group(async () => (await import('./commands/deliveries.command.ts')).deliveries),
  esign: group(async () => (await import('./commands/esign.command.ts')).esign),
};

/** Where a run writes, and the environment its configuration comes from. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** @default process.env */
  env?: Record<string, string | undefined>;
}

const processIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** Runs one command; resolves to the process exit code (see EXIT_CODES in command-specs.js). */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command = '', ...rest] = argv;
  const end = rest.indexOf('--');
  const json = (end === -1 ? rest : rest.slice(0, end)).includes('--json');
  let rt: Runtime | undefined;
  try {
    const answer = answerWithoutRunning(argv);
    if (answer) {
      if (answer.stdout !== undefined) io.out(answer.stdout);
      if (answer.stderr !== undefined) io.err(answer.stderr);
      return answer.code;
    }
    const run = RUNNERS[command];
    if (!run) throw new Error(`No runner for '${command}'`);
    const { Runtime } = await import('./runtime.ts');
    rt = new Runtime(command, io.env ?? process.env);
    const output = await run(rt, rest, io);
    if (output) io.out(json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    const failure = failureOf(error);
    io.err(formatFailure(failure, json));
    return failure.exitCode;
  } finally {
    await rt?.close();
  }
}
