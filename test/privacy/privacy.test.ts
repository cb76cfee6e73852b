import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY, canaryStrings, findCanaries } from '../../core/demo/canaries.ts';
import { DEMO_ORGANIZATIONS } from '../../core/demo/demo-data.ts';
import { startStack, type Stack } from '../support/stack.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

// Everything the public REST API can answer, read in full with keys of every demo organization,
// must carry none of the canary values that the demo data stores in private objects and
// internal fields (docs/design.md#never-exposed, docs/design.md#visibility-rules), no demonstration content and no unpublished need.

const ALL_SCOPES = ['organization:read', 'opportunities:read', 'events:read'];
const PRIVATE_TABLES = [
  'pack_members',
  'revenue_splits',
  'collections',
  'payouts',
  'payout_confirmations',
  'milestones',
  'pack_documents',
  'private_threads',
  'thread_messages',
  'quotes',
  'pacts',
  'pact_signatures',
  'private_clauses',
  'contract_templates',
  'organizations',
  'events',
];
/** Demonstration content of the demo data: never public output. */
const DEMO_TEXT = [
  'iris-demo',
  'Iris (demonstration)',
  'Demonstration need: sample brief',
  'Demonstration organization need',
  'Demonstration event',
  'Demo Network',
];
/** Unpublished needs and cancelled events of the demo data. */
const UNPUBLISHED_TEXT = [
  'Draft: design system audit',
  'Private: supplier for titanium parts',
  'Withdrawn: heat pump installers',
  'Product teams summit',
  'Cancelled summit',
];

interface Read {
  url: string;
  status: number;
  text: string;
  headers: string;
}

