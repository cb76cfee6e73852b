import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

// Rolling an API key on the Base plan (one active key): the service through internal GraphQL on
// this run's database (SQLite, or PostgreSQL with DATABASE_URL), then the page and its form.

const HOUR = 3_600_000;
const KEY_FIELDS = 'id name scopes status expiresAt rolledAt revokedAt';
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
const csrfFor = (html: string, action: string) => hidden(html.slice(html.indexOf(`action="${action}"`)), 'csrf');
const nextYear = () => new Date(Date.now() + 300 * 24 * HOUR).toISOString();

describe('rolling an API key', () => {
  let stack: Stack;
  let admin: TestBrowser;

  async function baseOrg(id: string) {
    await stack.graphql('mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }', {
      input: { id, profile: { name: `Org ${id}`, plan: 'base' } },
    });
  }
  async function createKey(organizationId: string) {
    const { createApiKey } = await stack.graphql<MutationData<'createApiKey'>>(
      `mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { ${KEY_FIELDS} } } }`,
      { input: { organizationId, name: 'Portal', scopes: ['opportunities:read', 'events:read'], expiresAt: nextYear() } },
    );
    return createApiKey as { key: string; apiKey: { id: string } };
  }
  const roll = async (id: string, overlap: string) =>
    (
      await stack.graphql<MutationData<'rollApiKey'>>(
        `mutation ($id: ID!, $overlap: KeyRollOverlap!) { rollApiKey(id: $id, overlap: $overlap) { key apiKey { ${KEY_FIELDS} } rolled { ${KEY_FIELDS} } } }`,
        { id, overlap },
      )
    ).rollApiKey;
  const rollError = (id: string, overlap: string) =>
    stack
      .graphql(`mutation ($id: ID!, $overlap: KeyRollOverlap!) { rollApiKey(id: $id, overlap: $overlap) { key } }`, { id, overlap })
      .then(
        () => 'no error',
        (error: Error) => error.message,
      );

  beforeAll(async () => {
    stack = await startStack();
    await baseOrg('roll-base');
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'ro@roll-base.example', name: 'Ro', password: PASSWORD, organizationId: 'roll-base', role: 'admin' },
    });
    admin = new TestBrowser(stack);
    await admin.signIn('ro@roll-base.example', PASSWORD, '/admin');
  });
  afterAll(() => stack?.close());

  it('replaces a Base key without a break: both work during the overlap, the old one outside the limit', async () => {
    await baseOrg('roll-service');
    const old = await createKey('roll-service');
    const before = Date.now();
    const rolled = await roll(old.apiKey.id, 'one_hour');
    expect(rolled.apiKey).toMatchObject({
      name: 'Portal',
      scopes: ['opportunities:read', 'events:read'],
      status: 'active',
      rolledAt: null,
    });
    expect(rolled.rolled).toMatchObject({ id: old.apiKey.id, status: 'retiring', revokedAt: null });
    const until = Date.parse(rolled.rolled.expiresAt);
    expect(until).toBeGreaterThanOrEqual(before + HOUR - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + HOUR);
    // The new key keeps the old one's lifetime.
    expect(Date.parse(rolled.apiKey.expiresAt)).toBeGreaterThan(Date.now() + 290 * 24 * HOUR);
    for (const key of [old.key, rolled.key]) expect((await stack.get('/opportunities?limit=1', { key })).status).toBe(200);
    // The retiring key does not count, the new one does: the plan is full again.
    const create = await stack
      .graphql('mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { key } }', {
        input: { organizationId: 'roll-service', scopes: ['events:read'], expiresAt: nextYear() },
      })
      .catch((error: Error) => error.message);
    expect(create).toMatch(/base plan allows 1 active API key/);
    // A retiring key cannot be rolled again; the new one can, at once.
    expect(await rollError(old.apiKey.id, 'one_hour')).toMatch(/Only an active key can be rolled; .* is retiring/);
    const now = await roll(rolled.apiKey.id, 'now');
    expect(now.rolled.status).toBe('revoked');
    expect((await stack.get('/opportunities?limit=1', { key: rolled.key })).status).toBe(401);
    expect((await stack.get('/opportunities?limit=1', { key: now.key })).status).toBe(200);
    const { apiKeys } = await stack.graphql<QueryData<'apiKeys'>>(`query { apiKeys(organizationId: "roll-service") { ${KEY_FIELDS} } }`);
    expect(apiKeys.map((k: { status: string }) => k.status).sort()).toEqual(['active', 'retiring', 'revoked']);
  });

  it('never shortens a key: an overlap past its expiry leaves the expiry as it was', async () => {
    await baseOrg('roll-short');
    const { createApiKey } = await stack.graphql<MutationData<'createApiKey'>>(
      'mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { apiKey { id expiresAt } } }',
      {
        input: { organizationId: 'roll-short', scopes: ['events:read'], expiresAt: new Date(Date.now() + 2 * HOUR).toISOString() },
      },
    );
    const rolled = await roll(createApiKey.apiKey.id, 'seven_days');
    expect(rolled.rolled.expiresAt).toBe(createApiKey.apiKey.expiresAt);
    // A short-lived key's replacement lives at least a day.
    expect(Date.parse(rolled.apiKey.expiresAt)).toBeGreaterThan(Date.now() + 23 * HOUR);
  });

  it('refuses an unknown key, an unknown overlap and an admin of another organization', async () => {
    expect(await rollError('key_nope', 'one_hour')).toMatch(/No API key with id 'key_nope'/);
    expect(await rollError('key_nope', 'forever')).toMatch(/forever/);
    const other = await createKey('roll-base');
    const stranger = new TestBrowser(stack);
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'st@cobalt-data.example', name: 'St', password: PASSWORD, organizationId: 'cobalt-data', role: 'admin' },
    });
    await stranger.signIn('st@cobalt-data.example', PASSWORD, '/admin');
    const res = await stranger.request(`/admin/orgs/roll-base/keys/${other.apiKey.id}/roll`);
    expect(res.status).toBe(403);
  });

  it('rolls from the key list: a choice of overlap, POST → 303 → the new key shown once, the old one expiring', async () => {
    const list = await (await admin.request('/admin/orgs/roll-base/keys')).text();
    const keyId = /\/keys\/([^/"]+)\/roll/.exec(list)![1]!;
    const action = `/admin/orgs/roll-base/keys/${keyId}/roll`;
    const confirm = await (await admin.request(action)).text();
    for (const label of ['No: it stops now', 'for 1 hour', 'for 24 hours', 'for 7 days']) expect(confirm).toContain(label);
    const token = csrfFor(confirm, action);

    const bad = await admin.request(action, { form: { csrf: token, overlap: 'forever' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Choose how long the old key keeps working.');
    expect((await admin.request(action, { form: { overlap: 'one_hour' } })).status).toBe(403);

    const posted = await admin.request(action, { form: { csrf: token, overlap: 'one_hour' } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/admin/orgs/roll-base/keys');
    const shown = await (await admin.request('/admin/orgs/roll-base/keys')).text();
    const key = /<code id="secret-value">([^<]+)<\/code>/.exec(shown)![1]!;
    expect(shown).toContain('The old key keeps working until');
    expect(shown).toMatch(/expires in (59 min|1 h)/);
    expect(shown).toContain('rolled: winding down');
    expect(shown).toContain('(1 in use)');
    expect((await stack.get('/events?limit=1', { key })).status).toBe(200);
    // A reload shows the key no more, and the retiring key cannot be rolled again.
    expect(await (await admin.request('/admin/orgs/roll-base/keys')).text()).not.toContain('id="secret-value"');
    const again = await admin.request(action, { form: { csrf: token, overlap: 'one_hour' } });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('is retiring');
  });
});
