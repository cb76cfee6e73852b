import DataLoader from 'dataloader';
import type { KeysetPosition } from '../cursor.ts';
import type { QueryRunner } from '../db/query-layer.ts';
import { rowCodec, type RowCodec } from '../db/row-codec.ts';
import {
  eventView,
  needView,
  organizationProfile,
  type EventView,
  type Links,
  type NeedView,
  type OrganizationProfile,
  type OrganizationRecord,
  type OrganizationSummary,
} from '../visibility.ts';
import { E, N, O, STATEMENTS, type Row } from './public-statements.ts';

// The public read path: the prepared statements of public-statements.ts through the query layer,
// rows turned straight into the visibility module's views (no entity, no unit of work). Reads by
// id are batched: the ids asked for in one tick, by every request of the process, go out as one
// statement.

/** A page of rows in keyset order, with each view's position. */
export interface RowPage<V> {
  /** Up to `first + 1` views: the extra one only tells that more follow. */
  views: V[];
  positions: Map<string, number>;
}

/** Most ids read by one statement. */
const MAX_BATCH = 100;

export class PublicReads {
  private readonly codec: RowCodec;
  private readonly needs: DataLoader<string, NeedView | null>;
  private readonly events: DataLoader<string, EventView | null>;
  private readonly organizations: DataLoader<string, OrganizationProfile | null>;
  private readonly names: DataLoader<string, OrganizationSummary | null>;

  private readonly runner: QueryRunner;
  private readonly links: Links;

  constructor(runner: QueryRunner, links: Links) {
    this.runner = runner;
    this.links = links;
    this.codec = rowCodec(runner.kind);
    const loader = <V>(load: (ids: readonly string[]) => Promise<Map<string, V>>) =>
      new DataLoader<string, V | null>(
        async (ids) => {
          const found = await load(ids);
          return ids.map((id) => found.get(id) ?? null);
        },
        { cache: false, maxBatchSize: MAX_BATCH },
      );
    this.needs = loader((ids) => this.byId(STATEMENTS.needsById, ids, (row) => this.needOf(row)));
    this.events = loader((ids) => this.byId(STATEMENTS.eventsById, ids, (row) => this.eventOf(row)));
    this.organizations = loader((ids) =>
      this.byId(STATEMENTS.organizationsById, ids, (row) => organizationProfile(this.organization(row), this.links)),
    );
    this.names = loader(async (ids) => {
      const rows = await this.runner.all(STATEMENTS.organizationNames, [this.idList(ids)]);
      return new Map(rows.map(([id, name]) => [id, { id, name }]));
    });
  }

  /** A public need; null when absent or not public. */
  need(id: string): Promise<NeedView | null> {
    return this.needs.load(id);
  }

  private needOf(row: Row): NeedView {
    const c = this.codec;
    return needView(
      {
        id: row[N.id] as string,
        organization: { id: row[N.organization_id] as string },
        title: row[N.title] as string,
        description: row[N.description] as string,
        requiredExpertise: c.readJson<string[]>(row[N.required_expertise]),
        remoteAllowed: c.readBool(row[N.remote_allowed]),
        city: (row[N.city] as string | null) ?? null,
        region: (row[N.region] as string | null) ?? null,
        country: (row[N.country] as string | null) ?? null,
        deadline: c.readOptionalDate(row[N.deadline]),
        state: row[N.state] as NeedView['admin']['state'],
        discreet: c.readBool(row[N.discreet]),
        demo: c.readBool(row[N.demo]),
        version: Number(row[N.version]),
        publishedAt: c.readOptionalDate(row[N.published_at]),
        withdrawnAt: c.readOptionalDate(row[N.withdrawn_at]),
        updatedAt: c.readDate(row[N.updated_at]),
      },
      this.links,
      row[N.organization_name] as string | null,
    );
  }

  /** Public needs, newest published first, after `position` when given: `first + 1` rows. */
  async needPage(first: number, position: KeysetPosition | undefined): Promise<RowPage<NeedView>> {
    const rows = position
      ? await this.runner.all(STATEMENTS.needsAfter, [this.codec.date(new Date(position.at)), position.id, first + 1])
      : await this.runner.all(STATEMENTS.needsFirst, [first + 1]);
    return this.page(
      rows,
      (row) => this.needOf(row),
      (row) => this.codec.readOptionalDate(row[N.published_at])?.getTime() ?? 0,
    );
  }

  /** A public event; null when absent or cancelled. */
  event(id: string): Promise<EventView | null> {
    return this.events.load(id);
  }

