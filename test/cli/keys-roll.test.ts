import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { eventually, runInProcess, runJsonInProcess } from './run-cli.ts';

// `packline keys roll` against a running service: the new key printed once and working at once,
// the old one working on for the overlap; usage, not-found and state errors with their exit codes.

interface Key {
  id: string;
  key: string;
  name: string;
  scopes: string[];
  status: string;
  rolled: { id: string; status: string };
}

const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString();

describe('packline keys roll', () => {
  let stack: Stack;
  const cli = (...args: string[]) => runInProcess(args, stack.env);
  const json = <T = Key>(...args: string[]) => runJsonInProcess<T>(args, stack.env);
  const keys = async () => json<Key[]>('keys', 'list', '--org', 'cli-roll');

  beforeAll(async () => {
    stack = await startStack();
    await stack.graphql('mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }', {
      input: { id: 'cli-roll', profile: { name: 'Org cli-roll', plan: 'base' } },
    });
  });
  afterAll(() => stack?.close());

  it('prints the replacement once; both keys work until the old one winds down', async () => {
    const old = await json('keys', 'create', '--org', 'cli-roll', '--scopes', 'events:read', '--expires-at', inDays(30), '--name', 'CI');
    const human = await cli('keys', 'roll', old.id, '--overlap', '24h');
    expect(human.code, human.stderr).toBe(0);
    const key = /live_\S+/.exec(human.stdout)![0];
    expect(human.stdout).toContain('shown once');
    expect(human.stdout).toMatch(new RegExp(`The old key ${old.id} keeps working until \\S+`));
    for (const k of [old.key, key]) expect((await stack.get('/events?limit=1', { key: k })).status).toBe(200);

    const listed = await keys();
    expect(listed.find((k) => k.id === old.id)).toMatchObject({ status: 'retiring' });
    const rolledAgain = await json('keys', 'roll', listed.find((k) => k.status === 'active')!.id, '--overlap', 'now');
    expect(rolledAgain).toMatchObject({ name: 'CI', scopes: ['events:read'], rolled: { status: 'revoked' } });
    // The server learns of the revocation from the change feed, at once or within a poll of it.
    const status = async () => (await stack.get('/events?limit=1', { key })).status;
    expect(await eventually(status, (code) => code === 401, { what: 'the rolled key refused' })).toBe(401);
    expect((await stack.get('/events?limit=1', { key: rolledAgain.key })).status).toBe(200);
  });

  it('exits 2 on a missing or unknown overlap, 3 on an unknown key, 4 on a key that is not active', async () => {
    const missing = await cli('keys', 'roll', 'key_x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--overlap/);
    const unknown = await cli('keys', 'roll', 'key_x', '--overlap', 'forever');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('--overlap must be one of now, 1h, 24h, 7d');
    const absent = await cli('keys', 'roll', 'key_nope', '--overlap', '1h', '--json');
    expect(absent.code).toBe(3);
    expect(JSON.parse(absent.stderr)).toEqual({ error: { code: 'not_found', message: "No API key with id 'key_nope'" } });
    const { id } = (await keys()).find((k) => k.status === 'retiring')!;
    const retiring = await cli('keys', 'roll', id, '--overlap', '1h');
    expect(retiring.code).toBe(4);
    expect(retiring.stderr).toMatch(/^error: Only an active key can be rolled/);
  });
});
