// CLI habits: `packline --help`, `packline help COMMAND`, `--help`/`-h` on every command, `--version`.
// Help never opens a database: these run with no DATA_DIR or DATABASE_URL at all.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_USAGE, main } from '../../facades/cli/main.ts';
import { runCli } from './run-cli.ts';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function inProcess(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`) });
  return { code, stdout, stderr };
}

const SUBCOMMANDS: Record<string, string | undefined> = {
  start: undefined,
  migrate: undefined,
  seed: undefined,
  orgs: 'create',
  keys: 'create',
  needs: 'publish',
  events: 'create',
  destinations: 'create',
  deliveries: 'list',
  esign: 'connect',
  members: 'create',
  grants: 'list',
};

describe('packline help', () => {
  it('every command has its usage, and the overview lists them all', async () => {
    expect(Object.keys(COMMAND_USAGE).sort()).toEqual(Object.keys(SUBCOMMANDS).sort());
    const overview = await inProcess('help');
    expect(overview.code).toBe(0);
    expect(overview.stderr).toBe('');
    for (const command of Object.keys(COMMAND_USAGE)) expect(overview.stdout).toContain(`packline ${command}`);
    expect(overview.stdout).toContain('--help');
  });

  for (const [command, sub] of Object.entries(SUBCOMMANDS)) {
    it(`${command}: help ${command}, ${command} --help, ${command} -h${sub ? ` and ${command} ${sub} --help` : ''} print its usage and exit 0`, async () => {
      const asked = [
        ['help', command],
        [command, '--help'],
        [command, '-h'],
        ...(sub
          ? [
              [command, sub, '--help'],
              [command, sub, '--json', '-h'],
            ]
          : []),
      ];
      for (const argv of asked) {
        const result = await inProcess(...argv);
        expect(result, argv.join(' ')).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toMatch(/^usage:\n/);
        expect(result.stdout).toContain(`packline ${command}`);
        expect(result.stdout).not.toContain('Organizations\n'); // its own usage, not the overview
      }
    });
  }

  it('--help after an option that takes a value is that value, not a request for help', async () => {
    const result = await inProcess('needs', 'publish', '--title', '--help');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: Option '--title' argument is ambiguous/);
  });

  it('help for an unknown command is an error naming it', async () => {
    const result = await inProcess('help', 'frobnicate');
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe("error: Unknown command 'frobnicate'. Run 'packline help' for the list.\n");
  });

  it('a group without its subcommand is an error that shows the group usage', async () => {
    const result = await inProcess('keys');
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^error: Missing command after 'keys'\.\n\nusage:\n {2}packline keys create/);
  });
});

describe('the packline command (real processes, no configuration)', () => {
  const noConfig = { DATA_DIR: undefined, DATABASE_URL: undefined };

  it('packline --help and -h print the overview on stdout and exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await runCli([flag], noConfig);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^packline: the Packline service/);
      expect(result.stdout).toContain('packline destinations create');
    }
  });

  it('packline keys create --help prints usage where it used to be an unknown option', async () => {
    const result = await runCli(['keys', 'create', '--help'], noConfig);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('packline keys create --org ID');
  });

  it('packline --version prints the package version', async () => {
    const result = await runCli(['--version'], noConfig);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`packline ${PACKAGE_VERSION} (Node ${process.versions.node})\n`);
  });
});
