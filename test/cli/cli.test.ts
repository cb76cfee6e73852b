// The admin CLI as an operator uses it, against the database of a running service whose HTTP
// answers show the effect of each command. Commands run in this process through `main(argv, io)`
// (what bin/packline.js runs past its Node check); a few run as real `packline` processes, to
// prove the binary itself: exit codes, a database command, `start` and its signals.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../support/database.ts';
import { startStack, type Stack } from '../support/stack.ts';
import type { EventJson, MemberJson, NeedJson, NewKeyJson, OrganizationJson, SeedJson } from './cli-json.ts';
import { eventually, runCli, runInProcess, runJsonInProcess, spawnCli, type CliProcess, type CliResult } from './run-cli.ts';

const DAY = 24 * 3600_000;
const SLOW = 60_000;
const ALL_SCOPES = 'organization:read,opportunities:read,events:read';
const inDays = (days: number, hours = 0) => new Date(Date.now() + days * DAY + hours * 3600_000).toISOString();

/**
 * The contract of every failing command: nothing on stdout, its exit code, and on stderr a message
 * (`error: …`) or, with --json, `{"error":{"code","message","flag"?}}`.
 */
function expectFailure(result: CliResult, exit: number, ...messages: RegExp[]) {
  expect(result.stdout, `stdout of a failing command (stderr: ${result.stderr})`).toBe('');
  expect(result.code, result.stderr).toBe(exit);
  let text = result.stderr;
  if (result.stderr.startsWith('{')) {
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string; flag?: string } };
    expect(error.code).toEqual(expect.any(String));
    text = `${error.message} ${error.flag ?? ''}`;
  } else expect(result.stderr).toMatch(/^error: /);
  for (const message of messages) expect(text).toMatch(message);
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'packline-cli-'));
}

