// REST API v1: the representations of docs/service-contract.md#resources, exactly, and their freshness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../core/demo/canaries.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import {
  createEvent,
  createKey,
  createOrganization,
  DAY_MS,
  eventually,
  expectOk,
  ISO_MS,
  publishNeed,
  runCli,
  updateNeed,
  walk,
  type EventBody,
  type ListBody,
  type OpportunityBody,
  type OrganizationBody,
} from './helpers.ts';
import type { MutationData } from '../support/graphql-data.ts';

const ORGANIZATION_KEYS = [
  'id',
  'name',
  'description',
  'website',
  'logo_url',
  'sectors',
  'capabilities',
  'place',
  'networks',
  'partner_payment',
  'proofs',
  'profile_url',
  'updated_at',
];
const OPPORTUNITY_KEYS = [
  'id',
  'title',
  'description',
  'required_expertise',
  'remote_allowed',
  'place',
  'organization',
  'url',
  'published_at',
  'updated_at',
  'deadline',
];
const EVENT_KEYS = ['id', 'title', 'description', 'starts_at', 'ends_at', 'timezone', 'online', 'place', 'url', 'host', 'updated_at'];
const PLACE_KEYS = ['city', 'region', 'country'];

const sorted = (keys: string[]) => [...keys].sort();
const keysOf = (value: unknown) => Object.keys(value as object).sort();

const nullableString = (value: unknown) => value === null || typeof value === 'string';
const stringArray = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

function expectPlace(place: unknown, nullable: boolean) {
  if (place === null) {
    expect(nullable, 'place may be null here').toBe(true);
    return;
  }
  expect(keysOf(place)).toEqual(sorted(PLACE_KEYS));
  for (const key of PLACE_KEYS) expect(nullableString((place as Record<string, unknown>)[key])).toBe(true);
}

function expectOrganization(o: OrganizationBody) {
  expect(keysOf(o)).toEqual(sorted(ORGANIZATION_KEYS));
  expect(o.id).toEqual(expect.any(String));
  expect(o.name).toEqual(expect.any(String));
  expect(o.description).toEqual(expect.any(String));
  expect(nullableString(o.website)).toBe(true);
  expect(nullableString(o.logo_url)).toBe(true);
  expect(stringArray(o.sectors)).toBe(true);
  expect(stringArray(o.capabilities)).toBe(true);
  expect(stringArray(o.networks)).toBe(true);
  expectPlace(o.place, false);
  expect(keysOf(o.partner_payment)).toEqual(['confirmed_rate_percent', 'partners_count']);
  const rate = o.partner_payment.confirmed_rate_percent;
  expect(rate === null || (Number.isInteger(rate) && rate >= 0 && rate <= 100)).toBe(true);
  expect(Number.isInteger(o.partner_payment.partners_count)).toBe(true);
  expect(keysOf(o.proofs)).toEqual(['certifications', 'completed_packs', 'references']);
  for (const count of Object.values(o.proofs)) expect(Number.isInteger(count)).toBe(true);
  expect(o.profile_url).toBe(`${PUBLIC_BASE_URL}/organizations/${encodeURIComponent(o.id)}`);
  expect(o.updated_at).toMatch(ISO_MS);
}

function expectOpportunity(n: OpportunityBody) {
  expect(keysOf(n)).toEqual(sorted(OPPORTUNITY_KEYS));
  expect(n.id).toEqual(expect.any(String));
  expect(n.id.length).toBeLessThanOrEqual(120);
  expect(n.title).toEqual(expect.any(String));
  expect(n.description).toEqual(expect.any(String));
  expect(stringArray(n.required_expertise)).toBe(true);
  expect(n.remote_allowed).toBeTypeOf('boolean');
  expectPlace(n.place, true);
  expect(keysOf(n.organization)).toEqual(['id', 'name']);
  expect(n.organization.id).toEqual(expect.any(String));
  expect(n.organization.name).toEqual(expect.any(String));
  expect(n.url).toBe(`${PUBLIC_BASE_URL}/opportunities/${encodeURIComponent(n.id)}`);
  expect(n.published_at).toMatch(ISO_MS);
  expect(n.updated_at).toMatch(ISO_MS);
  if (n.deadline !== null) expect(n.deadline).toMatch(ISO_MS);
}

