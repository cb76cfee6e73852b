// @ts-check
// What `packline help`, `--help` and `--version` print. Plain JavaScript (typed by JSDoc, checked
// by tsc) that imports nothing beyond node:fs: bin/packline.js answers help and --version from
// here before any TypeScript loads, so they cost a bare Node start-up (type stripping alone adds
// about 0.1 s to the first .ts file a process loads).
import { readFileSync } from 'node:fs';

/** Each command's usage, shown by `packline help COMMAND` and `packline COMMAND --help`. */
/** @type {Record<string, string>} */
export const COMMAND_USAGE = {
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

/** @type {[string, string[]][]} */
const SECTIONS = [
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

/** @param {string} name */
export const isCommand = (name) => Object.hasOwn(COMMAND_USAGE, name);

/** The usage of one command. */
/**
 * @param {string} command
 * @returns {string}
 */
export function commandUsage(command) {
  return `usage:\n${COMMAND_USAGE[command]}\n\n${FOOTER}`;
}

/** The version in package.json. */
/** @returns {string} */
export function version() {
  /** @type {{ version: string }} */
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
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
/**
 * @param {string[]} args
 * @returns {boolean}
 */
export function asksForHelp(args) {
  return args.some((arg, i) => {
    if (arg === '--') return false;
    if (arg !== '--help' && arg !== '-h') return false;
    const previous = args[i - 1];
    if (previous === undefined || !previous.startsWith('--') || previous.includes('=')) return true;
    return BOOLEAN_FLAGS.has(previous.slice(2));
  });
}

/**
 * The answer to arguments that ask for help or the version, or `undefined` when they name a
 * command to run. Used by `main` and, before any TypeScript loads, by bin/packline.js.
 * @param {string[]} argv
 * @returns {{ code: number, stdout?: string, stderr?: string } | undefined}
 */
export function answerWithoutRunning(argv) {
  const [command, ...rest] = argv;
  if (command === undefined) return { code: 1, stderr: USAGE };
  if (command === 'help' || command === '--help' || command === '-h') {
    const [topic, ...extra] = rest;
    if (topic === undefined) return { code: 0, stdout: USAGE };
    if (!isCommand(topic) || extra.length > 0)
      return { code: 1, stderr: `error: Unknown command '${rest.join(' ')}'. Run 'packline help' for the list.` };
    return { code: 0, stdout: commandUsage(topic) };
  }
  if (command === '--version' || command === '-V' || command === 'version') return { code: 0, stdout: version() };
  const end = rest.indexOf('--');
  if (isCommand(command) && asksForHelp(end === -1 ? rest : rest.slice(0, end))) return { code: 0, stdout: commandUsage(command) };
  return undefined;
}
