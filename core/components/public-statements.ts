import type { ExpressionBuilder } from 'kysely';
import { prepared } from '../db/statement-compiler.ts';
import { matching, type DB } from '../db/sql.ts';
import {
  DISCOVERABLE_ORGANIZATION_FILTER,
  EVENT_RECORD,
  NEED_RECORD,
  ORGANIZATION_RECORD,
  PUBLIC_EVENT_FILTER,
  PUBLIC_NEED_FILTER,
  type EventRecord,
  type NeedRecord,
  type OrganizationRecord,
} from '../visibility.ts';

// The public read path's statements (components/public-reads.ts runs them): the records the
// visibility module declares, under its rules, compiled once per process (db/prepared.ts).
//
// A deep page seeks its index with one row-value comparison, `(published_at, id) < (?, ?)`:
// SQLite and PostgreSQL both seek a `(…, column, id)` index straight to it, where
// `column <= t and (column < t or id < i)` scans every row sharing `t`. Reads by id join from the
// list of ids (`idTable`), so each id is one primary-key lookup, whatever the number of ids.

export type NeedRow = NeedRecord & { organizationName: string | null };

/** `fields` of `table`, qualified: a read by id joins the id list, which has columns of its own (`json_each`'s `id`). */
const of = <T extends string, const F extends readonly string[]>(table: T, fields: F) =>
  fields.map((field) => `${table}.${field}`) as { [K in keyof F]: `${T}.${F[K]}` };
export type EventRow = EventRecord & { hostName: string | null };

/**
 * A need's or an event's organization name, read with the row: one primary-key lookup per row,
 * where the schema would otherwise load the names with a second statement. A subquery rather than
 * a join, so the visibility conditions keep naming the row's own properties (`demo` is a property
 * of organizations too).
 */
const organizationName = (eb: ExpressionBuilder<DB, 'Need'>) =>
  eb.selectFrom('Organization').select('Organization.name').whereRef('Organization.id', '=', 'Need.organization').as('organizationName');
const hostName = (eb: ExpressionBuilder<DB, 'Event'>) =>
  eb.selectFrom('Organization').select('Organization.name').whereRef('Organization.id', '=', 'Event.host').as('hostName');

export const STATEMENTS = {
  needsById: prepared<{ ids: readonly string[] }, NeedRow>('public_needs_by_id', (db, { idTable }) =>
    db
      .selectFrom(idTable('ids').as('j'))
      .crossJoin('Need')
      .select(of('Need', NEED_RECORD))
      .select(organizationName)
      .whereRef('Need.id', '=', 'j.value')
      .where((eb) => matching(eb, PUBLIC_NEED_FILTER)),
  ),
  needsFirst: prepared<{ limit: number }, NeedRow>('public_needs_first', (db, { p }) =>
    db
      .selectFrom('Need')
      .select(NEED_RECORD)
      .select(organizationName)
      .where((eb) => matching(eb, PUBLIC_NEED_FILTER))
      .orderBy('publishedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
  needsAfter: prepared<{ publishedAt: Date; id: string; limit: number }, NeedRow>('public_needs_after', (db, { p }) =>
    db
      .selectFrom('Need')
      .select(NEED_RECORD)
      .select(organizationName)
      .where((eb) => matching(eb, PUBLIC_NEED_FILTER))
      .where((eb) => eb(eb.refTuple('publishedAt', 'id'), '<', eb.tuple(p.publishedAt, p.id)))
      .orderBy('publishedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
  eventsById: prepared<{ ids: readonly string[] }, EventRow>('public_events_by_id', (db, { idTable }) =>
    db
      .selectFrom(idTable('ids').as('j'))
      .crossJoin('Event')
      .select(of('Event', EVENT_RECORD))
      .select(hostName)
      .whereRef('Event.id', '=', 'j.value')
      .where((eb) => matching(eb, PUBLIC_EVENT_FILTER)),
  ),
  eventsFirst: prepared<{ now: Date; limit: number }, EventRow>('public_events_first', (db, { p }) =>
    db
      .selectFrom('Event')
      .select(EVENT_RECORD)
      .select(hostName)
      .where((eb) => matching(eb, PUBLIC_EVENT_FILTER))
      .where('endsAt', '>', p.now)
      .orderBy('startsAt')
      .orderBy('id')
      .limit(p.limit),
  ),
  eventsAfter: prepared<{ now: Date; startsAt: Date; id: string; limit: number }, EventRow>('public_events_after', (db, { p }) =>
    db
      .selectFrom('Event')
      .select(EVENT_RECORD)
      .select(hostName)
      .where((eb) => matching(eb, PUBLIC_EVENT_FILTER))
      .where('endsAt', '>', p.now)
      .where((eb) => eb(eb.refTuple('startsAt', 'id'), '>', eb.tuple(p.startsAt, p.id)))
      .orderBy('startsAt')
      .orderBy('id')
      .limit(p.limit),
  ),
  organizationsById: prepared<{ ids: readonly string[] }, OrganizationRecord>('organizations_by_id', (db, { idTable }) =>
    db
      .selectFrom(idTable('ids').as('j'))
      .crossJoin('Organization')
      .select(of('Organization', ORGANIZATION_RECORD))
      .whereRef('Organization.id', '=', 'j.value'),
  ),
  organizationNames: prepared<{ ids: readonly string[] }, { id: string; name: string }>('organization_names_by_id', (db, { idTable }) =>
    db
      .selectFrom(idTable('ids').as('j'))
      .crossJoin('Organization')
      .select(['Organization.id', 'Organization.name'])
      .whereRef('Organization.id', '=', 'j.value'),
  ),
  discoverable: prepared<Record<string, never>, OrganizationRecord>('discoverable_organizations', (db) =>
    db
      .selectFrom('Organization')
      .select(ORGANIZATION_RECORD)
      .where((eb) => matching(eb, DISCOVERABLE_ORGANIZATION_FILTER))
      .orderBy('id'),
  ),
};

/** The list statements, for tests and benchmarks that check the databases' plans of them. */
export const PUBLIC_LIST_STATEMENTS = {
  needsFirst: STATEMENTS.needsFirst,
  needsAfter: STATEMENTS.needsAfter,
  eventsAfter: STATEMENTS.eventsAfter,
} as const;
