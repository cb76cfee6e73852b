// CLI habits: help for every command and subcommand, `--version`, "did you mean", exit codes.
// None of this opens a database: these run with no DATA_DIR or DATABASE_URL at all.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../facades/cli/main.ts';
import { EXIT_CODES, isGroup } from '../../facades/cli/usage.js';
import { runCli, runInProcess } from './run-cli.ts';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const noConfig = { DATA_DIR: undefined, DATABASE_URL: undefined };
const inProcess = (...argv: string[]) => runInProcess(argv, noConfig);

/** Every runnable command: `['keys', 'create']`, `['migrate']`. */
const PATHS = Object.entries(COMMANDS).flatMap(([name, command]) =>
  isGroup(command) ? Object.keys(command.subcommands).map((sub) => [name, sub]) : [[name]],
);
const specOf = (path: string[]) => {
  const command = COMMANDS[path[0]!]!;
  return isGroup(command) ? command.subcommands[path[1]!]! : command;
};

describe('packline help', () => {
  it('packline alone, help, --help and -h print the overview of every command on stdout and exit 0', async () => {
    for (const argv of [[], ['help'], ['--help'], ['-h']]) {
      const result = await inProcess(...argv);
      expect(result, argv.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^packline: the Packline service/);
      for (const path of PATHS) expect(result.stdout).toMatch(new RegExp(`^ {2}packline ${path.join(' ')}\\s`, 'm'));
      for (const { code } of Object.values(EXIT_CODES)) expect(result.stdout).toMatch(new RegExp(`^ {2}${code} {2}\\w`, 'm'));
    }
  });

  it.each(PATHS.map((path) => [path.join(' '), path]))(
    '%s: --help, -h, help … describe every flag it accepts, with an example, and exit 0',
    async (_name, path) => {
      const spec = specOf(path);
      for (const argv of [
        [...path, '--help'],
        [...path, '--json', '-h'],
        ['help', ...path],
      ]) {
        const result = await inProcess(...argv);
        expect(result, argv.join(' ')).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toContain(`usage: packline ${path.join(' ')}`);
        for (const flag of spec.flags) {
          const shown = flag.negation === 'only' ? `--no-${flag.name}` : `--${flag.name}`;
          expect(result.stdout).toMatch(
            new RegExp(`^ {2}${shown}\\b[^\\n]*\\s+${escapeRegExp(flag.help)}${flag.required ? ' \\(required\\)' : ''}$`, 'm'),
          );
        }
        expect(result.stdout).toMatch(new RegExp(`^examples?:\\n {2}\\$ packline ${escapeRegExp(path.join(' '))}`, 'm'));
        expect(result.stdout).toMatch(/^exit codes: 0 success, 1 unexpected failure, 2 usage, 3 not found, 4 refused, 5 conflict/m);
      }
    },
  );

  it('a usage error of a command exits 2, as JSON with --json', async () => {
    const result = await inProcess('keys', 'create', '--org', 'x', '--json');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(/^Missing --scopes, --expires-at\n/);
  });

  it('every command parses its arguments against the flags its help describes', async () => {
    for (const path of PATHS) {
      const result = await inProcess(...path, '--frobnicate');
      expect(result, path.join(' ')).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^error: Unknown option '--frobnicate'/);
      expect(result.stderr).toContain(`usage: packline ${path.join(' ')}`);
    }
  });

  it('orgs update --help lists every profile flag it accepts', async () => {
    const result = await inProcess('orgs', 'update', '--help');
    for (const flag of ['--name', '--plan', '--listed, --no-listed', '--demo, --no-demo', '--complete, --no-complete'])
      expect(result.stdout).toContain(`  ${flag}`);
    for (const flag of ['description', 'website', 'city', 'region', 'country', 'sectors', 'capabilities', 'networks'])
      expect(result.stdout).toMatch(new RegExp(`^ {2}--${flag} [A-Z]+ `, 'm'));
  });

  it('a group lists its subcommands: keys --help, help keys', async () => {
    for (const argv of [
      ['keys', '--help'],
      ['keys', '-h'],
      ['help', 'keys'],
    ]) {
      const result = await inProcess(...argv);
      expect(result, argv.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^usage: packline keys COMMAND/m);
      expect(result.stdout).toMatch(/^ {2}create +create an API key/m);
      expect(result.stdout).toMatch(/^ {2}revoke +revoke a key/m);
    }
  });

  it('--help after an option that takes a value is that value, not a request for help', async () => {
    const result = await inProcess('needs', 'publish', '--title', '--help');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^error: Option '--title' argument is ambiguous/);
  });

  it('a group without its subcommand is a usage error that shows the group help', async () => {
    const result = await inProcess('keys');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^error: Missing command after 'keys'\.\n\npackline keys: /);
  });
});

