// REST API v1: keyset pagination of /opportunities and /events (docs/design.md#pagination-and-cursors), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import {
  allEvents,
  allNeeds,
  cancelEvent,
  createEvent,
  createNeedDraft,
  createOrganization,
  DAY_MS,
  dbDate,
  expectOk,
  makeNeedPrivate,
  publishNeed,
  sql,
  walk,
  withdrawNeed,
  type ListBody,
} from './helpers.ts';

interface Item {
  id: string;
  title: string;
  published_at?: string;
  starts_at?: string;
  ends_at?: string;
}

let stack: Stack;
let org: string;
const HOUR = 3600_000;

/** Opportunities: newest published first, ties by id descending. */
function expectOpportunityOrder(items: Item[]) {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const ta = Date.parse(a.published_at!);
    const tb = Date.parse(b.published_at!);
    expect(ta > tb || (ta === tb && a.id > b.id), `${a.id} (${a.published_at}) before ${b.id} (${b.published_at})`).toBe(true);
  }
}

/** Events: soonest start first, ties by id ascending. */
function expectEventOrder(items: Item[]) {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const ta = Date.parse(a.starts_at!);
    const tb = Date.parse(b.starts_at!);
    expect(ta < tb || (ta === tb && a.id < b.id), `${a.id} (${a.starts_at}) before ${b.id} (${b.starts_at})`).toBe(true);
  }
}

function expectPageShapes(pages: ListBody<Item>[], limit: number) {
  pages.forEach((page, i) => {
    const last = i === pages.length - 1;
    expect(Object.keys(page).sort()).toEqual(['data', 'meta']);
    expect(Object.keys(page.meta)).toEqual(['next_cursor']);
    if (last) {
      expect(page.meta.next_cursor).toBeNull();
      expect(page.data.length).toBeLessThanOrEqual(limit);
    } else {
      expect(page.meta.next_cursor).toEqual(expect.any(String));
      expect(page.data).toHaveLength(limit);
    }
  });
}

/** Walks the list with every limit from 1 to 50, ten walks at a time. */
async function walkEveryLimit(list: '/opportunities' | '/events'): Promise<[number, ListBody<Item>[]][]> {
  const out: [number, ListBody<Item>[]][] = [];
  for (let from = 1; from <= 50; from += 10) {
    const limits = Array.from({ length: 10 }, (_, i) => from + i);
    const walks = await Promise.all(limits.map((limit) => walk<Item>(stack, list, limit)));
    for (const [i, limit] of limits.entries()) out.push([limit, walks[i]!]);
  }
  return out;
}

async function expectedOpportunityIds(): Promise<Set<string>> {
  return new Set((await allNeeds(stack)).filter((n) => n.state === 'public' && !n.demo).map((n) => n.id));
}

async function expectedEventIds(now = Date.now()): Promise<Set<string>> {
  return new Set((await allEvents(stack)).filter((e) => e.status === 'public' && !e.demo && e.endsAt.getTime() > now).map((e) => e.id));
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  org = await createOrganization(stack, 'clan');
  const demoOrg = await stack.graphql<{ createOrganization: { id: string } }>(
    `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`,
    { input: { id: 'pager-demo', profile: { name: 'Pager demo', plan: 'clan', demo: true } } },
  );

  // Needs: public ones (some discreet), with groups of identical published_at to exercise the
  // id tie-break across page boundaries, plus needs that must never be listed.
  const published: string[] = [];
  for (let i = 0; i < 24; i++) {
    published.push(await publishNeed(stack, { organizationId: org, title: `Pager need ${i}`, discreet: i % 5 === 0 }));
  }
  const tie = (ids: string[], at: Date) =>
    sql(stack, `update needs set published_at = ? where id in (${ids.map(() => '?').join(', ')})`, [dbDate(stack, at), ...ids]);
  await tie(published.slice(0, 7), new Date(Date.now() - 3 * HOUR));
  await tie(published.slice(7, 12), new Date(Date.now() - 50 * HOUR));
  await tie(published.slice(12, 15), new Date(Date.now() - 2 * DAY_MS * 30));
  await publishNeed(stack, { organizationId: org, title: 'Pager demonstration need', demo: true });
  await publishNeed(stack, { organizationId: demoOrg.createOrganization.id, title: 'Need of a demonstration organization' });
  await createNeedDraft(stack, { organizationId: org, title: 'Pager draft' });
  const toPrivate = await publishNeed(stack, { organizationId: org, title: 'Pager need made private' });
  await makeNeedPrivate(stack, toPrivate);
  const toWithdraw = await publishNeed(stack, { organizationId: org, title: 'Pager need withdrawn' });
  await withdrawNeed(stack, toWithdraw);

  // Events: upcoming ones with identical starts, an ongoing one, and ones that must not be listed.
  const inDays = (d: number) => new Date(Math.floor((Date.now() + d * DAY_MS) / 60_000) * 60_000);
  const tiedStart = inDays(4);
  for (let i = 0; i < 6; i++) {
    await createEvent(stack, {
      organizationId: org,
      title: `Pager tied event ${i}`,
      startsAt: tiedStart,
      endsAt: new Date(tiedStart.getTime() + HOUR),
    });
  }
  for (let i = 0; i < 8; i++) {
    await createEvent(stack, {
      organizationId: org,
      title: `Pager event ${i}`,
      startsAt: inDays(1 + i * 2.5),
      endsAt: new Date(inDays(1 + i * 2.5).getTime() + 2 * HOUR),
    });
  }
  await createEvent(stack, { organizationId: org, title: 'Pager ongoing event', startsAt: inDays(-2), endsAt: inDays(2) });
  await createEvent(stack, { organizationId: org, title: 'Pager ended event', startsAt: inDays(-3), endsAt: inDays(-1) });
  const cancelled = await createEvent(stack, {
    organizationId: org,
    title: 'Pager cancelled event',
    startsAt: inDays(5),
    endsAt: inDays(6),
  });
  await cancelEvent(stack, cancelled);
  await createEvent(stack, {
    organizationId: demoOrg.createOrganization.id,
    title: 'Pager demonstration event',
    startsAt: inDays(5),
    endsAt: inDays(6),
  });
});