describe('packline against a running service', () => {
  let stack: Stack;
  const cli = (...args: string[]) => runInProcess(args, stack.env);
  const json = <T = unknown>(...args: string[]) => runJsonInProcess<T>(args, stack.env);
  const status = async (path: string, key?: string) => (await stack.get(path, key === undefined ? {} : { key })).status;

  beforeAll(async () => {
    stack = await startStack();
    // Organizations other tests start from, made through the server's internal GraphQL.
    for (const [id, plan] of [
      ['listed-co', 'base'],
      ['keys-base', 'base'],
      ['limit-base', 'base'],
    ]) {
      await stack.graphql('mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }', {
        input: { id, profile: { name: `Org ${id}`, plan } },
      });
    }
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'dana@listed-co.example', name: 'Dana Roy', organizationId: 'listed-co', role: 'admin' },
    });
  });
  afterAll(() => stack?.close());

  it(
    'orgs create --json returns the new organization, which the running server then has',
    async () => {
      const created = await json<OrganizationJson>('orgs', 'create', '--id', 'acme-tools', '--name', 'Acme Tools', '--plan', 'base');
      expect(created).toMatchObject({ id: 'acme-tools', name: 'Acme Tools', plan: 'base', listed: true, demo: false, complete: true });
      expect(created.allowances).toMatchObject({ active_keys: 1 });
      expect(created.partner_payment).toEqual({ confirmed_rate_percent: null, partners_count: 0 });
      expect(created.proofs).toEqual({ completed_packs: 0, references: 0, certifications: 0 });
      const seen = await stack.graphql<{ organization: { name: string; plan: string } }>(
        '{ organization(id: "acme-tools") { name plan } }',
      );
      expect(seen.organization).toEqual({ name: 'Acme Tools', plan: 'base' });

      const hidden = await json(
        'orgs',
        'create',
        '--id',
        'quiet-co',
        '--name',
        'Quiet Co',
        '--plan',
        'clan',
        '--unlisted',
        '--demo',
        '--incomplete',
      );
      expect(hidden).toMatchObject({ id: 'quiet-co', plan: 'clan', listed: false, demo: true, complete: false });
    },
    SLOW,
  );

  it(
    'orgs list / show / update',
    async () => {
      const listed = await json<{ id: string; name: string; plan: string }[]>('orgs', 'list');
      expect(listed.map((o) => o.id)).toEqual(expect.arrayContaining(['listed-co', 'keys-base', 'atelier-nord']));
      expect(listed.find((o) => o.id === 'listed-co')).toMatchObject({ name: 'Org listed-co', plan: 'base', listed: true });

      const updated = await json(
        'orgs',
        'update',
        'listed-co',
        '--name',
        'Listed Co Ltd',
        '--plan',
        'alpha',
        '--no-listed',
        '--city',
        'Nantes',
        '--country',
        'fr',
      );
      expect(updated).toMatchObject({
        id: 'listed-co',
        name: 'Listed Co Ltd',
        plan: 'alpha',
        listed: false,
        place: { city: 'Nantes', country: 'FR' },
      });
      // The running server reads the same database.
      const seen = await stack.graphql<{ organization: { name: string; plan: string; listed: boolean } }>(
        '{ organization(id: "listed-co") { name plan listed } }',
      );
      expect(seen.organization).toEqual({ name: 'Listed Co Ltd', plan: 'alpha', listed: false });

      expect(await json('orgs', 'show', 'listed-co')).toMatchObject({ id: 'listed-co', name: 'Listed Co Ltd', listed: false });

      // What a person reads: a table with a header row.
      const table = await cli('orgs', 'list');
      expect(table.code).toBe(0);
      expect(table.stderr).toBe('');
      expect(table.stdout).toMatch(/^id\s+name\s+plan\s+listed\s+demo\s+complete$/m);
      expect(table.stdout).toMatch(/^listed-co\s+Listed Co Ltd\s+alpha\s+false\b/m);
    },
    SLOW,
  );

  it(
    'keys create / list / revoke: the key works at once, is never listed, and stops working after revoke',
    async () => {
      const expiresAt = inDays(30);
      const created = await json<NewKeyJson>(
        'keys',
        'create',
        '--org',
        'keys-base',
        '--scopes',
        ALL_SCOPES,
        '--expires-at',
        expiresAt,
        '--name',
        'CI key',
      );
      expect(created).toMatchObject({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^live_[0-9A-Za-z]{36}$/) });
      expect([...created.scopes].sort()).toEqual(['events:read', 'opportunities:read', 'organization:read']);
      expect(Date.parse(created.expires_at)).toBe(Date.parse(expiresAt));
      const key: string = created.key;

      // Usable at once by the running server (no cached answer for a key it has never seen).
      const org = await stack.get('/organization', { key });
      expect(org.status).toBe(200);
      expect(((await org.json()) as { id: string }).id).toBe('keys-base');

      const listing = await cli('keys', 'list', '--org', 'keys-base', '--json');
      expect(listing.code).toBe(0);
      expect(listing.stdout).not.toContain(key);
      const keys = JSON.parse(listing.stdout) as Record<string, unknown>[];
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({
        id: created.id,
        name: 'CI key',
        status: 'active',
        prefix: key.slice(0, 11),
        organization_id: 'keys-base',
        revoked_at: null,
      });
      expect(keys[0]).not.toHaveProperty('key');
      const human = await cli('keys', 'list', '--org', 'keys-base');
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(created.id);
      expect(human.stdout).not.toContain(key);
      // The table's columns are fields of the JSON, under the same names.
      const header = human.stdout.split('\n')[0]!.split(/\s+/);
      expect(header).toEqual(['id', 'name', 'prefix', 'scopes', 'status', 'expires_at', 'last_used_at']);
      for (const column of header) expect(keys[0]).toHaveProperty(column);

      // Base allows one active key.
      expectFailure(
        await cli('keys', 'create', '--org', 'keys-base', '--scopes', 'events:read', '--expires-at', inDays(10), '--json'),
        5,
        /base plan allows 1 active API key/,
      );

      const revoked = await json('keys', 'revoke', created.id);
      expect(revoked).toMatchObject({ id: created.id, status: 'revoked', revoked_at: expect.any(String) });
      await eventually(
        () => status('/organization', key),
        (s) => s === 401,
        { what: 'the revoked key refused (401)' },
      );

      // The slot is free again; a person is told the key is shown once.
      const again = await cli('keys', 'create', '--org', 'keys-base', '--scopes', 'organization:read', '--expires-at', inDays(5));
      expect(again.code).toBe(0);
      expect(again.stderr).toBe('');
      const printed = again.stdout.match(/^key: (live_\w+)$/m)?.[1];
      expect(printed).toEqual(expect.stringMatching(/^live_/));
      expect(again.stdout).toMatch(/shown once/i);
      expect(again.stdout).toMatch(/^scopes: organization:read$/m);
      expect(await status('/organization', printed)).toBe(200);
    },
    SLOW,
  );

  it(
    'keys create honours --scopes: a key without a scope gets 403 on that endpoint',
    async () => {
      const created = await json<NewKeyJson>(
        'keys',
        'create',
        '--org',
        'atelier-nord',
        '--scopes',
        'events:read',
        '--expires-at',
        inDays(3),
      );
      expect(created.scopes).toEqual(['events:read']);
      expect(await status('/events?limit=1', created.key)).toBe(200);
      expect(await status('/organization', created.key)).toBe(403);
      expect(await status('/opportunities?limit=1', created.key)).toBe(403);
    },
    SLOW,
  );

  it(
    'keys create refuses a second active key on a Base organization even with other flags valid',
    async () => {
      await json('keys', 'create', '--org', 'limit-base', '--scopes', ALL_SCOPES, '--expires-at', inDays(30));
      const second = await cli('keys', 'create', '--org', 'limit-base', '--scopes', ALL_SCOPES, '--expires-at', inDays(30), '--json');
      expectFailure(second, 5, /plan allows 1 active API key/);
      const keys = await stack.graphql<{ apiKeys: { status: string }[] }>('{ apiKeys(organizationId: "limit-base") { status } }');
      expect(keys.apiKeys).toEqual([{ status: 'active' }]);
    },
    SLOW,
  );

  it(
    'needs publish / update / show / list / withdraw, and make-private, as the API shows them',
    async () => {
      const need = await json<NeedJson>(
        'needs',
        'publish',
        '--org',
        'atelier-nord',
        '--title',
        'Acoustic survey of a library',
        '--description',
        'Measure and model the reading rooms.',
        '--expertise',
        'acoustics, modelling',
        '--remote',
      );
      expect(need).toMatchObject({
        id: expect.stringMatching(/^n_/),
        title: 'Acoustic survey of a library',
        required_expertise: ['acoustics', 'modelling'],
        remote_allowed: true,
        organization: { id: 'atelier-nord' },
        admin: { state: 'public', discreet: false, demo: false },
      });
      const path = `/opportunities/${need.id}`;
      const published = await eventually(
        () => stack.get(path),
        (r) => r.status === 200,
        { what: `GET ${path} 200` },
      );
      expect(await published.json()).toMatchObject({ id: need.id, title: 'Acoustic survey of a library', remote_allowed: true });

      const updated = await json(
        'needs',
        'update',
        need.id,
        '--title',
        'Acoustic survey of two libraries',
        '--no-remote',
        '--expertise',
        'acoustics',
      );
      expect(updated).toMatchObject({
        id: need.id,
        title: 'Acoustic survey of two libraries',
        remote_allowed: false,
        required_expertise: ['acoustics'],
      });
      await eventually(
        async () => (await (await stack.get(path)).json()) as { title: string; remote_allowed: boolean },
        (body) => body.title === 'Acoustic survey of two libraries' && body.remote_allowed === false,
        { what: 'the new title on the API' },
      );

      expect(await json('needs', 'show', need.id)).toMatchObject({ id: need.id, title: 'Acoustic survey of two libraries' });
      const listed = await json<{ id: string }[]>('needs', 'list', '--org', 'atelier-nord', '--state', 'public');
      expect(listed.map((n) => n.id)).toContain(need.id);

      const withdrawn = await json('needs', 'withdraw', need.id);
      expect(withdrawn).toMatchObject({ id: need.id, admin: { state: 'withdrawn', withdrawn_at: expect.any(String) } });
      await eventually(
        () => status(path),
        (s) => s === 404,
        { what: `GET ${path} 404 after withdraw` },
      );

      const second = await json<NeedJson>(
        'needs',
        'publish',
        '--org',
        'atelier-nord',
        '--title',
        'Facade lighting study',
        '--description',
        'Night lighting for a town hall.',
        '--expertise',
        'lighting',
      );
      const secondPath = `/opportunities/${second.id}`;
      await eventually(
        () => status(secondPath),
        (s) => s === 200,
        { what: `GET ${secondPath} 200` },
      );
      const madePrivate = await json('needs', 'make-private', second.id);
      expect(madePrivate).toMatchObject({ id: second.id, admin: { state: 'private' } });
      await eventually(
        () => status(secondPath),
        (s) => s === 404,
        { what: `GET ${secondPath} 404 after make-private` },
      );
    },
    SLOW,
  );

  it(
    'needs publish --draft stays off the API until publish-draft',
    async () => {
      const draft = await json<NeedJson>(
        'needs',
        'publish',
        '--org',
        'atelier-nord',
        '--title',
        'Draft: roof survey',
        '--description',
        'Not yet public.',
        '--expertise',
        'roofing',
        '--draft',
      );
      expect(draft).toMatchObject({ admin: { state: 'draft' }, published_at: null });
      const path = `/opportunities/${draft.id}`;
      expect(await status(path)).toBe(404);
      const published = await json('needs', 'publish-draft', draft.id);
      expect(published).toMatchObject({ id: draft.id, admin: { state: 'public' } });
      await eventually(
        () => status(path),
        (s) => s === 200,
        { what: `GET ${path} 200 after publish-draft` },
      );
    },
    SLOW,
  );

  it(
    'events create (online and in person) / update / show / cancel, as the API shows them',
    async () => {
      const online = await json<EventJson>(
        'events',
        'create',
        '--org',
        'atelier-nord',
        '--title',
        'Open studio (online)',
        '--starts-at',
        inDays(10),
        '--ends-at',
        inDays(10, 2),
        '--online',
      );
      expect(online).toMatchObject({
        id: expect.stringMatching(/^ev_/),
        title: 'Open studio (online)',
        online: true,
        host: { id: 'atelier-nord' },
        admin: { status: 'public' },
      });
      expect(online.place?.city ?? null).toBeNull();
      const onlinePath = `/events/${online.id}`;
      const seen = await eventually(
        () => stack.get(onlinePath),
        (r) => r.status === 200,
        { what: `GET ${onlinePath} 200` },
      );
      expect(await seen.json()).toMatchObject({ id: online.id, title: 'Open studio (online)', online: true });

      const inPerson = await json<EventJson>(
        'events',
        'create',
        '--org',
        'atelier-nord',
        '--title',
        'Site visit',
        '--starts-at',
        inDays(12),
        '--ends-at',
        inDays(12, 3),
        '--city',
        'Lyon',
        '--country',
        'fr',
        '--timezone',
        'Europe/Paris',
      );
      expect(inPerson).toMatchObject({ online: false, timezone: 'Europe/Paris', place: { city: 'Lyon', country: 'FR' } });
      const inPersonPath = `/events/${inPerson.id}`;
      const visit = await eventually(
        () => stack.get(inPersonPath),
        (r) => r.status === 200,
        { what: `GET ${inPersonPath} 200` },
      );
      expect(await visit.json()).toMatchObject({ id: inPerson.id, online: false, place: { city: 'Lyon', country: 'FR' } });

      const updated = await json('events', 'update', inPerson.id, '--title', 'Site visit and lunch', '--ends-at', inDays(12, 4));
      expect(updated).toMatchObject({ id: inPerson.id, title: 'Site visit and lunch' });
      await eventually(
        async () => (await (await stack.get(inPersonPath)).json()) as { title: string },
        (body) => body.title === 'Site visit and lunch',
        { what: 'the new event title on the API' },
      );

      const cancelled = await json('events', 'cancel', inPerson.id);
      expect(cancelled).toMatchObject({ id: inPerson.id, admin: { status: 'cancelled', cancelled_at: expect.any(String) } });
      await eventually(
        () => status(inPersonPath),
        (s) => s === 404,
        { what: `GET ${inPersonPath} 404 after cancel` },
      );
      // Internal callers still read it.
      expect(await json('events', 'show', inPerson.id)).toMatchObject({ id: inPerson.id, admin: { status: 'cancelled' } });
      // The other event is untouched.
      expect(await status(onlinePath)).toBe(200);
    },
    SLOW,
  );

  it(
    'members create --org --role returns the member with the membership',
    async () => {
      const admin = await json(
        'members',
        'create',
        '--email',
        'clara@atelier-nord.example',
        '--name',
        'Clara Vidal',
        '--org',
        'atelier-nord',
        '--role',
        'admin',
      );
      expect(admin).toMatchObject({
        id: expect.stringMatching(/^m_/),
        email: 'clara@atelier-nord.example',
        name: 'Clara Vidal',
        memberships: [{ organization_id: 'atelier-nord', role: 'admin' }],
      });
      const seen = await stack.graphql<{ members: { email: string; memberships: { organizationId: string; role: string }[] }[] }>(
        '{ members(organizationId: "atelier-nord") { email memberships { organizationId role } } }',
      );
      expect(seen.members.find((m) => m.email === 'clara@atelier-nord.example')?.memberships).toContainEqual({
        organizationId: 'atelier-nord',
        role: 'admin',
      });

      // And for a person (default role: member).
      const human = await cli('members', 'create', '--email', 'leo@atelier-nord.example', '--name', 'Leo Petit', '--org', 'atelier-nord');
      expect(human.stderr).toBe('');
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^email: leo@atelier-nord\.example$/m);
      expect(human.stdout).toContain('atelier-nord');
    },
    SLOW,
  );

  it(
    'members create without an organization, and members list',
    async () => {
      const loner = await json<MemberJson>('members', 'create', '--email', 'Sam@Example.org', '--name', 'Sam Loner');
      expect(loner).toMatchObject({ id: expect.stringMatching(/^m_/), email: 'sam@example.org', name: 'Sam Loner', memberships: [] });

      const listed = await json<{ id: string; email: string; memberships: { organization_id: string; role: string }[] }[]>(
        'members',
        'list',
        '--org',
        'listed-co',
      );
      expect(listed.map((m) => m.email)).toEqual(['dana@listed-co.example']);
      expect(listed[0]!.memberships).toEqual([{ organization_id: 'listed-co', role: 'admin' }]);
      const all = await json<{ id: string }[]>('members', 'list', '--org', 'atelier-nord');
      expect(all.length).toBeGreaterThan(0);
      expect(all.map((m) => m.id)).not.toContain(loner.id);

      const table = await cli('members', 'list', '--org', 'listed-co');
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^id\s+email\s+name\s+role$/m);
      expect(table.stdout).toMatch(/dana@listed-co\.example\s+Dana Roy\s+admin/);
    },
    SLOW,
  );

  it(
    'human output of a single record is readable key: value lines',
    async () => {
      const shown = await cli('orgs', 'show', 'atelier-nord');
      expect(shown.code).toBe(0);
      expect(shown.stderr).toBe('');
      expect(shown.stdout).toMatch(/^id: atelier-nord$/m);
      expect(shown.stdout).toMatch(/^name: Atelier Nord$/m);
      expect(shown.stdout).toMatch(/^plan: clan$/m);
      expect(() => JSON.parse(shown.stdout)).toThrow();
    },
    SLOW,
  );

  it(
    'help exits 0 and prints the usage',
    async () => {
      const help = await cli('help');
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      for (const line of [
        'packline start',
        'packline orgs create',
        'packline keys create',
        'packline needs publish',
        'packline events create',
        'packline members create',
        '--json',
      ]) {
        expect(help.stdout).toContain(line);
      }
    },
    SLOW,
  );

  it(
    'migrate and seed on the database the service already uses: nothing to do',
    async () => {
      const migrated = await json<{ applied: string[]; total: number }>('migrate');
      expect(migrated.applied).toEqual([]);
      expect(migrated.total).toBeGreaterThanOrEqual(1);
      const human = await cli('migrate');
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/up to date/);
      expect(await json('seed')).toEqual({ seeded: false });
      // The server still answers its demo key.
      expect(await status('/organization')).toBe(200);
    },
    SLOW,
  );

  describe('errors: nothing on stdout, a message (JSON with --json) on stderr, the exit code of their kind', () => {
    const cases: { name: string; args: string[]; exit: number; code?: string; messages: RegExp[]; after?: () => Promise<void> }[] = [
      { name: 'unknown command', exit: 2, code: 'usage', args: ['frobnicate', '--json'], messages: [/Unknown command 'frobnicate'/] },
      {
        name: 'unknown subcommand',
        exit: 2,
        code: 'usage',
        args: ['orgs', 'explode', '--json'],
        messages: [/Unknown command 'orgs explode'/],
      },
      { name: 'missing subcommand', exit: 2, args: ['keys'], messages: [/Missing command after 'keys'/] },
      {
        name: 'mistyped subcommand',
        exit: 2,
        code: 'usage',
        args: ['destinations', 'puase', 'dst_x', '--json'],
        messages: [/Did you mean 'destinations pause'\?/],
      },
      {
        name: 'destinations pause of an unknown id',
        exit: 3,
        code: 'not_found',
        args: ['destinations', 'pause', 'dst_doesnotexist0', '--json'],
        messages: [/No webhook destination with id 'dst_doesnotexist0'/],
      },
      {
        name: 'destinations update with nothing to change',
        exit: 2,
        code: 'usage',
        args: ['destinations', 'update', 'dst_doesnotexist0', '--json'],
        messages: [/Nothing to change/],
      },
      {
        name: 'destinations create with an unknown --format',
        exit: 2,
        code: 'usage',
        args: ['destinations', 'create', '--org', 'atelier-nord', '--format', 'xml', '--url', 'https://hooks.example.org/x', '--json'],
        messages: [/--format must be one of standard-json, team-chat, collaboration-suite \(got 'xml'\)/],
      },
      {
        name: 'unknown flag',
        exit: 2,
        code: 'usage',
        args: ['orgs', 'list', '--colour', '--json'],
        messages: [/Unknown option '--colour'/, /usage: packline orgs list/],
      },
      {
        name: 'missing required flag (orgs create --name)',
        exit: 2,
        code: 'usage',
        args: ['orgs', 'create', '--id', 'nameless', '--plan', 'base', '--json'],
        messages: [/Missing --name/],
      },
      {
        name: 'missing required flag (keys create --expires-at)',
        exit: 2,
        code: 'usage',
        args: ['keys', 'create', '--org', 'atelier-nord', '--scopes', 'events:read', '--json'],
        messages: [/Missing --expires-at/],
      },
      {
        name: 'missing required flag (needs publish --expertise)',
        exit: 2,
        code: 'usage',
        args: ['needs', 'publish', '--org', 'atelier-nord', '--title', 'T', '--description', 'D', '--json'],
        messages: [/Missing --expertise/],
      },
      {
        name: 'invalid --plan',
        exit: 2,
        code: 'usage',
        args: ['orgs', 'create', '--id', 'gold-co', '--name', 'Gold', '--plan', 'gold', '--json'],
        messages: [/--plan/, /'gold'/, /base, alpha, clan/],
      },
      {
        name: '--expires-at not ISO 8601',
        exit: 2,
        code: 'usage',
        args: ['keys', 'create', '--org', 'atelier-nord', '--scopes', 'events:read', '--expires-at', 'next tuesday', '--json'],
        messages: [/--expires-at must be an ISO 8601/],
      },
      {
        name: '--expires-at not a real date',
        exit: 2,
        code: 'usage',
        args: ['keys', 'create', '--org', 'atelier-nord', '--scopes', 'events:read', '--expires-at', '2027-13-45T00:00:00Z', '--json'],
        messages: [/--expires-at/],
      },
      {
        name: '--expires-at in the past',
        exit: 2,
        code: 'invalid_input',
        args: ['keys', 'create', '--org', 'atelier-nord', '--scopes', 'events:read', '--expires-at', '2020-01-01T00:00:00Z', '--json'],
        messages: [/must be in the future/, /--expires-at/],
      },
      {
        name: '--scopes with an unknown scope',
        exit: 2,
        code: 'invalid_input',
        args: [
          'keys',
          'create',
          '--org',
          'atelier-nord',
          '--scopes',
          'organization:read,organization:write',
          '--expires-at',
          inDays(5),
          '--json',
        ],
        messages: [/Unknown scope 'organization:write'/, /--scopes/],
      },
      {
        name: 'needs withdraw of an unknown id',
        exit: 3,
        code: 'not_found',
        args: ['needs', 'withdraw', 'n_doesnotexist0000', '--json'],
        messages: [/No need with id 'n_doesnotexist0000'/],
      },
      {
        name: 'events cancel of an unknown id',
        exit: 3,
        code: 'not_found',
        args: ['events', 'cancel', 'ev_doesnotexist000', '--json'],
        messages: [/No event with id 'ev_doesnotexist000'/],
      },
      {
        name: 'keys revoke of an unknown id',
        exit: 3,
        code: 'not_found',
        args: ['keys', 'revoke', 'key_doesnotexist00', '--json'],
        messages: [/No API key with id 'key_doesnotexist00'/],
      },
      {
        name: 'invalid organization id slug',
        exit: 2,
        code: 'invalid_input',
        args: ['orgs', 'create', '--id', 'Not A Slug!', '--name', 'Bad', '--plan', 'base', '--json'],
        messages: [/id must be/, /--id/],
        after: async () => {
          const orgs = await stack.graphql<{ organizations: { edges: { node: { name: string } }[] } }>(
            '{ organizations(first: 50) { edges { node { name } } } }',
          );
          expect(orgs.organizations.edges.map((e) => e.node.name)).not.toContain('Bad');
        },
      },
      {
        name: 'duplicate organization id',
        exit: 5,
        code: 'conflict',
        args: ['orgs', 'create', '--id', 'atelier-nord', '--name', 'Impostor', '--plan', 'base', '--json'],
        messages: [/already exists/, /--id/],
        after: async () => {
          const org = await stack.graphql<{ organization: { name: string; plan: string } }>(
            '{ organization(id: "atelier-nord") { name plan } }',
          );
          expect(org.organization).toEqual({ name: 'Atelier Nord', plan: 'clan' });
        },
      },
      {
        name: 'events create with neither --online nor --city/--country',
        exit: 2,
        code: 'usage',
        args: [
          'events',
          'create',
          '--org',
          'atelier-nord',
          '--title',
          'Nowhere',
          '--starts-at',
          inDays(3),
          '--ends-at',
          inDays(3, 1),
          '--json',
        ],
        messages: [/--online/, /--city/, /--country/],
      },
      {
        name: 'events create with --city but no --country',
        exit: 2,
        code: 'usage',
        args: [
          'events',
          'create',
          '--org',
          'atelier-nord',
          '--title',
          'Half a place',
          '--starts-at',
          inDays(3),
          '--ends-at',
          inDays(3, 1),
          '--city',
          'Lyon',
          '--json',
        ],
        messages: [/--country/],
      },
      {
        name: 'events create with ends-at before starts-at',
        exit: 2,
        code: 'invalid_input',
        args: [
          'events',
          'create',
          '--org',
          'atelier-nord',
          '--title',
          'Backwards',
          '--starts-at',
          inDays(4),
          '--ends-at',
          inDays(3),
          '--online',
          '--json',
        ],
        messages: [/ends_at must be after starts_at/, /--ends-at/],
        after: async () => {
          const events = await stack.graphql<{ events: { edges: { node: { title: string } }[] } }>(
            '{ events(first: 50) { edges { node { title } } } }',
          );
          expect(events.events.edges.map((e) => e.node.title)).not.toContain('Backwards');
        },
      },
    ];

    for (const { name, args, exit, code, messages, after } of cases) {
      it(`${name}: exit ${exit}${code ? `, ${code}` : ''}`, async () => {
        const result = await cli(...args);
        expectFailure(result, exit, ...messages);
        if (code) expect(JSON.parse(result.stderr).error.code).toBe(code);
        await after?.();
      });
    }
  });

  it(
    'a real packline process: a database command, its exit code and its JSON error',
    async () => {
      const missing = await runCli(['needs', 'withdraw', 'n_doesnotexist0000', '--json'], stack.env);
      expect(missing).toMatchObject({ code: 3, stdout: '' });
      expect(JSON.parse(missing.stderr)).toEqual({ error: { code: 'not_found', message: "No need with id 'n_doesnotexist0000'" } });
    },
    SLOW,
  );
});

