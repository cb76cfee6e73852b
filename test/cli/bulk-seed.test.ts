// `packline seed --needs N --events N` against a running service: the rows it writes are public,
// listed by REST and GraphQL in order across ties, send no webhook, and the feed indexes the
// lists seek are in place (EXPLAIN of the very statements the lists run).
import { PUBLIC_LIST_STATEMENTS } from '../../core/components/public-statements.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { sqlOf } from '../../core/db/sql.ts';
import { createKey, createOrganization, expectOk, sql, walk, type ListBody, type OpportunityBody } from '../rest/helpers.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { runCli, runInProcess, type CliResult } from './run-cli.ts';
import type { QueryData } from '../support/graphql-data.ts';

const NEEDS = 3000;
const EVENTS = 700;

interface Opportunity {
  id: string;
  published_at: string;
  organization: { id: string };
}
interface EventItem {
  id: string;
  starts_at: string;
  ends_at: string;
}

let stack: Stack;
let key: string;
let postgres: boolean;

const scalar = async (query: string) => Number(Object.values((await sql(stack, query))[0] as object)[0]);

function expectFailure(result: CliResult, message: RegExp) {
  expect(result.stdout).toBe('');
  expect(result.code).toBe(2); // usage
  expect(result.stderr).toMatch(/^error: /);
  expect(result.stderr).toMatch(message);
}