afterAll(() => stack?.close());

describe('/opportunities', () => {
  it('walking with every limit from 1 to 50 returns every public opportunity exactly once, newest published first', async () => {
    const expected = await expectedOpportunityIds();
    expect(expected.size).toBeGreaterThan(50);
    let reference: string[] | undefined;
    for (const [limit, pages] of await walkEveryLimit('/opportunities')) {
      expectPageShapes(pages, limit);
      const items = pages.flatMap((p) => p.data);
      const ids = items.map((i) => i.id);
      expect(new Set(ids).size, `limit=${limit}: no duplicates`).toBe(ids.length);
      expect(new Set(ids), `limit=${limit}: exactly the public needs`).toEqual(expected);
      expectOpportunityOrder(items);
      reference ??= ids;
      expect(ids, `limit=${limit}: same sequence as limit=1`).toEqual(reference);
    }
  });

  it('the default page size is 20', async () => {
    const page = await expectOk<ListBody<Item>>(await stack.get('/opportunities'));
    expect(page.data).toHaveLength(20);
    expect(page.meta.next_cursor).toEqual(expect.any(String));
  });

  it('discreet needs are listed; demonstration, draft, private and withdrawn needs never are', async () => {
    const titles = (await walk<Item>(stack, '/opportunities', 50)).flatMap((p) => p.data.map((i) => i.title));
    expect(titles).toContain('Landscape architect for a schoolyard'); // discreet, demo data
    expect(titles).toContain('Pager need 0'); // discreet
    expect(titles).toContain('Data protection officer, part time'); // public, never pushed (amount), still readable
    for (const hidden of [
      'Draft: design system audit',
      'Private: supplier for titanium parts',
      'Withdrawn: heat pump installers',
      'Demonstration need: sample brief',
      'Demonstration organization need',
      'Pager demonstration need',
      'Need of a demonstration organization',
      'Pager draft',
      'Pager need made private',
      'Pager need withdrawn',
    ]) {
      expect(titles).not.toContain(hidden);
    }
  });

  it('a cursor stays valid after the item it points at is withdrawn', async () => {
    const need = await publishNeed(stack, { organizationId: org, title: 'Cursor anchor' });
    const first = await expectOk<ListBody<Item>>(await stack.get('/opportunities?limit=1'));
    expect(first.data[0]!.id).toBe(need);
    const second = await expectOk<ListBody<Item>>(
      await stack.get(`/opportunities?limit=3&cursor=${encodeURIComponent(first.meta.next_cursor!)}`),
    );
    await withdrawNeed(stack, need);
    const again = await expectOk<ListBody<Item>>(
      await stack.get(`/opportunities?limit=3&cursor=${encodeURIComponent(first.meta.next_cursor!)}`),
    );
    expect(again.data.map((i) => i.id)).toEqual(second.data.map((i) => i.id));
    const fresh = await expectOk<ListBody<Item>>(await stack.get('/opportunities?limit=1'));
    expect(fresh.data[0]!.id).not.toBe(need);
  });

  it('paginating while needs are published and withdrawn: no duplicates and no gaps', async () => {
    const initial = [...(await expectedOpportunityIds())];
    const withdrawn = new Set<string>();
    const published = new Set<string>();
    const seen: Item[] = [];
    // Withdraw in a spread order so some withdrawn needs were already read and some were not.
    const victims = initial.filter((_, i) => i % 4 === 1);
    let cursor: string | null = null;
    let round = 0;
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const victim = victims[round % victims.length]!;
      const mutations: Promise<unknown>[] = [
        publishNeed(stack, { organizationId: org, title: `Published during the walk ${round}` }).then((id) => published.add(id)),
      ];
      if (!withdrawn.has(victim)) {
        withdrawn.add(victim);
        mutations.push(round % 2 === 0 ? withdrawNeed(stack, victim) : makeNeedPrivate(stack, victim));
      }
      const [res] = await Promise.all([stack.get(`/opportunities${query}`), ...mutations]);
      const page: ListBody<Item> = await expectOk<ListBody<Item>>(res as Response);
      seen.push(...page.data);
      cursor = page.meta.next_cursor;
      round++;
    } while (cursor !== null && round < 500);
    expect(cursor).toBeNull();
    expect(published.size).toBeGreaterThan(10);
    expect(withdrawn.size).toBeGreaterThan(5);

    const ids = seen.map((i) => i.id);
    expect(new Set(ids).size, 'no duplicates').toBe(ids.length);
    const seenSet = new Set(ids);
    const stayed = initial.filter((id) => !withdrawn.has(id));
    for (const id of stayed) expect(seenSet.has(id), `${id} stayed public and was listed`).toBe(true);
    const possible = new Set([...initial, ...published]);
    for (const id of ids) expect(possible.has(id), `${id} was public at some point`).toBe(true);
    expectOpportunityOrder(seen);

    // After the walk, the list is exactly the needs public now.
    const after = (await walk<Item>(stack, '/opportunities', 50)).flatMap((p) => p.data.map((i) => i.id));
    expect(new Set(after)).toEqual(new Set([...stayed, ...published]));
    for (const id of withdrawn) expect((await stack.get(`/opportunities/${id}`)).status).toBe(404);
  });
});

