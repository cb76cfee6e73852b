// @ts-check
// What `packline help`, `--help` and `--version` print, and the answer to a mistyped command.
// Plain JavaScript (typed by JSDoc, checked by tsc) that imports nothing beyond node:fs and the
// command declarations: bin/packline.js answers these before any TypeScript loads, so they cost a
// bare Node start-up (type stripping alone adds about 0.1 s to the first .ts file a process loads).
import { readFileSync } from 'node:fs';
import { COMMANDS, EXIT_CODES, SECTIONS } from './command-specs.js';

/** @typedef {import('./command-specs.js').Spec} Spec */
/** @typedef {import('./command-specs.js').Group} Group */
/** @typedef {import('./command-specs.js').Flag} Flag */
/** @typedef {{ code: number, stdout?: string, stderr?: string }} Answer */

export { COMMANDS, EXIT_CODES };

/** @param {Spec | Group} command @returns {command is Group} */
export const isGroup = (command) => 'subcommands' in command;

/** @param {string} name */
export const isCommand = (name) => Object.hasOwn(COMMANDS, name);

/**
 * The declaration of `packline NAME` or `packline NAME SUB`, if there is one.
 * @param {string} command @param {string | undefined} sub @returns {Spec | undefined}
 */
export function specOf(command, sub) {
  const found = isCommand(command) ? COMMANDS[command] : undefined;
  if (!found) return undefined;
  if (!isGroup(found)) return sub === undefined ? found : undefined;
  return sub !== undefined && Object.hasOwn(found.subcommands, sub) ? found.subcommands[sub] : undefined;
}

/** @type {Flag} */
const JSON_FLAG = { name: 'json', help: 'print the result as JSON on stdout (and a failure as JSON on stderr)' };
/** @type {Flag} */
const HELP_FLAG = { name: 'help', help: 'show this help' };

/** @param {Flag} flag */
function flagText(flag) {
  const value = flag.value ? ` ${flag.value}` : '';
  if (flag.negation === 'only') return `--no-${flag.name}`;
  if (flag.negation === 'both') return `--${flag.name}, --no-${flag.name}`;
  return flag.name === 'help' ? '-h, --help' : `--${flag.name}${value}`;
}

/**
 * The one-line usage: `packline keys create --org ID --scopes LIST --expires-at ISO8601 [--name NAME] [--json]`.
 * @param {string} path `keys create`, `migrate` @param {Spec} spec
 */
export function usageLine(path, spec) {
  const flags = spec.flags.map((f) => {
    const text = f.negation === 'both' ? `--${f.name}|--no-${f.name}` : flagText(f);
    return f.required ? text : `[${text}]`;
  });
  return ['packline', path, spec.operand, ...flags, '[--json]'].filter(Boolean).join(' ');
}

/** @param {[string, string][]} rows @param {string} indent */
function columns(rows, indent = '  ') {
  const width = Math.min(28, Math.max(...rows.map(([left]) => left.length)));
  return rows
    .map(([left, right]) =>
      left.length > width ? `${indent}${left}\n${indent}${' '.repeat(width + 2)}${right}` : `${indent}${left.padEnd(width)}  ${right}`,
    )
    .join('\n');
}

const EXIT_LINE = `exit codes: ${Object.values(EXIT_CODES)
  .map((e) => `${e.code} ${e.help.split(':')[0]}`)
  .join(', ')} (packline help has the details)`;

const EXIT_TABLE = `Exit codes:\n${columns(Object.values(EXIT_CODES).map((e) => [String(e.code), e.help]))}`;

/**
 * The help of one runnable command: what it does, its usage, each flag, an example.
 * @param {string} path @param {Spec} spec
 */
export function commandHelp(path, spec) {
  const flags = [...spec.flags, JSON_FLAG, HELP_FLAG].map(
    (f) => /** @type {[string, string]} */ ([flagText(f), `${f.help}${f.required ? ' (required)' : ''}`]),
  );
  return [
    `packline ${path}: ${spec.summary}`,
    '',
    `usage: ${usageLine(path, spec)}`,
    '',
    'flags:',
    columns(flags),
    '',
    spec.examples.length > 1 ? 'examples:' : 'example:',
    ...spec.examples.map((e) => `  $ ${e}`),
    '',
    EXIT_LINE,
  ].join('\n');
}

