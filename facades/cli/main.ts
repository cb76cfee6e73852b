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

export const USAGE = `packline: the Packline service and its administration

Server
  packline start [--role all|api|dispatcher] [--no-demo] [--show-demo-key]
                                      serve (what \`npm start\` runs). --role, or ROLE: all (default) serves
                                      HTTP and delivers webhooks; api serves HTTP only; dispatcher delivers
                                      webhooks and answers /healthz, /readyz and /metrics only
  packline migrate                    bring the database schema up to date
  packline seed                       load the demo data (once)
  packline seed [--needs N] [--events N]
                                      bulk-insert N generated public needs and N upcoming public events
                                      (at most 5,000,000 each) as already-published history: no outbox
                                      rows, so no webhook is sent for them; running servers see them

Organizations
  packline orgs create --id ID --name NAME --plan base|alpha|clan [--unlisted] [--demo] [--incomplete]
  packline orgs update ID [...] | orgs show ID | orgs list

API keys
  packline keys create --org ID --scopes organization:read,opportunities:read,events:read --expires-at ISO8601 [--name N]
  packline keys list --org ID | keys revoke KEY_ID

Needs
  packline needs publish --org ID --title T --description D --expertise a,b [--remote] [--discreet] [--demo] [--draft]
  packline needs update ID [--title T] [--description D] [--expertise a,b] [--remote|--no-remote]
  packline needs withdraw ID | make-private ID | publish-draft ID | show ID | list [--org ID] [--state S]

Events
  packline events create --org ID --title T --starts-at ISO --ends-at ISO [--online | --city C --country CC]
  packline events update ID [...] | cancel ID | show ID

Webhooks
  packline destinations create --org ID --format standard-json|team-chat|collaboration-suite --url URL
                               [--language en|fr] [--kinds need.created,...] [--scope platform|own]
  packline destinations list --org ID | delete ID | rotate-secret ID | enable ID | test ID
  packline destinations connect-team-chat --org ID [--language en|fr] [--kinds need.created,...] [--scope platform|own]
                               prints the provider's authorization address for an admin to open
  packline deliveries list --org ID [--destination ID] | show DELIVERY_ID | retry DELIVERY_ID

E-signature
  packline esign connect --org ID --provider NAME   prints the inbound URL and the secret (shown once)
  packline esign list --org ID | esign disconnect CONNECTION_ID

Members
  packline members create --email E --name N [--password P] [--org ID] [--role admin|member] | members list --org ID
  packline members set-password --email E --password P      every session and connected application ends
  packline members sign-out-everywhere --email E            every session and connected application ends

Connected applications (member assistant connector)
  packline grants list --email E | grants revoke GRANT_ID

Every command takes --json for a machine-readable result on stdout. Errors go to stderr (exit 1).
Configuration comes from the environment (DATA_DIR, DATABASE_URL, ...): see the README.`;

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
      io.out(USAGE);
      return 0;
    }
    let output: Output | undefined;
    if (command === 'start') output = await start(rt, rest, io.out);
    else if (command === 'migrate') output = await migrate(rt, rest);
    else if (command === 'seed') output = await seed(rt, rest, io.err);
    else if (GROUPS[command]) {
      const [sub, ...args] = rest;
      if (sub === '--help' || sub === undefined) throw new CliError(`Missing command after '${command}'.\n\n${USAGE}`);
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