describe('/events', () => {
  it('walking with every limit from 1 to 50 returns every upcoming or ongoing public event exactly once, soonest first', async () => {
    const expected = await expectedEventIds();
    expect(expected.size).toBeGreaterThan(20);
    let reference: string[] | undefined;
    for (const [limit, pages] of await walkEveryLimit('/events')) {
      expectPageShapes(pages, limit);
      const items = pages.flatMap((p) => p.data);
      const ids = items.map((i) => i.id);
      expect(new Set(ids).size, `limit=${limit}: no duplicates`).toBe(ids.length);
      expect(new Set(ids), `limit=${limit}: exactly the upcoming and ongoing public events`).toEqual(expected);
      for (const item of items) expect(Date.parse(item.ends_at!)).toBeGreaterThan(Date.now());
      expectEventOrder(items);
      reference ??= ids;
      expect(ids, `limit=${limit}: same sequence as limit=1`).toEqual(reference);
    }
  });

  it('ongoing events are listed; ended, cancelled and demonstration events are not', async () => {
    const titles = (await walk<Item>(stack, '/events', 50)).flatMap((p) => p.data.map((i) => i.title));
    expect(titles).toContain('Makers week'); // demo data, ongoing
    expect(titles).toContain('Pager ongoing event');
    expect(titles).toContain('Pager tied event 5');
    for (const hidden of [
      'Open studio: timber in public buildings',
      'Accessibility clinic (past)',
      'Product teams summit',
      'Demonstration event',
      'Pager ended event',
      'Pager cancelled event',
      'Pager demonstration event',
    ]) {
      expect(titles).not.toContain(hidden);
    }
  });

  it('paginating while events are created and cancelled: no duplicates and no gaps', async () => {
    const initial = [...(await expectedEventIds())];
    const cancelled = new Set<string>();
    const created = new Set<string>();
    const victims = initial.filter((_, i) => i % 3 === 1);
    const seen: Item[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const startsAt = new Date(Date.now() + (1 + ((round * 7) % 30)) * DAY_MS);
      const mutations: Promise<unknown>[] = [
        createEvent(stack, {
          organizationId: org,
          title: `Created during the walk ${round}`,
          startsAt,
          endsAt: new Date(startsAt.getTime() + HOUR),
        }).then((id) => created.add(id)),
      ];
      const victim = victims[round];
      if (victim) {
        cancelled.add(victim);
        mutations.push(cancelEvent(stack, victim));
      }
      const [res] = await Promise.all([stack.get(`/events${query}`), ...mutations]);
      const page: ListBody<Item> = await expectOk<ListBody<Item>>(res as Response);
      seen.push(...page.data);
      cursor = page.meta.next_cursor;
      round++;
    } while (cursor !== null && round < 500);
    expect(cursor).toBeNull();
    expect(cancelled.size).toBeGreaterThan(3);

    const ids = seen.map((i) => i.id);
    expect(new Set(ids).size, 'no duplicates').toBe(ids.length);
    const seenSet = new Set(ids);
    for (const id of initial.filter((id) => !cancelled.has(id))) expect(seenSet.has(id), `${id} stayed public and was listed`).toBe(true);
    const possible = new Set([...initial, ...created]);
    for (const id of ids) expect(possible.has(id)).toBe(true);
    expectEventOrder(seen);
    for (const id of cancelled) expect((await stack.get(`/events/${id}`)).status).toBe(404);
  });
});