function expectEvent(e: EventBody) {
  expect(keysOf(e)).toEqual(sorted(EVENT_KEYS));
  expect(e.id).toEqual(expect.any(String));
  expect(e.id.length).toBeLessThanOrEqual(120);
  expect(e.title).toEqual(expect.any(String));
  expect(e.description).toEqual(expect.any(String));
  expect(e.starts_at).toMatch(ISO_MS);
  expect(e.ends_at).toMatch(ISO_MS);
  expect(Date.parse(e.ends_at)).toBeGreaterThan(Date.parse(e.starts_at));
  expect(e.timezone).toEqual(expect.any(String));
  expect(e.online).toBeTypeOf('boolean');
  if (e.online) expect(e.place).toBeNull();
  else expectPlace(e.place, false);
  expect(keysOf(e.host)).toEqual(['id', 'name']);
  expect(e.url).toBe(`${PUBLIC_BASE_URL}/events/${encodeURIComponent(e.id)}`);
  expect(e.updated_at).toMatch(ISO_MS);
}

let stack: Stack;
let org: string;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  org = await createOrganization(stack, 'clan', 'Resource Testers');
});
afterAll(() => stack?.close());

describe('GET /organization', () => {
  it('is the public profile of the organization bound to the demo key, with exactly the contract fields (docs/service-contract.md#organization)', async () => {
    const o = await expectOk<OrganizationBody>(await stack.get('/organization'));
    expectOrganization(o);
    expect(o).toEqual({
      id: 'atelier-nord',
      name: 'Atelier Nord',
      description: 'Architecture and interior design studio for public buildings and workplaces.',
      website: 'https://atelier-nord.example',
      logo_url: 'https://atelier-nord.example/logo.png',
      sectors: ['architecture', 'design'],
      capabilities: ['architecture', 'interior design', '3d modelling', 'project management'],
      place: { city: 'Lille', region: 'Hauts-de-France', country: 'FR' },
      networks: ['French Tech Lille'],
      // 23 of 24 partner payments confirmed: a rate and a count, never an amount.
      partner_payment: { confirmed_rate_percent: 96, partners_count: 9 },
      proofs: { completed_packs: 14, references: 11, certifications: 2 },
      profile_url: `${PUBLIC_BASE_URL}/organizations/atelier-nord`,
      updated_at: expect.stringMatching(ISO_MS),
    });
  });

  it('each key sees its own organization, listed or not, complete or not', async () => {
    const keys = new Map<string, string>();
    for (const id of ['cobalt-data', 'harbor-studio', 'granite-coop', org])
      keys.set(id, (await createKey(stack, id, ['organization:read'])).key);
    keys.set('atelier-nord', stack.demoKey);
    // Interleaved twice, so a cached answer of one organization can never be served to another.
    for (let round = 0; round < 2; round++) {
      for (const [id, key] of keys) {
        const o = await expectOk<OrganizationBody>(await stack.get('/organization', { key }));
        expectOrganization(o);
        expect(o.id).toBe(id);
      }
    }
    const cobalt = await expectOk<OrganizationBody>(await stack.get('/organization', { key: keys.get('cobalt-data')! }));
    expect(cobalt.partner_payment).toEqual({ confirmed_rate_percent: 88, partners_count: 4 });
    expect(cobalt.proofs).toEqual({ completed_packs: 6, references: 5, certifications: 1 });
    const fresh = await expectOk<OrganizationBody>(await stack.get('/organization', { key: keys.get(org)! }));
    expect(fresh).toMatchObject({
      name: 'Resource Testers',
      website: null,
      logo_url: null,
      place: { city: 'Ghent', region: null, country: 'BE' },
      networks: [],
      partner_payment: { confirmed_rate_percent: null, partners_count: 0 },
      proofs: { completed_packs: 0, references: 0, certifications: 0 },
    });
  });

  it('shows a profile change at once', async () => {
    const key = (await createKey(stack, org, ['organization:read'])).key;
    const before = await expectOk<OrganizationBody>(await stack.get('/organization', { key }));
    await stack.graphql<MutationData<'updateOrganization'>>(
      `mutation ($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { id } }`,
      {
        id: org,
        input: { description: 'Updated description', networks: ['Test Network'] },
      },
    );
    const after = await expectOk<OrganizationBody>(await stack.get('/organization', { key }));
    expect(after.description).toBe('Updated description');
    expect(after.networks).toEqual(['Test Network']);
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
  });
});

