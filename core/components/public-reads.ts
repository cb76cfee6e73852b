import DataLoader from 'dataloader';
import type { KeysetPosition } from '../cursor.ts';
import type { PreparedStatements } from '../db/prepared.ts';
import { eventView, needView, organizationProfile, type Links, type OrganizationRecord } from '../visibility.ts';
import type { EventView, NeedView, OrganizationProfile, OrganizationSummary } from '../public-views.ts';
import { STATEMENTS, type EventRow, type NeedRow } from './public-statements.ts';

// The public read path: the prepared statements of public-statements.ts, their records turned
// straight into the visibility module's views (no entity, no unit of work). Reads by
// id are batched: the ids asked for in one turn of the event loop, by every request of the
// process, go out as one statement (core/db/read-turn.ts).

/** A page of rows in keyset order, with each view's position. */
export interface RowPage<V> {
  /** Up to `first + 1` views: the extra one only tells that more follow. */
  views: V[];
  positions: Map<string, number>;
}

/** Most ids read by one statement. */
const MAX_BATCH = 100;

export class PublicReads {
  private readonly needs: DataLoader<string, NeedView | null>;
  private readonly events: DataLoader<string, EventView | null>;
  private readonly organizations: DataLoader<string, OrganizationProfile | null>;
  private readonly names: DataLoader<string, OrganizationSummary | null>;

  private readonly statements: PreparedStatements;
  private readonly links: Links;

  constructor(statements: PreparedStatements, links: Links) {
    this.statements = statements;
    this.links = links;
    const loader = <V>(load: (ids: readonly string[]) => Promise<Map<string, V>>) =>
      new DataLoader<string, V | null>(
        async (ids) => {
          const found = await load(ids);
          return ids.map((id) => found.get(id) ?? null);
        },
        { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: statements.turn.schedule },
      );
    this.needs = loader(async (ids) => byId(await statements.all(STATEMENTS.needsById, { ids }), (row) => this.needOf(row)));
    this.events = loader(async (ids) => byId(await statements.all(STATEMENTS.eventsById, { ids }), (row) => this.eventOf(row)));
    this.organizations = loader(async (ids) =>
      byId(await statements.all(STATEMENTS.organizationsById, { ids }), (row) => organizationProfile(row, this.links)),
    );
    this.names = loader(async (ids) => byId(await statements.all(STATEMENTS.organizationNames, { ids }), (row) => row));
  }

  /** A public need; null when absent or not public. */
  need(id: string): Promise<NeedView | null> {
    return this.needs.load(id);
  }

  private needOf(row: NeedRow): NeedView {
    return needView(row, this.links, row.organizationName);
  }

  /** Public needs, newest published first, after `position` when given: `first + 1` rows. */
  async needPage(first: number, position: KeysetPosition | undefined): Promise<RowPage<NeedView>> {
    const rows = position
      ? await this.statements.all(STATEMENTS.needsAfter, { publishedAt: new Date(position.at), id: position.id, limit: first + 1 })
      : await this.statements.all(STATEMENTS.needsFirst, { limit: first + 1 });
    return this.page(
      rows,
      (row) => this.needOf(row),
      (row) => row.publishedAt?.getTime() ?? 0,
    );
  }

  /** A public event; null when absent or cancelled. */
  event(id: string): Promise<EventView | null> {
    return this.events.load(id);
  }

  private eventOf(row: EventRow): EventView {
    return eventView(row, this.links, row.hostName);
  }

  /** Upcoming and ongoing public events at `now`, soonest first, after `position` when given: `first + 1` rows. */
  async eventPage(first: number, position: KeysetPosition | undefined, now: Date): Promise<RowPage<EventView>> {
    const rows = position
      ? await this.statements.all(STATEMENTS.eventsAfter, { now, startsAt: new Date(position.at), id: position.id, limit: first + 1 })
      : await this.statements.all(STATEMENTS.eventsFirst, { now, limit: first + 1 });
    return this.page(
      rows,
      (row) => this.eventOf(row),
      (row) => row.startsAt.getTime(),
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
    const rows = await this.statements.all(STATEMENTS.discoverable, {});
    return rows.map((row) => ({ row, profile: organizationProfile(row, this.links) }));
  }

  private page<Row, V extends { id: string }>(rows: Row[], view: (row: Row) => V, position: (row: Row) => number): RowPage<V> {
    const positions = new Map<string, number>();
    const views = rows.map((row) => {
      const v = view(row);
      positions.set(v.id, position(row));
      return v;
    });
    return { views, positions };
  }
}

/** Each row's view, by the row's id. */
function byId<Row extends { id: string }, V>(rows: Row[], view: (row: Row) => V): Map<string, V> {
  return new Map(rows.map((row) => [row.id, view(row)]));
}