beforeAll(async () => {
  stack = await startStack({ demo: false, env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  postgres = stack.config.databaseUrl !== undefined;
  key = (await createKey(stack, await createOrganization(stack, 'clan'))).key;
});

afterAll(() => stack?.close());

describe('packline seed --needs/--events', () => {
  it('refuses negative, fractional, non-numeric and too large counts with a message, exit 2, writing nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--needs', '-5'], /--needs must be a whole number from 0 to 5,000,000 \(got '-5'\)/],
      [['--needs=-1', '--events', '10'], /--needs must be a whole number .*\(got '-1'\)/],
      [['--events', '1.5'], /--events must be a whole number .*\(got '1.5'\)/],
      [['--needs', '5000001'], /--needs must be a whole number from 0 to 5,000,000 \(got '5000001'\)/],
      [['--events', 'many'], /--events must be a whole number .*\(got 'many'\)/],
      [['--needs', ''], /--needs must be a whole number .*\(got ''\)/],
      [['--needs'], /--needs/],
    ];
    for (const [args, message] of cases) expectFailure(await runInProcess(['seed', ...args], stack.env), message);
    expect(await scalar('select count(*) from needs')).toBe(0);
    expect(await scalar('select count(*) from events')).toBe(0);
  });

  it('bulk-inserts public needs and events a running server lists, with no outbox rows and nothing private', async () => {
    const epoch = await scalar('select value from change_epoch where id = 1');
    const outbox = await scalar('select count(*) from outbox_events');
    expect((await expectOk<ListBody<OpportunityBody>>(await stack.get('/opportunities?limit=5', { key }))).data).toEqual([]);
    const version = stack.app.core.feed.version;

    const result = await runCli(['seed', '--needs', String(NEEDS), '--events', String(EVENTS), '--json'], stack.env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ seeded: true, needs: NEEDS, events: EVENTS, outbox_rows: 0 });
    // Not a terminal: plain progress lines on stderr, the last one complete.
    expect(result.stderr).toMatch(/100% needs 3,000\/3,000, events 700\/700/);

    expect(await scalar('select value from change_epoch where id = 1')).toBeGreaterThan(epoch);
    expect(await scalar('select count(*) from outbox_events')).toBe(outbox);
    expect(await scalar('select count(*) from organizations where billing_email is not null or internal_notes is not null')).toBe(0);
    expect(
      await scalar(
        'select count(*) from events where host_contact_email is not null or host_contact_phone is not null or host_notes is not null',
      ),
    ).toBe(0);
    expect(
      await scalar(
        `select count(*) from organizations where id like 'scale-%' and listed = ${postgres ? 'true' : '1'} and complete = ${postgres ? 'true' : '1'} and demo = ${postgres ? 'false' : '0'}`,
      ),
    ).toBe(8);
    // Ties to cross: a burst of needs published at one instant, longer than a page.
    expect(await scalar('select max(c) from (select count(*) as c from needs group by published_at) as t')).toBeGreaterThan(100);

    // The server reads the shared change epoch (its own poll may have been first) and drops the
    // page it cached before the seed.
    await stack.app.core.feed.poll();
    expect(stack.app.core.feed.version).toBeGreaterThan(version);
  });

  it('REST walks every seeded need once, newest first, ties by id, and GraphQL counts the same', async () => {
    const pages = await walk<Opportunity>(stack, '/opportunities', 50, key);
    const items = pages.flatMap((p) => p.data);
    expect(pages.slice(0, -1).every((p) => p.data.length === 50 && p.meta.next_cursor !== null)).toBe(true);
    expect(items).toHaveLength(NEEDS);
    expect(new Set(items.map((n) => n.id)).size).toBe(NEEDS);
    const stored = (await sql(stack, `select id from needs where state = 'public'`)) as { id: string }[];
    expect(new Set(items.map((n) => n.id))).toEqual(new Set(stored.map((r) => r.id)));
    for (let i = 1; i < items.length; i++) {
      const [a, b] = [items[i - 1]!, items[i]!];
      const [ta, tb] = [Date.parse(a.published_at), Date.parse(b.published_at)];
      expect(ta > tb || (ta === tb && a.id > b.id), `${a.id} (${a.published_at}) before ${b.id} (${b.published_at})`).toBe(true);
    }
    expect(new Set(items.map((n) => n.organization.id)).size).toBe(8);

    let count = 0;
    let after: string | null = null;
    for (;;) {
      const data: QueryData<'opportunities'> = await stack.graphql<QueryData<'opportunities'>>(
        'query ($after: String) { opportunities(first: 50, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
        { after },
      );
      count += data.opportunities.edges.length;
      if (!data.opportunities.pageInfo.hasNextPage) break;
      after = data.opportunities.pageInfo.endCursor;
    }
    expect(count).toBe(NEEDS);
  });

  it('REST walks every seeded event once, soonest first, ties by id', async () => {
    const items = (await walk<EventItem>(stack, '/events', 50, key)).flatMap((p) => p.data);
    expect(items).toHaveLength(EVENTS);
    expect(new Set(items.map((e) => e.id)).size).toBe(EVENTS);
    for (let i = 1; i < items.length; i++) {
      const [a, b] = [items[i - 1]!, items[i]!];
      const [ta, tb] = [Date.parse(a.starts_at), Date.parse(b.starts_at)];
      expect(ta < tb || (ta === tb && a.id < b.id), `${a.id} (${a.starts_at}) before ${b.id} (${b.starts_at})`).toBe(true);
    }
    expect(items.every((e) => Date.parse(e.ends_at) > Date.parse(e.starts_at))).toBe(true);
  });

  it("the feed indexes exist, and the public read path's list statements, deep pages included, seek them", async () => {
    const indexes = postgres
      ? ((await sql(stack, `select indexname as name, indexdef as def from pg_indexes where tablename in ('needs', 'events')`)) as {
          name: string;
          def: string;
        }[])
      : ((await sql(stack, `select name, sql as def from sqlite_master where type = 'index' and tbl_name in ('needs', 'events')`)) as {
          name: string;
          def: string;
        }[]);
    const columns = (name: string) =>
      indexes
        .find((i) => i.name === name)
        ?.def.replace(/[`"]/g, '')
        .replace(/^.*\(/, '(');
    expect(columns('needs_public_feed_idx')).toBe('(state, demo, published_at, id)');
    expect(columns('events_upcoming_feed_idx')).toBe('(status, demo, starts_at, id, ends_at)');
    expect(columns('events_public_feed_idx'), 'replaced by events_upcoming_feed_idx').toBeUndefined();

    // The public read path's own list statements, with the position of a row deep in each list.
    const { needsFirst, needsAfter, eventsAfter } = PUBLIC_LIST_STATEMENTS;
    const statements = stack.app.core.statements;
    const at = (value: unknown) => new Date(postgres ? (value as string | Date) : Number(value));
    const [needRow] = (await sql(
      stack,
      "select published_at as t, id from needs where state = 'public' and demo = false order by published_at desc, id desc limit 1 offset 2000",
    )) as { t: unknown; id: string }[];
    const now = postgres ? new Date() : Date.now();
    const [eventRow] = (await sql(
      stack,
      "select starts_at as t, id from events where status = 'public' and demo = false and ends_at > ? order by starts_at, id limit 1 offset 300",
      [now],
    )) as { t: unknown; id: string }[];
    if (!needRow || !eventRow) throw new Error('fewer seeded rows than the positions read');
    const bound = (b: { sql: string; parameters: unknown[] }) => ({ sql: b.sql, params: b.parameters });
    // The statement's own text and bound parameters ($1… on PostgreSQL), through the SQL layer.
    const explain = async (query: string, params: unknown[]) =>
      (await sqlOf(stack.app.core.db.em.fork()).executeQuery(CompiledQuery.raw(query, params))).rows as Record<string, unknown>[];
    const deepNeeds = bound(statements.bound(needsAfter, { publishedAt: at(needRow.t), id: needRow.id, limit: 51 }));
    const deepEvents = bound(statements.bound(eventsAfter, { now: new Date(now), startsAt: at(eventRow.t), id: eventRow.id, limit: 51 }));
    const firstNeeds = bound(statements.bound(needsFirst, { limit: 51 }));

    if (postgres) {
      await sql(stack, 'analyze needs');
      await sql(stack, 'analyze events');
      const plan = async (q: { sql: string; params: unknown[] }) =>
        ((await explain(`explain analyze ${q.sql}`, q.params)) as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
      // No node of the plan reads more than the page (50 + 1 rows) and nothing is filtered out after
      // reading: the index is sought to the cursor. (On a table this small the planner may fetch
      // the last page's rows by bitmap and sort those few; the benchmark shows 1,000,000 rows.)
      // Each row's organization name is a subplan of its own: one row per loop, by whatever access
      // the planner finds cheapest for the organizations table's size (a few rows here).
      const expectSeek = (text: string, index: string, row: RegExp) => {
        const [page = '', name = ''] = text.split('SubPlan 1');
        expect(page).toMatch(new RegExp(`(using|on) ${index}\\b`));
        expect(page).toMatch(row);
        expect(page).not.toMatch(/Seq Scan|Rows Removed by Filter/);
        expect(Math.max(...[...page.matchAll(/actual time=\S+ rows=(\d+)/g)].map((m) => Number(m[1])))).toBeLessThanOrEqual(51);
        expect(name).toMatch(/on organizations .*rows=1 loops=\d+\)/);
      };
      expectSeek(await plan(deepNeeds), 'needs_public_feed_idx', /Index Cond: .*ROW\(published_at, \(id\)::text\) < ROW\(/);
      expectSeek(await plan(deepEvents), 'events_upcoming_feed_idx', /Index Cond: .*ROW\(starts_at, \(id\)::text\) > ROW\(.*ends_at >/);
      expectSeek(await plan(firstNeeds), 'needs_public_feed_idx', /Index Cond: \(\(state = 'public'::text\) AND \(demo = false\)\)/);
    } else {
      const plan = async (q: { sql: string; params: unknown[] }) =>
        ((await explain(`explain query plan ${q.sql}`, q.params)) as { detail: string }[]).map((r) => r.detail).join('\n');
      // Then, per row, the organization's name by its primary key.
      const withName = (seek: string) =>
        `${seek}\nCORRELATED SCALAR SUBQUERY 1\nSEARCH organizations USING INDEX sqlite_autoindex_organizations_1 (id=?)`;
      expect(await plan(deepNeeds)).toBe(
        withName('SEARCH needs USING INDEX needs_public_feed_idx (state=? AND demo=? AND (published_at,id)<(?,?))'),
      );
      expect(await plan(deepEvents)).toBe(
        withName('SEARCH events USING INDEX events_upcoming_feed_idx (status=? AND demo=? AND (starts_at,id)>(?,?))'),
      );
      expect(await plan(firstNeeds)).toBe(withName('SEARCH needs USING INDEX needs_public_feed_idx (state=? AND demo=?)'));
    }
  });

  it('plain `packline seed` still loads the demo data, once', async () => {
    const first = await runInProcess(['seed', '--json'], stack.env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ seeded: true });
    const again = await runInProcess(['seed', '--json'], stack.env);
    expect(JSON.parse(again.stdout)).toEqual({ seeded: false });
  });
});
