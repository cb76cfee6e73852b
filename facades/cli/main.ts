import { readFileSync } from 'node:fs';
import { ConfigError } from '../../core/index.ts';
import { deliveries } from './commands/deliveries.command.ts';
import { destinations } from './commands/destinations.command.ts';
import { esign } from './commands/esign.command.ts';
import { events } from './commands/events.command.ts';
import { keys } from './commands/keys.command.ts';
import { grants } from './commands/grants.command.ts';
import { members } from './commands/members.command.ts';
import { needs } from './commands/needs.command.ts';
import { orgs } from './commands/orgs.command.ts';
import { migrate, seed, start } from './commands/server.command.ts';
import { CliError, Runtime, type Output } from './runtime.ts';

/** Each command's usage, shown by `packline help COMMAND` and `packline COMMAND --help`. */
export const COMMAND_USAGE: Record<string, string> = {
  start: `  packline start [--role all|api|dispatcher] [--no-demo] [--show-demo-key]
                                      serve (what \`npm start\` runs). --role, or ROLE: all (default) serves
                                      HTTP and delivers webhooks; api serves HTTP only; dispatcher delivers
                                      webhooks and answers /healthz, /readyz and /metrics only`,
  migrate: `  packline migrate                    bring the database schema up to date`,
  seed: `  packline seed                       load the demo data (once)
  packline seed [--needs N] [--events N]
                                      bulk-insert N generated public needs and N upcoming public events
                                      (at most 5,000,000 each) as already-published history: no outbox
                                      rows, so no webhook is sent for them; running servers see them`,
  orgs: `  packline orgs create --id ID --name NAME --plan base|alpha|clan [--unlisted] [--demo] [--incomplete]
  packline orgs update ID [...] | orgs show ID | orgs list`,
  keys: `  packline keys create --org ID --scopes organization:read,opportunities:read,events:read --expires-at ISO8601 [--name N]
  packline keys list --org ID | keys revoke KEY_ID`,
  needs: `  packline needs publish --org ID --title T --description D --expertise a,b [--remote] [--discreet] [--demo] [--draft]
  packline needs update ID [--title T] [--description D] [--expertise a,b] [--remote|--no-remote]
  packline needs withdraw ID | make-private ID | publish-draft ID | show ID | list [--org ID] [--state S]`,
  events: `  packline events create --org ID --title T --starts-at ISO --ends-at ISO [--online | --city C --country CC]
  packline events update ID [...] | cancel ID | show ID`,
  destinations: `  packline destinations create --org ID --format standard-json|team-chat|collaboration-suite --url URL
                               [--language en|fr] [--kinds need.created,...] [--scope platform|own]
  packline destinations list --org ID | delete ID | rotate-secret ID | enable ID | test ID
  packline destinations connect-team-chat --org ID [--language en|fr] [--kinds need.created,...] [--scope platform|own]
                               prints the provider's authorization address for an admin to open`,
  deliveries: `  packline deliveries list --org ID [--destination ID] | show DELIVERY_ID | retry DELIVERY_ID`,
  esign: `  packline esign connect --org ID --provider NAME   prints the inbound URL and the secret (shown once)
  packline esign list --org ID | esign disconnect CONNECTION_ID`,
  members: `  packline members create --email E --name N [--password P] [--org ID] [--role admin|member] | members list --org ID
  packline members set-password --email E --password P      every session and connected application ends
  packline members sign-out-everywhere --email E            every session and connected application ends`,
  grants: `  packline grants list --email E | grants revoke GRANT_ID`,
};

const FOOTER = `Every command takes --json for a machine-readable result on stdout, and --help (or -h) for its usage.
Errors go to stderr (exit 1). Configuration comes from the environment (DATA_DIR, DATABASE_URL, ...):
see the README and docs/operations.md.`;

const SECTIONS: [string, string[]][] = [
  ['Server', ['start', 'migrate', 'seed']],
  ['Organizations', ['orgs']],
  ['API keys', ['keys']],
  ['Needs', ['needs']],
  ['Events', ['events']],
  ['Webhooks', ['destinations', 'deliveries']],
  ['E-signature', ['esign']],
  ['Members', ['members']],
  ['Connected applications (member assistant connector)', ['grants']],
];

export const USAGE = [
  'packline: the Packline service and its administration',
  '',
  '  packline help [COMMAND] | packline COMMAND --help | packline --version',
  '',
  ...SECTIONS.map(([title, commands]) => `${title}\n${commands.map((c) => COMMAND_USAGE[c]).join('\n')}\n`),
  FOOTER,
].join('\n');

const isCommand = (name: string) => Object.hasOwn(COMMAND_USAGE, name);

/** The usage of one command. */
export function commandUsage(command: string): string {
  return `usage:\n${COMMAND_USAGE[command]}\n\n${FOOTER}`;
}

/** The version in package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return `packline ${pkg.version} (Node ${process.versions.node})`;
}

/** Flags that take no value: `--remote -h` asks for help, while `--title -h` gives the title "-h". */
const BOOLEAN_FLAGS = new Set([
  'json',
  'remote',
  'no-remote',
  'discreet',
  'demo',
  'no-demo',
  'draft',
  'unlisted',
  'incomplete',
  'online',
  'help',
  'show-demo-key',
]);

/** Whether the arguments after the command ask for help (`--help` or `-h`, not as an option's value). */
export function asksForHelp(args: string[]): boolean {
  return args.some((arg, i) => {
    if (arg === '--') return false;
    if (arg !== '--help' && arg !== '-h') return false;
    const previous = args[i - 1];
    if (previous === undefined || !previous.startsWith('--') || previous.includes('=')) return true;
    return BOOLEAN_FLAGS.has(previous.slice(2));
  });
}

type Group = (rt: Runtime, sub: string | undefined, args: string[]) => Promise<Output>;
const GROUPS: Record<string, Group> = { orgs, keys, needs, events, members, grants, destinations, deliveries, esign };

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
  const rt = new Runtime();
  try {
    if (command === undefined) {
      io.err(USAGE);
      return 1;
    }
    if (command === 'help' || command === '--help' || command === '-h') {
      const [topic, ...extra] = rest;
      if (topic === undefined) io.out(USAGE);
      else if (!isCommand(topic) || extra.length > 0)
        throw new CliError(`Unknown command '${rest.join(' ')}'. Run 'packline help' for the list.`);
      else io.out(commandUsage(topic));
      return 0;
    }
    if (command === '--version' || command === '-V' || command === 'version') {
      io.out(version());
      return 0;
    }
    if (isCommand(command) && asksForHelp(rest.slice(0, rest.indexOf('--') === -1 ? undefined : rest.indexOf('--')))) {
      io.out(commandUsage(command));
      return 0;
    }
    let output: Output | undefined;
    if (command === 'start') output = await start(rt, rest, io.out);
    else if (command === 'migrate') output = await migrate(rt, rest);
    else if (command === 'seed') output = await seed(rt, rest, io.err);
    else if (GROUPS[command]) {
      const [sub, ...args] = rest;
      if (sub === undefined) throw new CliError(`Missing command after '${command}'.\n\n${commandUsage(command)}`);
      output = await GROUPS[command](rt, sub, args);
    } else throw new CliError(`Unknown command '${command}'. Run 'packline help' for the list.`);
    if (output) io.out(json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    if (error instanceof CliError) io.err(`error: ${error.message}`);
    else if (error instanceof ConfigError) io.err(`error: ${error.message}`);
    else io.err(`error: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await rt.close();
  }
}