  private eventOf(row: Row): EventView {
    const c = this.codec;
    return eventView(
      {
        id: row[E.id] as string,
        host: { id: row[E.host_id] as string },
        title: row[E.title] as string,
        description: row[E.description] as string,
        startsAt: c.readDate(row[E.starts_at]),
        endsAt: c.readDate(row[E.ends_at]),
        timezone: row[E.timezone] as string,
        online: c.readBool(row[E.online]),
        city: (row[E.city] as string | null) ?? null,
        region: (row[E.region] as string | null) ?? null,
        country: (row[E.country] as string | null) ?? null,
        status: row[E.status] as EventView['admin']['status'],
        demo: c.readBool(row[E.demo]),
        version: Number(row[E.version]),
        cancelledAt: c.readOptionalDate(row[E.cancelled_at]),
        updatedAt: c.readDate(row[E.updated_at]),
      },
      this.links,
      row[E.host_name] as string | null,
    );
  }

  /** Upcoming and ongoing public events at `now`, soonest first, after `position` when given: `first + 1` rows. */
  async eventPage(first: number, position: KeysetPosition | undefined, now: Date): Promise<RowPage<EventView>> {
    const p = (date: Date) => this.codec.date(date);
    const rows = position
      ? await this.runner.all(STATEMENTS.eventsAfter, [p(now), p(new Date(position.at)), position.id, first + 1])
      : await this.runner.all(STATEMENTS.eventsFirst, [p(now), first + 1]);
    return this.page(
      rows,
      (row) => this.eventOf(row),
      (row) => this.codec.readDate(row[E.starts_at]).getTime(),
    );
  }

  /** Any organization's profile (callers decide who may see it); null when absent. */
  organizationProfile(id: string): Promise<OrganizationProfile | null> {
    return this.organizations.load(id);
  }

  /** Names of organizations, by id; null for an unknown id. */
  async organizationNames(ids: readonly string[]): Promise<(OrganizationSummary | null)[]> {
    const found = await this.names.loadMany(ids);
    return found.map((entry) => (entry instanceof Error ? null : entry));
  }

  /** Every discoverable organization, by id, as the public directory shows them. */
  async discoverable(): Promise<{ row: OrganizationRecord; profile: OrganizationProfile }[]> {
    const rows = await this.runner.all(STATEMENTS.discoverable, []);
    return rows.map((r) => {
      const row = this.organization(r);
      return { row, profile: organizationProfile(row, this.links) };
    });
  }

  private organization(r: Row): OrganizationRecord {
    const c = this.codec;
    return {
      id: r[O.id] as string,
      name: r[O.name] as string,
      plan: r[O.plan] as OrganizationRecord['plan'],
      listed: c.readBool(r[O.listed]),
      demo: c.readBool(r[O.demo]),
      complete: c.readBool(r[O.complete]),
      description: r[O.description] as string,
      website: (r[O.website] as string | null) ?? null,
      logoUrl: (r[O.logo_url] as string | null) ?? null,
      sectors: c.readJson<string[]>(r[O.sectors]),
      capabilities: c.readJson<string[]>(r[O.capabilities]),
      networks: c.readJson<string[]>(r[O.networks]),
      city: (r[O.city] as string | null) ?? null,
      region: (r[O.region] as string | null) ?? null,
      country: (r[O.country] as string | null) ?? null,
      partnerPaymentsDue: Number(r[O.partner_payments_due]),
      partnerPaymentsConfirmed: Number(r[O.partner_payments_confirmed]),
      partnersCount: Number(r[O.partners_count]),
      completedPacks: Number(r[O.completed_packs]),
      referencesCount: Number(r[O.references_count]),
      certificationsCount: Number(r[O.certifications_count]),
      createdAt: c.readDate(r[O.created_at]),
      updatedAt: c.readDate(r[O.updated_at]),
    };
  }

  private async byId<V>(st: (typeof STATEMENTS)['needsById'], ids: readonly string[], view: (row: Row) => V): Promise<Map<string, V>> {
    const rows = await this.runner.all(st, [this.idList(ids)]);
    return new Map(rows.map((row) => [row[0] as string, view(row)]));
  }

  /** The id list parameter: a JSON array on SQLite (json_each), an array on PostgreSQL (any). */
  private idList(ids: readonly string[]): unknown {
    return this.runner.kind === 'sqlite' ? JSON.stringify(ids) : ids;
  }

  private page<V extends { id: string }>(rows: Row[], view: (row: Row) => V, position: (row: Row) => number): RowPage<V> {
    const positions = new Map<string, number>();
    const views = rows.map((row) => {
      const v = view(row);
      positions.set(v.id, position(row));
      return v;
    });
    return { views, positions };
  }
}
