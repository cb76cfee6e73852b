// Fine-grained retirement of cached answers, and conditional requests. A row changed behind the
// service's back (plain SQL, no change recorded) shows whether an answer is still served from the
// cache: it keeps its old text until a change that touched it retires it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL, coreOptions, openCore, type Core } from '../../core/index.ts';
import { startStack, type Stack } from '../support/stack.ts';
import {
  createEvent,
  createKey,
  createOrganization,
  eventually,
  expectLimitHeaders,
  expectOk,
  expectProblem,
  publishNeed,
  revokeKey,
  sql,
  updateNeed,
  withdrawNeed,
  type CreatedKey,
  type ListBody,
  type OpportunityBody,
  type OrganizationBody,
} from './helpers.ts';
import type { MutationData } from '../support/graphql-data.ts';

let stack: Stack;
let org: string;
let key: CreatedKey;
let other: CreatedKey;
const ids: Record<'a' | 'b' | 'event', string> = { a: '', b: '', event: '' };

/** Cached answers also end with their 5-second window: start a step early in a fresh one. */
async function freshWindow(): Promise<void> {
  const into = Date.now() % 5_000;
  if (into > 2_500) await new Promise((resolve) => setTimeout(resolve, 5_000 - into + 10));
}

const title = async (path: string, k = key.key) => (await expectOk<{ title: string }>(await stack.get(path, { key: k }))).title;
const listTitles = async () => {
  const list = await expectOk<ListBody<OpportunityBody>>(await stack.get('/opportunities?limit=50', { key: key.key }));
  return list.data.map((n) => n.title);
};
/** Changes a title with plain SQL: nothing tells the caches. */
const behindTheBack = (table: 'needs' | 'events', id: string, text: string) =>
  sql(stack, `update ${table} set title = ? where id = ?`, [text, id]);

beforeAll(async () => {
  stack = await startStack();
  org = await createOrganization(stack, 'clan');
  key = await createKey(stack, org);
  other = await createKey(stack, org);
  ids.a = await publishNeed(stack, { organizationId: org, title: 'Need A' });
  ids.b = await publishNeed(stack, { organizationId: org, title: 'Need B' });
  const startsAt = new Date(Date.now() + 86_400_000);
  const endsAt = new Date(startsAt.getTime() + 3_600_000);
  ids.event = await createEvent(stack, { organizationId: org, title: 'Event E', startsAt, endsAt });
}, 60_000);

afterAll(() => stack?.close());

describe('a change retires only what it touched', () => {
  it("a need's change retires that need and the needs list, not another need, the events or key lookups", async () => {
    await freshWindow();
    const paths = { a: `/opportunities/${ids.a}`, b: `/opportunities/${ids.b}`, event: `/events/${ids.event}` };
    // Asked for twice: an answer is kept from its second computation on (see PageCache).
    for (let i = 0; i < 2; i++) {
      expect([await title(paths.a), await title(paths.b), await title(paths.event)]).toEqual(['Need A', 'Need B', 'Event E']);
      expect(await listTitles()).toContain('Need B');
    }
    expect(await title(paths.b, other.key)).toBe('Need B');
    await behindTheBack('needs', ids.b, 'Need B, changed unseen');
    await behindTheBack('events', ids.event, 'Event E, changed unseen');
    // Revoked unseen: its lookup stays cached until a change of the key itself.
    await sql(stack, 'update api_keys set revoked_at = created_at where id = ?', [other.id]);

    await updateNeed(stack, ids.a, { title: 'Need A, retitled' });

    expect(await title(paths.a)).toBe('Need A, retitled');
    expect(await title(paths.b)).toBe('Need B');
    expect(await title(paths.event)).toBe('Event E');
    // The list was retired: it is read again, and shows both changes.
    expect(await listTitles()).toEqual(expect.arrayContaining(['Need A, retitled', 'Need B, changed unseen']));
    expect((await stack.get(paths.b, { key: other.key })).status).toBe(200);

    // A change of the key itself retires its lookup at once.
    await revokeKey(stack, other.id);
    await expectProblem(await stack.get(paths.b, { key: other.key }), 401, 'invalid_key');
  });

  it("an organization's change retires the answers that embed its name, and its keys' lookups", async () => {
    await freshWindow();
    const path = `/opportunities/${ids.b}`;
    await stack.get(path, { key: key.key });
    const before = await expectOk<OpportunityBody>(await stack.get(path, { key: key.key }));
    await stack.graphql<MutationData<'updateOrganization'>>(
      `mutation ($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { id } }`,
      {
        id: org,
        input: { name: 'Renamed organization' },
      },
    );
    const after = await expectOk<OpportunityBody>(await stack.get(path, { key: key.key }));
    expect(before.organization.name).not.toBe('Renamed organization');
    expect(after.organization.name).toBe('Renamed organization');
    expect((await expectOk<OrganizationBody>(await stack.get('/organization', { key: key.key }))).name).toBe('Renamed organization');
  });

  it('a withdrawn need is 404 at once in the process that withdrew it', async () => {
    const id = await publishNeed(stack, { organizationId: org, title: 'Soon withdrawn' });
    await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`, { key: key.key }));
    await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`, { key: key.key }));
    await withdrawNeed(stack, id);
    await expectProblem(await stack.get(`/opportunities/${id}`, { key: key.key }), 404, 'not_found');
    expect(await listTitles()).not.toContain('Soon withdrawn');
  });
});