describe('did you mean', () => {
  it.each([
    [['ogrs', 'list'], "Unknown command 'ogrs'. Did you mean 'orgs'?"],
    [['destination', 'list'], "Unknown command 'destination'. Did you mean 'destinations'?"],
    [['orgs', 'shwo', 'x'], "Unknown command 'orgs shwo'. Did you mean 'orgs show'?"],
    [['destinations', 'puase', 'd'], "Unknown command 'destinations puase'. Did you mean 'destinations pause'?"],
    [['keys', 'revok', 'k'], "Unknown command 'keys revok'. Did you mean 'keys revoke'?"],
    [['help', 'membres'], "Unknown command 'membres'. Did you mean 'members'?"],
  ])('%j: exit 2 with the closest command', async (argv, message) => {
    const result = await inProcess(...argv);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(`error: ${message}`);
  });

  it('nothing close: no suggestion, the way to the list', async () => {
    const result = await inProcess('frobnicate');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe("error: Unknown command 'frobnicate'. Run 'packline help' for the list.\n");
  });

  it('with --json, the error is JSON on stderr', async () => {
    const result = await inProcess('orgs', 'lst', '--json');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'usage',
        message: "Unknown command 'orgs lst'. Did you mean 'orgs list'? Run 'packline orgs --help' for its commands.",
      },
    });
  });
});

describe('packline --version', () => {
  it('prints the package version, or JSON with --json', async () => {
    expect(await inProcess('--version')).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `packline ${PACKAGE_VERSION} (Node ${process.versions.node})\n`,
    });
    const json = await inProcess('--version', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ name: 'packline', version: PACKAGE_VERSION, node: process.versions.node });
  });
});

describe('the packline command (real processes, no configuration)', () => {
  // Node without type stripping fails on the first .ts file: help and --version load none.
  const noTypeScript = { nodeOptions: ['--no-experimental-strip-types'] };

  it('packline alone and keys create --help answer without loading TypeScript, on stdout, exit 0', async () => {
    const overview = await runCli([], noConfig, noTypeScript);
    expect(overview).toMatchObject({ code: 0, stderr: '' });
    expect(overview.stdout).toMatch(/^packline: the Packline service/);
    const help = await runCli(['keys', 'create', '--help'], noConfig, noTypeScript);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('usage: packline keys create --org ID');
  });

  it('--version (and --version --json) answer without loading TypeScript', async () => {
    const result = await runCli(['--version'], noConfig, noTypeScript);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`packline ${PACKAGE_VERSION} (Node ${process.versions.node})\n`);
    const json = await runCli(['--version', '--json'], noConfig, noTypeScript);
    expect(JSON.parse(json.stdout)).toMatchObject({ version: PACKAGE_VERSION });
  });

  it('a mistyped command exits 2 with a suggestion, without loading TypeScript', async () => {
    const result = await runCli(['ogrs', 'list'], noConfig, noTypeScript);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^error: Unknown command 'ogrs'\. Did you mean 'orgs'\?/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
