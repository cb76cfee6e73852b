// The public read path (prepared statements, rows straight to views) answers exactly what the
// entity path answers, on whichever database the suite runs (SQLite, or PostgreSQL when
// DATABASE_URL is set): every need, event and organization, public or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEntity, NeedEntity, OrganizationEntity } from '../../core/entities/index.ts';
import { INTERNAL, PUBLIC, bulkSeed, databaseKind } from '../../core/index.ts';
import {
  PUBLIC_EVENT_FILTER,
  PUBLIC_NEED_FILTER,
  eventView,
  isOrganizationDiscoverable,
  needView,
  organizationProfile,
} from '../../core/visibility.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createEvent, makeNeedPrivate, publishNeed, withdrawNeed } from './helpers.ts';

let stack: Stack;
const links = { publicBaseUrl: 'https://packline.test' };

beforeAll(async () => {
  stack = await startStack();
  const core = stack.app.core;
  await bulkSeed(core, databaseKind(stack.config), { needs: 300, events: 120, seed: 7 });
  // Needs and events in every state, beside the demo data's (demonstration, discreet, drafts).
  const gone = await publishNeed(stack, { organizationId: 'atelier-nord', title: 'Withdrawn at once' });
  await withdrawNeed(stack, gone);
  const hidden = await publishNeed(stack, { organizationId: 'atelier-nord', title: 'Made private', city: 'Lyon', country: 'FR' });
  await makeNeedPrivate(stack, hidden);
  const startsAt = new Date(Date.now() + 3_600_000);
  const endsAt = new Date(Date.now() + 7_200_000);
  await createEvent(stack, { organizationId: 'atelier-nord', title: 'Online meetup', startsAt, endsAt, online: true });
}, 120_000);

afterAll(() => stack?.close());

const em = () => stack.app.core.db.em.fork();
const reads = () => stack.app.core.services().needs;

/** Organization names by id, which the read path fetches with each need and event. */
async function organizationNames(): Promise<Map<string, string>> {
  const all = await em().find(OrganizationEntity, {});
  return new Map(all.map((o) => [o.id, o.name]));
}

describe('the public read path against the entity path', () => {
  it('reads every need by id as the entity path does: the same view when public, nothing otherwise', async () => {
    const all = await em().find(NeedEntity, {}, { orderBy: { id: 'asc' } });
    const names = await organizationNames();
    expect(all.length).toBeGreaterThan(300);
    const services = stack.app.core.services();
    const answers = await Promise.all(all.map((n) => services.needs.getPublic(INTERNAL, n.id).catch((e: { code?: string }) => e.code)));
    all.forEach((need, i) => {
      const isPublic = need.state === PUBLIC_NEED_FILTER.state && need.demo === PUBLIC_NEED_FILTER.demo;
      const expected = isPublic ? needView(need, links, names.get(need.organization.id)) : 'not_found';
      expect(answers[i], need.id).toEqual(expected);
    });
  });

  it('reads every event by id as the entity path does', async () => {
    const all = await em().find(EventEntity, {}, { orderBy: { id: 'asc' } });
    const names = await organizationNames();
    const services = stack.app.core.services();
    const answers = await Promise.all(
      all.map((e) => services.events.getPublic(INTERNAL, e.id).catch((error: { code?: string }) => error.code)),
    );
    all.forEach((event, i) => {
      const isPublic = event.status === PUBLIC_EVENT_FILTER.status && event.demo === PUBLIC_EVENT_FILTER.demo;
      const expected = isPublic ? eventView(event, links, names.get(event.host.id)) : 'not_found';
      expect(answers[i], event.id).toEqual(expected);
    });
  });

  it('walks the needs list page by page exactly as the entity query orders and filters it', async () => {
    const expected = await em().find(NeedEntity, PUBLIC_NEED_FILTER, { orderBy: { publishedAt: 'desc', id: 'desc' } });
    const names = await organizationNames();
    const seen = [];
    let after: string | null = null;
    do {
      const page = await reads().listPublic(INTERNAL, { first: 37, after });
      seen.push(...page.items);
      after = page.nextCursor;
    } while (after);
    expect(seen).toEqual(expected.map((n) => needView(n, links, names.get(n.organization.id))));
    expect(seen.every((n) => n.organization !== null)).toBe(true);
  });

  it('walks the upcoming events list as the entity query does', async () => {
    const now = new Date();
    const upcoming = { ...PUBLIC_EVENT_FILTER, endsAt: { $gt: now } };
    const expected = await em().find(EventEntity, upcoming, { orderBy: { startsAt: 'asc', id: 'asc' } });
    const names = await organizationNames();
    const seen = [];
    let after: string | null = null;
    do {
      const page = await stack.app.core.services().events.listPublic(INTERNAL, { first: 23, after }, now);
      seen.push(...page.items);
      after = page.nextCursor;
    } while (after);
    expect(seen.length).toBeGreaterThan(23);
    expect(seen).toEqual(expected.map((e) => eventView(e, links, names.get(e.host.id))));
    expect(seen.every((e) => e.host !== null)).toBe(true);
  });

  it('reads organizations, their names and the public directory as the entity path does', async () => {
    const all = await em().find(OrganizationEntity, {}, { orderBy: { id: 'asc' } });
    const services = stack.app.core.services();
    for (const org of all) {
      expect(await services.organizations.getProfile(INTERNAL, org.id)).toEqual(organizationProfile(org, links));
    }
    const names = await services.organizations.summaries([...all.map((o) => o.id), 'no-such-org']);
    expect(names).toEqual([...all.map((o) => ({ id: o.id, name: o.name })), null]);
    const directory = await services.directory.search(PUBLIC, {}, { first: 50 });
    const discoverable = all.filter(isOrganizationDiscoverable).map((o) => organizationProfile(o, links));
    expect(directory.items).toEqual(discoverable.slice(0, 50));
  });
});