describe('changes made by another process', () => {
  let elsewhere: Core;
  beforeAll(async () => {
    elsewhere = await openCore(coreOptions(stack.config, { changePollMs: 60_000 }));
  });
  afterAll(() => elsewhere?.close());

  it('retire the touched answers within one poll (at once over Redis when REDIS_URL is set), and nothing else', async () => {
    await freshWindow();
    const id = await publishNeed(stack, { organizationId: org, title: 'Withdrawn elsewhere' });
    const path = `/opportunities/${id}`;
    const untouched = `/opportunities/${ids.b}`;
    await expectOk(await stack.get(path, { key: key.key }));
    await expectOk(await stack.get(path, { key: key.key }));
    const kept = await title(untouched);
    expect(await title(untouched)).toBe(kept);
    await behindTheBack('needs', ids.b, `${kept}, changed unseen again`);
    // With Redis the poll is not needed: stop it, so only the bus can tell.
    if (stack.config.redisUrl) await stack.app.core.feed.stop();
    try {
      await elsewhere.services().needs.withdraw(INTERNAL, id);
      expect(await eventually(async () => (await stack.get(path, { key: key.key })).status === 404, 3_000)).toBe(true);
      expect(await title(untouched)).toBe(kept);
    } finally {
      stack.app.core.feed.start();
    }
    // Never a stale 200 afterwards.
    for (let i = 0; i < 5; i++) await expectProblem(await stack.get(path, { key: key.key }), 404, 'not_found');
  });
});

describe('conditional requests', () => {
  it('every 200 carries a strong ETag; If-None-Match answers 304 with no body, metered like any call', async () => {
    const path = `/opportunities/${ids.b}`;
    const first = await stack.get(path, { key: key.key });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const body = await first.arrayBuffer();
    const again = await stack.get(path, { key: key.key });
    expect(again.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(body))).toBe(true);

    for (const header of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await stack.get(path, { key: key.key, headers: { 'if-none-match': header } });
      expect(res.status, header).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
      expectLimitHeaders(res);
    }
    const conditional = { key: key.key, headers: { 'if-none-match': etag! } };
    const quota = Number((await stack.get(path, conditional)).headers.get('x-monthly-quota-remaining'));
    const next = await stack.get(path, { key: key.key, headers: { 'if-none-match': etag! } });
    expect(Number(next.headers.get('x-monthly-quota-remaining'))).toBe(quota - 1);

    const stale = await stack.get(path, { key: key.key, headers: { 'if-none-match': '"not-the-etag"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(etag);
  });

  it('a changed answer gets a new ETag, so the old one answers 200 again', async () => {
    const path = `/opportunities/${ids.a}`;
    const etag = (await stack.get(path, { key: key.key })).headers.get('etag')!;
    await updateNeed(stack, ids.a, { title: `Need A, ${randomBytes(4).toString('hex')}` });
    const res = await stack.get(path, { key: key.key, headers: { 'if-none-match': etag } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(etag);
  });

  it('lists carry ETags too; errors never do, and If-None-Match never turns an error into 304', async () => {
    const list = await stack.get('/opportunities?limit=5', { key: key.key });
    const etag = list.headers.get('etag')!;
    expect((await stack.get('/opportunities?limit=5', { key: key.key, headers: { 'if-none-match': etag } })).status).toBe(304);
    const missing = await stack.get('/opportunities/no-such-need', { key: key.key, headers: { 'if-none-match': '*' } });
    await expectProblem(missing, 404, 'not_found');
    expect(missing.headers.get('etag')).toBeNull();
  });
});