describe('opportunities', () => {
  it('list items and by-id answers carry exactly the docs/service-contract.md#opportunity fields, and agree', async () => {
    const items = (await walk<OpportunityBody>(stack, '/opportunities', 50)).flatMap((p) => p.data);
    expect(items.length).toBeGreaterThan(20);
    for (const item of items) {
      expectOpportunity(item);
      const one = await expectOk<OpportunityBody>(await stack.get(`/opportunities/${encodeURIComponent(item.id)}`));
      expect(one).toEqual(item);
    }
    const schoolExtension = items.find((n) => n.title === 'Structural engineer for a school extension');
    expect(schoolExtension).toMatchObject({
      description: 'We design a two-storey timber extension for a primary school and need a structural engineer for the feasibility study.',
      required_expertise: ['structural engineering', 'timber construction'],
      remote_allowed: false,
      place: { city: 'Lille', region: null, country: 'FR' },
      organization: { id: 'atelier-nord', name: 'Atelier Nord' },
      deadline: expect.stringMatching(ISO_MS),
    });
    const remote = items.find((n) => n.title === 'Lighting designer for a library renovation');
    expect(remote).toMatchObject({ remote_allowed: true, place: null, deadline: null });
  });

  it('a published need reads back field by field', async () => {
    const deadline = new Date(Date.now() + 20 * DAY_MS);
    const id = await publishNeed(stack, {
      organizationId: org,
      title: 'Solar-powered kiosk prototype',
      description: 'Design and build one kiosk.',
      requiredExpertise: ['industrial design', 'electronics'],
      remoteAllowed: false,
      city: 'Ghent',
      country: 'BE',
      deadline: deadline.toISOString(),
    });
    const n = await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`));
    expectOpportunity(n);
    expect(n).toEqual({
      id,
      title: 'Solar-powered kiosk prototype',
      description: 'Design and build one kiosk.',
      required_expertise: ['industrial design', 'electronics'],
      remote_allowed: false,
      place: { city: 'Ghent', region: null, country: 'BE' },
      organization: { id: org, name: 'Resource Testers' },
      url: `${PUBLIC_BASE_URL}/opportunities/${id}`,
      published_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deadline: deadline.toISOString(),
    });
    expect(Math.abs(Date.parse(n.published_at!) - Date.now())).toBeLessThan(60_000);
  });

  it('an update shows at once on the by-id and list endpoints', async () => {
    const id = await publishNeed(stack, { organizationId: org, title: 'Title before the update' });
    // Warm every cache first.
    expect((await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`))).title).toBe('Title before the update');
    const listed = async () =>
      (await expectOk<ListBody<OpportunityBody>>(await stack.get('/opportunities?limit=5'))).data.find((n) => n.id === id);
    expect((await listed())?.title).toBe('Title before the update');

    await updateNeed(stack, id, {
      title: 'Title after the update',
      requiredExpertise: ['changed'],
      remoteAllowed: false,
      city: 'Liège',
      country: 'BE',
    });
    const one = await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`));
    expect(one).toMatchObject({
      title: 'Title after the update',
      required_expertise: ['changed'],
      remote_allowed: false,
      place: { city: 'Liège', region: null, country: 'BE' },
    });
    expect(await listed()).toEqual(one);
    expect(Date.parse(one.updated_at)).toBeGreaterThanOrEqual(Date.parse(one.published_at!));
  });
});

describe('changes made by another process', () => {
  it('a need updated with the admin CLI shows within a change-feed poll', async () => {
    const id = await publishNeed(stack, { organizationId: org, title: 'Before the CLI' });
    expect((await expectOk<OpportunityBody>(await stack.get(`/opportunities/${id}`))).title).toBe('Before the CLI');
    expect((await expectOk<ListBody<OpportunityBody>>(await stack.get('/opportunities?limit=3'))).data.map((n) => n.title)).toContain(
      'Before the CLI',
    );

    const updated = await runCli<{ title: string }>(stack, ['needs', 'update', id, '--title', 'Changed by the CLI']);
    expect(updated.title).toBe('Changed by the CLI');
    const seen = await eventually(
      async () => ((await (await stack.get(`/opportunities/${id}`)).json()) as { title: string }).title === 'Changed by the CLI',
    );
    expect(seen, 'by-id shows the change').toBe(true);
    expect(
      (await expectOk<ListBody<OpportunityBody>>(await stack.get('/opportunities?limit=3'))).data.find((n) => n.id === id)?.title,
    ).toBe('Changed by the CLI');
  }, 60_000);
});

describe('events', () => {
  it('list items and by-id answers carry exactly the docs/service-contract.md#event fields, and agree', async () => {
    const items = (await walk<EventBody>(stack, '/events', 50)).flatMap((p) => p.data);
    expect(items.length).toBeGreaterThanOrEqual(8);
    for (const item of items) {
      expectEvent(item);
      expect(await expectOk<EventBody>(await stack.get(`/events/${encodeURIComponent(item.id)}`))).toEqual(item);
    }
    expect(items.find((e) => e.title === 'Forecasting with small data')).toMatchObject({
      online: true,
      place: null,
      timezone: 'Europe/Paris',
      host: { id: 'cobalt-data', name: 'Cobalt Data' },
    });
    expect(items.find((e) => e.title === 'Retrofit day')).toMatchObject({
      online: false,
      place: { city: 'Montréal', region: null, country: 'CA' },
      timezone: 'America/Toronto',
      host: { id: 'juniper-green', name: 'Juniper Green Energy' },
    });
  });

  it('a created event reads back field by field, without its internal host fields', async () => {
    const startsAt = new Date(Date.now() + 9 * DAY_MS);
    const endsAt = new Date(startsAt.getTime() + 2 * 3600_000);
    const id = await createEvent(stack, {
      organizationId: org,
      title: 'Kiosk launch',
      description: 'Come and see it.',
      startsAt,
      endsAt,
      online: false,
      city: 'Ghent',
      country: 'BE',
      timezone: 'Europe/Brussels',
      hostContactEmail: 'secret-host-contact@example.org',
      hostNotes: 'secret host note 77',
    });
    const res = await stack.get(`/events/${id}`);
    const text = await res.clone().text();
    expect(text).not.toContain('secret-host-contact');
    expect(text).not.toContain('secret host note');
    const e = await expectOk<EventBody>(res);
    expectEvent(e);
    expect(e).toEqual({
      id,
      title: 'Kiosk launch',
      description: 'Come and see it.',
      starts_at: startsAt.toISOString(),
      ends_at: endsAt.toISOString(),
      timezone: 'Europe/Brussels',
      online: false,
      place: { city: 'Ghent', region: null, country: 'BE' },
      url: `${PUBLIC_BASE_URL}/events/${id}`,
      host: { id: org, name: 'Resource Testers' },
      updated_at: expect.stringMatching(ISO_MS),
    });
  });

  it('an update shows at once on the by-id and list endpoints', async () => {
    const startsAt = new Date(Date.now() + 3600_000);
    const id = await createEvent(stack, {
      organizationId: org,
      title: 'Event before the update',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3600_000),
    });
    expect((await expectOk<EventBody>(await stack.get(`/events/${id}`))).title).toBe('Event before the update');
    const listed = async () => (await expectOk<ListBody<EventBody>>(await stack.get('/events?limit=50'))).data.find((e) => e.id === id);
    expect((await listed())?.title).toBe('Event before the update');
    await stack.graphql<MutationData<'updateEvent'>>(
      `mutation ($id: ID!, $input: EventChangesInput!) { updateEvent(id: $id, input: $input) { id } }`,
      {
        id,
        input: { title: 'Event after the update', online: false, city: 'Namur', country: 'BE' },
      },
    );
    const one = await expectOk<EventBody>(await stack.get(`/events/${id}`));
    expect(one).toMatchObject({ title: 'Event after the update', online: false, place: { city: 'Namur', region: null, country: 'BE' } });
    expect(await listed()).toEqual(one);
  });
});

describe('privacy', () => {
  it('no public answer carries a private canary value or an internal field name', async () => {
    const key = (await createKey(stack, 'juniper-green')).key;
    const texts: string[] = [];
    const read = async (path: string, k?: string) => {
      const res = await stack.get(path, k ? { key: k } : {});
      expect(res.status).toBe(200);
      texts.push(await res.text());
    };
    await read('/organization');
    await read('/organization', key);
    for (const list of ['/opportunities', '/events'] as const) {
      for (const page of await walk(stack, list, 50)) {
        texts.push(JSON.stringify(page));
        for (const item of page.data as { id: string }[]) await read(`${list}/${item.id}`);
      }
    }
    const all = texts.join('\n');
    expect(findCanaries(all)).toEqual([]);
    for (const internal of [
      'billing',
      'internal_notes',
      'internalNotes',
      'host_contact',
      'hostContact',
      'host_notes',
      'plan',
      'admin',
      'demo',
      'discreet',
      'version',
      'amount',
      'cents',
    ]) {
      expect(all.includes(`"${internal}"`), `no "${internal}" member`).toBe(false);
    }
  });
});
