import type { Output, Runtime } from './runtime.ts';
import { COMMAND_USAGE, USAGE, answerWithoutRunning, asksForHelp, commandUsage, version } from './usage.js';

export { COMMAND_USAGE, USAGE, asksForHelp, commandUsage, version };

type Command = (rt: Runtime, args: string[], io: Io) => Promise<Output | undefined>;
type Group = (rt: Runtime, sub: string | undefined, args: string[]) => Promise<Output>;

/** A command group's module, loaded when it runs: help and --version load none of them. */
const group =
  (load: () => Promise<Group>): Command =>
  async (rt, [sub, ...args], _io) => {
    if (sub === undefined) throw new Error(`Missing command after '${rt.command}'.\n\n${commandUsage(rt.command)}`);
    return (await load())(rt, sub, args);
  };

const COMMANDS: Record<string, Command> = {
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

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const processIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** Runs one command; resolves to the process exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  let rt: Runtime | undefined;
  try {
    const answer = answerWithoutRunning(argv);
    if (answer) {
      if (answer.stdout !== undefined) io.out(answer.stdout);
      if (answer.stderr !== undefined) io.err(answer.stderr);
      return answer.code;
    }
    if (command === undefined) return 1;
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!run) throw new Error(`Unknown command '${command}'. Run 'packline help' for the list.`);
    const { Runtime } = await import('./runtime.ts');
    rt = new Runtime(command);
    const output = await run(rt, rest, io);
    if (output) io.out(json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    // CliError, ConfigError, DomainError alike: the message is written for the person at the keyboard.
    io.err(`error: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await rt?.close();
  }
}