/** The help of a group: its subcommands, one line each. @param {string} name @param {Group} group */
export function groupHelp(name, group) {
  return [
    `packline ${name}: ${group.summary}`,
    '',
    `usage: packline ${name} COMMAND [flags]`,
    '',
    'commands:',
    columns(Object.entries(group.subcommands).map(([sub, spec]) => [sub, spec.summary])),
    '',
    `Run 'packline ${name} COMMAND --help' for its flags and an example.`,
  ].join('\n');
}

/** The help of `packline NAME`. @param {string} name */
export function helpOf(name) {
  const command = COMMANDS[name];
  if (!command) throw new Error(`No command ${name}`);
  return isGroup(command) ? groupHelp(name, command) : commandHelp(name, command);
}

/** The overview: every command, grouped, and how the command behaves. */
export const USAGE = [
  'packline: the Packline service and its administration',
  '',
  'usage: packline COMMAND [SUBCOMMAND] [flags]',
  '       packline help [COMMAND [SUBCOMMAND]] | packline COMMAND [SUBCOMMAND] --help | packline --version [--json]',
  '',
  ...SECTIONS.map(([title, names]) => {
    /** @type {[string, string][]} */
    const rows = names.flatMap((name) => {
      const command = /** @type {Spec | Group} */ (COMMANDS[name]);
      return isGroup(command)
        ? Object.entries(command.subcommands).map(
            ([sub, spec]) => /** @type {[string, string]} */ ([`packline ${name} ${sub}`, spec.summary]),
          )
        : [/** @type {[string, string]} */ ([`packline ${name}`, command.summary])];
    });
    return `${title}\n${columns(rows)}\n`;
  }),
  'Every command takes --json for a machine-readable result on stdout (a failure is then JSON on',
  'stderr too: {"error":{"code":"not_found","message":"…"}}), and --help (or -h) for its flags and an',
  'example. Configuration comes from the environment (DATA_DIR, DATABASE_URL, …): see the README and',
  'docs/operations.md.',
  '',
  EXIT_TABLE,
].join('\n');

/** The version in package.json. @param {boolean} [json] */
export function version(json = false) {
  /** @type {{ version: string }} */
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  if (json) return JSON.stringify({ name: 'packline', version: pkg.version, node: process.versions.node });
  return `packline ${pkg.version} (Node ${process.versions.node})`;
}

/** Distance between two words: insertions, deletions, substitutions and swaps of neighbours. @param {string} a @param {string} b */
export function editDistance(a, b) {
  /** @type {number[][]} */
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = /** @type {number[]} */ (d[i]);
      const above = /** @type {number[]} */ (d[i - 1]);
      row[j] = Math.min(
        /** @type {number} */ (above[j]) + 1,
        /** @type {number} */ (row[j - 1]) + 1,
        /** @type {number} */ (above[j - 1]) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(/** @type {number} */ (row[j]), /** @type {number} */ (d[i - 2]?.[j - 2]) + 1);
    }
  }
  return /** @type {number} */ (d[a.length]?.[b.length]);
}

/**
 * The known names closest to a mistyped one (at most a third of its letters off, or one it starts).
 * @param {string} typed @param {string[]} known @returns {string[]}
 */
export function suggestions(typed, known) {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  const scored = known.map((name) => ({ name, distance: name.startsWith(typed) && typed.length >= 2 ? 0.5 : editDistance(typed, name) }));
  const best = Math.min(...scored.map((s) => s.distance));
  return best > limit ? [] : scored.filter((s) => s.distance === best).map((s) => s.name);
}

/**
 * How a failure is printed: `error: …` for a person, `{"error":{…}}` with --json.
 * @param {{ code: string, message: string, flag?: string }} failure @param {boolean} json
 */