describe('packline migrate and seed on a fresh database', () => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const kinds: { name: string; env: () => Promise<Record<string, string>> }[] = [
    {
      name: 'SQLite in a new DATA_DIR',
      env: async () => {
        const dir = tempDir();
        dirs.push(dir);
        return { DATA_DIR: dir, INTERNAL_API_TOKEN: 'migrate-test-token-0123456789' };
      },
    },
  ];
  if (process.env.DATABASE_URL) {
    kinds.push({
      name: 'a new PostgreSQL database',
      env: async () => {
        const dir = tempDir();
        dirs.push(dir);
        const database = await freshDatabaseUrl();
        drops.push(database.drop);
        return { DATA_DIR: dir, DATABASE_URL: database.url!, INTERNAL_API_TOKEN: 'migrate-test-token-0123456789' };
      },
    });
  }

  for (const kind of kinds) {
    it(`${kind.name}: migrate applies then is up to date; seed loads once`, async () => {
      const env = await kind.env();
      const first = await runInProcess(['migrate'], env);

      expect(first.code).toBe(0);
      expect(first.stderr).toBe('');
      expect(first.stdout).toMatch(/^Applied Migration\d+/);
      const second = await runInProcess(['migrate'], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/up to date/);
      const again = await runJsonInProcess<{ applied: string[]; total: number }>(['migrate'], env);
      expect(again).toEqual({ applied: [], total: expect.any(Number) });
      expect(again.total).toBeGreaterThanOrEqual(1);

      const seeded = await runJsonInProcess<SeedJson>(['seed'], env);
      expect(seeded).toMatchObject({
        seeded: true,
        organizations: expect.any(Number),
        demo_api_key: {
          organization_id: 'atelier-nord',
          key: expect.stringMatching(/^live_[0-9A-Za-z]{36}$/),
          expires_at: expect.any(String),
        },
      });
      expect(seeded.organizations).toBeGreaterThan(0);
      expect(Date.parse(seeded.demo_api_key.expires_at)).toBeGreaterThan(Date.now());
      expect(await runJsonInProcess(['seed'], env)).toEqual({ seeded: false });

      // The seeded data is what the CLI then reads.
      const orgs = await runJsonInProcess<{ id: string }[]>(['orgs', 'list'], env);
      expect(orgs).toHaveLength(seeded.organizations);
    }, 120_000);
  }
});

