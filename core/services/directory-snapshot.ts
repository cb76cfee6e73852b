import type { Database } from '../db/orm.ts';
import { OrganizationEntity, type Organization } from '../entities/index.ts';
import { DISCOVERABLE_ORGANIZATION_FILTER, organizationProfile, type Links, type OrganizationProfile } from '../visibility.ts';
import type { ChangeFeed } from './change-feed.ts';

export interface DirectoryEntry {
  row: Organization;
  profile: OrganizationProfile;
}

export interface Directory {
  /** By id. */
  entries: readonly DirectoryEntry[];
  byId: ReadonlyMap<string, DirectoryEntry>;
}

/**
 * The discoverable organizations, read once per change of public data rather than on every
 * directory call. Tagged with the change feed's version like the REST page cache: a change made
 * here retires it at once, one made by another process within a poll of the epoch. Read-only:
 * its rows belong to an EntityManager of their own that is never flushed.
 */
export class DirectorySnapshot {
  private current: { version: number; directory: Directory } | undefined;
  private loading: { version: number; promise: Promise<Directory> } | undefined;

  constructor(
    private readonly db: Database,
    private readonly feed: ChangeFeed,
    private readonly links: Links,
  ) {}

  get(): Promise<Directory> {
    const version = this.feed.version;
    if (this.current?.version === version) return Promise.resolve(this.current.directory);
    if (this.loading?.version === version) return this.loading.promise;
    const promise = this.load().then(
      (directory) => {
        // Tagged with the version seen before reading: a change during the read forces a new one.
        if (!this.current || this.current.version < version) this.current = { version, directory };
        if (this.loading?.promise === promise) this.loading = undefined;
        return directory;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { version, promise };
    return promise;
  }

  private async load(): Promise<Directory> {
    const rows = await this.db.em.fork().find(OrganizationEntity, DISCOVERABLE_ORGANIZATION_FILTER, { orderBy: { id: 'asc' } });
    const entries = rows.map((row) => ({ row, profile: organizationProfile(row, this.links) }));
    return { entries, byId: new Map(entries.map((e) => [e.row.id, e])) };
  }
}