export function formatFailure({ code, message, flag }, json) {
  if (json) return JSON.stringify({ error: { code, message, ...(flag ? { flag } : {}) } });
  return `error: ${message}${flag ? ` (${flag})` : ''}`;
}

/** @param {string} message @param {boolean} json @returns {Answer} */
const usageError = (message, json) => ({ code: EXIT_CODES.usage.code, stderr: formatFailure({ code: 'usage', message }, json) });

/** @param {string} what @param {string} typed @param {string[]} known @param {string} hint @param {boolean} json */
function unknown(what, typed, known, hint, json) {
  const close = suggestions(typed, known).map((s) => `'${what ? `${what} ` : ''}${s}'`);
  const guess = close.length ? ` Did you mean ${close.join(' or ')}?` : '';
  return usageError(`Unknown command '${what ? `${what} ` : ''}${typed}'.${guess} ${hint}`, json);
}

/**
 * Whether the arguments after the command ask for help (`--help` or `-h`, not as an option's value).
 * @param {string[]} args @param {Spec} [spec] the command's flags tell which ones take a value
 */
export function asksForHelp(args, spec) {
  const switches = new Set(['json', ...(spec?.flags ?? []).filter((f) => !f.value).flatMap((f) => [f.name, `no-${f.name}`])]);
  return args.some((arg, i) => {
    if (arg !== '--help' && arg !== '-h') return false;
    const previous = args[i - 1];
    if (previous === undefined || !previous.startsWith('--') || previous.includes('=')) return true;
    return switches.has(previous.slice(2));
  });
}

/**
 * `packline help [NAME [SUB]]`: the overview, a command's help, or what was mistyped.
 * @param {string[]} topic @param {boolean} json @returns {Answer}
 */
function helpTopic([name, sub, ...extra], json) {
  if (name === undefined) return { code: 0, stdout: USAGE };
  const command = isCommand(name) ? COMMANDS[name] : undefined;
  if (!command) return unknown('', name, Object.keys(COMMANDS), "Run 'packline help' for the list.", json);
  if (sub === undefined) return { code: 0, stdout: helpOf(name) };
  const spec = specOf(name, sub);
  if (!spec || extra.length > 0) {
    const known = isGroup(command) ? Object.keys(command.subcommands) : [];
    return unknown(name, [sub, ...extra].join(' '), known, `Run 'packline help ${name}' for its commands.`, json);
  }
  return { code: 0, stdout: commandHelp(`${name} ${sub}`, spec) };
}

/**
 * The answer to arguments that ask for help or the version, name no command, or name one that
 * does not exist; `undefined` when they name a command to run. Used by `main` and, before any
 * TypeScript loads, by bin/packline.js.
 * @param {string[]} argv @returns {Answer | undefined}
 */
export function answerWithoutRunning(argv) {
  const end = argv.indexOf('--');
  const [command, ...rest] = end === -1 ? argv : argv.slice(0, end);
  const json = rest.includes('--json');
  if (command === undefined) return { code: 0, stdout: USAGE };
  if (command === '--version' || command === '-V' || command === 'version') return { code: 0, stdout: version(json) };
  if (command === 'help' || command === '--help' || command === '-h')
    return helpTopic(
      rest.filter((a) => a !== '--json'),
      json,
    );
  const found = isCommand(command) ? COMMANDS[command] : undefined;
  if (!found) return unknown('', command, Object.keys(COMMANDS), "Run 'packline help' for the list.", json);
  if (!isGroup(found)) return asksForHelp(rest, found) ? { code: 0, stdout: commandHelp(command, found) } : undefined;
  const [sub, ...args] = rest;
  if (sub === undefined || sub.startsWith('-')) {
    if (asksForHelp(rest)) return { code: 0, stdout: groupHelp(command, found) };
    return usageError(`Missing command after '${command}'.\n\n${groupHelp(command, found)}`, json);
  }
  const spec = specOf(command, sub);
  if (!spec) return unknown(command, sub, Object.keys(found.subcommands), `Run 'packline ${command} --help' for its commands.`, json);
  return asksForHelp(args, spec) ? { code: 0, stdout: commandHelp(`${command} ${sub}`, spec) } : undefined;
}