describe('packline start', () => {
  const running: CliProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const p of running) p.kill();
    for (const cleanup of cleanups) await cleanup();
  });

  /** A fresh DATA_DIR and, in the PostgreSQL run, a fresh database (and a Redis prefix of its own). */
  async function freshEnv(): Promise<Record<string, string>> {
    const dir = tempDir();
    const database = await freshDatabaseUrl();
    cleanups.push(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    return {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...(process.env.REDIS_URL
        ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `packline-cli-${randomBytes(4).toString('hex')}` }
        : {}),
    };
  }

  interface Banner {
    port: number;
    rest: string;
    graphql: string;
    token: string;
    demoKey: string | undefined;
    text: string;
  }

  async function start(env: Record<string, string>, ...args: string[]): Promise<{ process: CliProcess; banner: Banner }> {
    const proc = spawnCli(['start', ...args], env);
    running.push(proc);
    await proc.waitForOutput(/^Try: .*$/m, 45_000);
    const text = proc.stdout();
    const port = Number(text.match(/listening on 127\.0\.0\.1:(\d+)/)?.[1]);
    const rest = text.match(/^\s*REST API\s+(\S+)/m)?.[1] ?? '';
    const graphql = text.match(/^\s*GraphQL\s+(\S+)/m)?.[1] ?? '';
    const token = text.match(/^\s*Internal token\s+(\S+)/m)?.[1] ?? '';
    const demoKey = text.match(/^\s*Demo API key\s+(live_\w+)/m)?.[1];
    return { process: proc, banner: { port, rest, graphql, token, demoKey, text } };
  }

  /** The process's last log lines, shown when a stop does not end as expected. */
  function lastLines(proc: CliProcess): string {
    return `stdout:\n${proc.stdout().split('\n').slice(-15).join('\n')}\nstderr:\n${proc.stderr().split('\n').slice(-15).join('\n')}`;
  }

  async function internalGraphql<T>(banner: Banner, query: string): Promise<T> {
    const res = await fetch(banner.graphql, {
      method: 'POST',
      headers: { authorization: `Bearer ${banner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data?: T; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data!;
  }

  const COUNT = '{ organizations(first: 50) { edges { node { id } } } apiKeys(organizationId: "atelier-nord") { id status } }';
  type Counts = { organizations: { edges: unknown[] }; apiKeys: { id: string; status: string }[] };

  it('prints where it listens, the internal token and a demo key; serves; stops on SIGTERM; a restart keeps the key and the data', async () => {
    const env = await freshEnv();
    const first = await start(env);
    const { banner } = first;
    expect(banner.port).toBeGreaterThan(0);
    expect(banner.rest).toBe(`http://127.0.0.1:${banner.port}/api/v1`);
    expect(banner.graphql).toBe(`http://127.0.0.1:${banner.port}/graphql`);
    expect(banner.text).toMatch(env.DATABASE_URL ? /Database\s+PostgreSQL/ : /Database\s+SQLite/);
    expect(banner.demoKey).toMatch(/^live_[0-9A-Za-z]{36}$/);
    // The process started is the server: it re-executed itself in place with its heap sizes.
    const flags = readFileSync(`/proc/${first.process.child.pid}/cmdline`, 'utf8').split('\0');
    expect(flags).toContain('--max-semi-space-size=16');
    expect(flags).toContain('--max-old-space-size=1024');
    expect(readFileSync(`/proc/${first.process.child.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');

    // The generated internal token is the one kept in DATA_DIR, readable by the owner only.
    const tokenFile = join(env.DATA_DIR!, 'internal-api-token');
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(banner.token);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const keyFile = join(env.DATA_DIR!, 'demo-api-key');
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(banner.demoKey);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const org = await fetch(`${banner.rest}/organization`, { headers: { authorization: `Bearer ${banner.demoKey}` } });
    expect(org.status).toBe(200);
    expect(((await org.json()) as { id: string }).id).toBe('atelier-nord');
    const opportunities = await fetch(`${banner.rest}/opportunities?limit=2`, { headers: { authorization: `Bearer ${banner.demoKey}` } });
    expect(opportunities.status).toBe(200);
    const before = await internalGraphql<Counts>(banner, COUNT);
    expect(before.organizations.edges.length).toBeGreaterThan(0);
    expect(before.apiKeys).toHaveLength(1);

    expect(await first.process.stop('SIGTERM'), lastLines(first.process)).toEqual({ code: 0, signal: null });

    // Second start on the same DATA_DIR (and database): same key, same token, no second load.
    // An operator's own old-generation size (here in NODE_OPTIONS) wins over the server's.
    const second = await start({ ...env, NODE_OPTIONS: '--max_old_space_size=700' });
    const secondFlags = readFileSync(`/proc/${second.process.child.pid}/cmdline`, 'utf8').split('\0');
    expect(secondFlags).toContain('--max-semi-space-size=16');
    expect(secondFlags.some((flag) => flag.startsWith('--max-old-space-size'))).toBe(false);
    expect(second.banner.demoKey).toBe(banner.demoKey);
    expect(second.banner.token).toBe(banner.token);
    const after = await internalGraphql<Counts>(second.banner, COUNT);
    expect(after.organizations.edges).toHaveLength(before.organizations.edges.length);
    expect(after.apiKeys).toEqual(before.apiKeys);
    const again = await fetch(`${second.banner.rest}/organization`, { headers: { authorization: `Bearer ${second.banner.demoKey}` } });
    expect(again.status).toBe(200);
    expect(await second.process.stop('SIGTERM'), lastLines(second.process)).toEqual({ code: 0, signal: null });
    // And an operator's own MALLOC_ARENA_MAX, with every flag given, starts without a re-execution.
    const third = await start({ ...env, MALLOC_ARENA_MAX: '4', NODE_OPTIONS: '--max-old-space-size=700 --max-semi-space-size=8' });
    const thirdLine = readFileSync(`/proc/${third.process.child.pid}/cmdline`, 'utf8').split('\0');
    expect(thirdLine.some((flag) => flag.startsWith('--max-semi-space-size'))).toBe(false);
    expect(readFileSync(`/proc/${third.process.child.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=4');
    expect(await third.process.stop('SIGTERM'), lastLines(third.process)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('--no-demo on a fresh DATA_DIR loads nothing and prints no demo key', async () => {
    const env = await freshEnv();
    const { process: proc, banner } = await start(env, '--no-demo');
    expect(banner.demoKey).toBeUndefined();
    expect(banner.text).toMatch(/Demo API key\s+\(none/);
    expect(banner.text).not.toMatch(/live_[0-9A-Za-z]{36}/);
    const counts = await internalGraphql<{ organizations: { edges: unknown[] } }>(
      banner,
      '{ organizations(first: 50) { edges { node { id } } } }',
    );
    expect(counts.organizations.edges).toEqual([]);
    expect(await proc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 120_000);
});