describe('privacy of public outputs', () => {
  let stack: Stack;
  /** Every answer read, with its headers. */
  const reads: Read[] = [];
  const keys = new Map<string, string>();
  const listed = { opportunities: new Set<string>(), events: new Set<string>() };
  let hidden: { needs: { id: string; why: string }[]; events: { id: string; why: string }[] };

  const corpus = () => reads.map((r) => `${r.url}\n${r.headers}\n${r.text}`).join('\n\n');

  async function read(
    path: string,
    options: { key?: string | null; headers?: Record<string, string>; method?: string } = {},
  ): Promise<Read> {
    const url = `${stack.api}${path}`;
    const key = options.key === undefined ? stack.demoKey : options.key;
    const res = await fetch(url, {
      method: options.method ?? 'GET',
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...options.headers },
    });
    const entry = { url, status: res.status, text: await res.text(), headers: [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n') };
    reads.push(entry);
    return entry;
  }

  /** Reads every page of a list, then every item of it by id. */
  async function walk(list: 'opportunities' | 'events', key: string, limit: number) {
    let cursor: string | null = null;
    const seen: string[] = [];
    for (let pages = 0; pages < 200; pages++) {
      const page = await read(`/${list}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
      expect(page.status, page.text).toBe(200);
      const body = JSON.parse(page.text) as { data: { id: string }[]; meta: { next_cursor: string | null } };
      seen.push(...body.data.map((item) => item.id));
      cursor = body.meta.next_cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    for (const id of seen) {
      listed[list].add(id);
      const one = await read(`/${list}/${encodeURIComponent(id)}`, { key });
      expect(one.status, one.text).toBe(200);
    }
    return seen;
  }

  beforeAll(async () => {
    stack = await startStack();
    keys.set('atelier-nord', stack.demoKey);
    // A key for every organization of the demo data except the demonstration account, whose
    // own profile is its own business; packs involve atelier-nord, juniper-green, delta-forge
    // and cobalt-data.
    for (const org of DEMO_ORGANIZATIONS) {
      if (org.demo) continue;
      const { createApiKey } = await stack.graphql<MutationData<'createApiKey'>>(
        `mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { key } }`,
        {
          input: {
            organizationId: org.id,
            name: 'privacy test',
            scopes: ALL_SCOPES,
            expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
          },
        },
      );
      keys.set(`${org.id} (own key)`, createApiKey.key);
    }

    const needs = await stack.graphql<QueryData<'needs'>>(`{ needs(first: 50) { edges { node { id title admin { state demo } } } } }`);
    const events: { id: string; status: string; demo: unknown }[] = await stack.app.core.db.em
      .getConnection()
      .execute('select id, status, demo from events');
    hidden = {
      needs: needs.needs.edges
        .map((e) => e.node)
        .filter((n) => n.admin.state !== 'public' || n.admin.demo)
        .map((n) => ({ id: n.id, why: n.admin.demo ? 'demonstration' : n.admin.state })),
      events: events
        .filter((e) => e.status !== 'public' || Boolean(e.demo))
        .map((e) => ({ id: e.id, why: e.status !== 'public' ? e.status : 'demonstration' })),
    };

    // The profile, through every key.
    for (const key of keys.values()) expect((await read('/organization', { key })).status).toBe(200);
    // Every list, in small and large pages, and every listed item.
    for (const limit of [7, 50]) {
      await walk('opportunities', stack.demoKey, limit);
      await walk('events', stack.demoKey, limit);
    }
    await walk('opportunities', keys.get('juniper-green (own key)')!, 20);
    await walk('events', keys.get('delta-forge (own key)')!, 20);
    // Unpublished and demonstration content, by id: refused.
    for (const { id } of hidden.needs) await read(`/opportunities/${encodeURIComponent(id)}`);
    for (const { id } of hidden.events) await read(`/events/${encodeURIComponent(id)}`);
    // The contract and error answers.
    await read('/openapi.json', { key: null });
    await read('/organization', { key: null });
    await read('/opportunities', { key: 'live_wrong' });
    await read('/organization', { headers: { origin: 'https://browser.example' } });
    await read('/opportunities?limit=0');
    await read('/events?cursor=forged');
    await read(`/events/${'x'.repeat(121)}`);
    await read('/opportunities', { method: 'POST' });
    await read('/nothing-here');
    const scoped = await stack.graphql<MutationData<'createApiKey'>>(
      `mutation { createApiKey(input: { organizationId: "atelier-nord", scopes: ["events:read"], expiresAt: "${new Date(Date.now() + 86_400_000).toISOString()}" }) { key } }`,
    );
    await read('/organization', { key: scoped.createApiKey.key });
    for (const code of new Set(
      reads.filter((r) => r.status >= 400 && r.text.startsWith('{')).map((r) => JSON.parse(r.text).code as string | undefined),
    )) {
      if (code) await read(`/problems/${code}`, { key: null });
    }
  });
  afterAll(() => stack?.close());

  describe('the detector', () => {
    it('finds a canary in a text, in any notation of an amount', () => {
      expect(findCanaries(`a profile with ${CANARY.positioning} inside`)).toEqual([CANARY.positioning]);
      expect(findCanaries(`total: ${(CANARY.splitTotalCents / 100).toLocaleString('fr-FR')} €`)).toEqual([
        (CANARY.splitTotalCents / 100).toLocaleString('fr-FR'),
      ]);
      expect(findCanaries(JSON.stringify({ amount_cents: CANARY.quoteCents }))).toEqual([String(CANARY.quoteCents)]);
      expect(findCanaries('Atelier Nord, Lille, 14 completed packs')).toEqual([]);
    });

    it('would catch the private data this deployment holds', async () => {
      const connection = stack.app.core.db.em.getConnection();
      const rows = await Promise.all(PRIVATE_TABLES.map((table) => connection.execute(`select * from ${table}`)));
      const found = findCanaries(JSON.stringify(rows));
      // Every text canary and every amount is stored somewhere the public API must not reach.
      const textCanaries = Object.values(CANARY).filter((v) => typeof v === 'string');
      expect(found).toEqual(expect.arrayContaining(textCanaries));
      expect(found).toEqual(
        expect.arrayContaining(
          Object.values(CANARY)
            .filter((v) => typeof v === 'number' && Number.isInteger(v))
            .map(String),
        ),
      );
      expect(found.length).toBeGreaterThan(canaryStrings().length / 3);
    });
  });

  describe('what was read', () => {
    it('covers every key, every page and every listed item', async () => {
      expect(keys.size).toBe(DEMO_ORGANIZATIONS.filter((o) => !o.demo).length + 1); // + the demo key
      const profiles = reads.filter((r) => r.url.endsWith('/organization') && r.status === 200).map((r) => JSON.parse(r.text).id);
      expect(new Set(profiles)).toEqual(new Set(DEMO_ORGANIZATIONS.filter((o) => !o.demo).map((o) => o.id)));
      const { needs } = await stack.graphql<QueryData<'needs'>>(
        `{ needs(state: public, first: 50) { edges { node { id admin { demo } } } } }`,
      );
      const publicNeeds = needs.edges.filter((e) => !e.node.admin.demo).map((e) => e.node.id);
      expect(new Set(listed.opportunities)).toEqual(new Set(publicNeeds));
      expect(listed.events.size).toBeGreaterThanOrEqual(8);
      expect(hidden.needs.map((n) => n.why).sort()).toEqual(['demonstration', 'demonstration', 'draft', 'private', 'withdrawn']);
      expect(hidden.events.map((e) => e.why).sort()).toEqual(['cancelled', 'demonstration']);
      expect(reads.length).toBeGreaterThan(100);
    });
  });

  describe('no public output', () => {
    it('carries a canary value of a private object or internal field (bodies and headers)', () => {
      const leaks = reads.flatMap((r) => findCanaries(`${r.headers}\n${r.text}`).map((c) => `${r.url} (${r.status}): ${c}`));
      expect(leaks).toEqual([]);
      expect(findCanaries(corpus())).toEqual([]);
    });

    it('carries demonstration content', () => {
      const text = corpus();
      expect(DEMO_TEXT.filter((t) => text.includes(t))).toEqual([]);
    });

    it('carries unpublished needs or cancelled events', () => {
      const text = corpus();
      expect(UNPUBLISHED_TEXT.filter((t) => text.includes(t))).toEqual([]);
      // Their ids appear only in the URLs (and problem details) of the refused by-id reads.
      for (const { id, why } of [...hidden.needs, ...hidden.events]) {
        const carrying = reads.filter((r) => r.text.includes(id) || r.headers.includes(id));
        expect(
          carrying.every((r) => r.status === 404 && r.url.includes(encodeURIComponent(id))),
          `${why} ${id}`,
        ).toBe(true);
        expect(listed.opportunities.has(id) || listed.events.has(id), `${why} ${id} listed`).toBe(false);
      }
    });

    it('answers unpublished and demonstration items by id with a bare 404', () => {
      for (const { id } of [...hidden.needs, ...hidden.events]) {
        const answer = reads.find((r) => r.url.endsWith(`/${encodeURIComponent(id)}`))!;
        expect(answer.status).toBe(404);
        const body = JSON.parse(answer.text);
        expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'request_id', 'status', 'title', 'type']);
        expect(body.code).toBe('not_found');
      }
    });

    it('gives partner payment as a rate and a count, never an amount', () => {
      const profiles = reads.filter((r) => r.url.endsWith('/organization') && r.status === 200).map((r) => JSON.parse(r.text));
      for (const profile of profiles) {
        expect(Object.keys(profile.partner_payment).sort()).toEqual(['confirmed_rate_percent', 'partners_count']);
        const rate = profile.partner_payment.confirmed_rate_percent;
        expect(rate === null || (Number.isInteger(rate) && rate >= 0 && rate <= 100)).toBe(true);
      }
      // No member of any answer (the contract aside, which explains the rule in words) names one.
      const names = new Set<string>();
      const collect = (value: unknown): void => {
        if (Array.isArray(value)) value.forEach(collect);
        else if (value && typeof value === 'object') {
          for (const [k, v] of Object.entries(value)) {
            names.add(k);
            collect(v);
          }
        }
      };
      for (const r of reads.filter((x) => !x.url.endsWith('/openapi.json') && x.text.startsWith('{'))) collect(JSON.parse(r.text));
      expect(names.size).toBeGreaterThan(30);
      expect(
        [...names].filter((n) => /amount|cents|price|billing|internal|host_contact|host_notes|positioning|split|payout/i.test(n)),
      ).toEqual([]);
    });
  });
});
