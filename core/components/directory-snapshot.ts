import type { OrganizationRecord } from '../visibility.ts';
import type { OrganizationProfile } from '../public-views.ts';
import { kindTag, type ChangeFeed } from './change-feed.ts';
import type { PublicReads } from './public-reads.ts';

export interface DirectoryEntry {
  row: OrganizationRecord;
  profile: OrganizationProfile;
}

export interface Directory {
  /** By id. */
  entries: readonly DirectoryEntry[];
  byId: ReadonlyMap<string, DirectoryEntry>;
}

/**
 * The discoverable organizations, read once per change of an organization rather than on every
 * directory call. A change of an organization made here retires it at once, one made by another
 * process within a poll of the change feed; changes of needs, events or keys leave it alone.
 * Read through the public read path (rows, not entities).
 */
export class DirectorySnapshot {
  private current: (Stamp & { directory: Directory }) | undefined;
  private loading: (Stamp & { promise: Promise<Directory> }) | undefined;

  private readonly reads: PublicReads;
  private readonly feed: ChangeFeed;

  constructor(reads: PublicReads, feed: ChangeFeed) {
    this.reads = reads;
    this.feed = feed;
  }

  get(): Promise<Directory> {
    if (this.current && this.fresh(this.current)) return Promise.resolve(this.current.directory);
    if (this.loading && this.fresh(this.loading)) return this.loading.promise;
    // Stamped before reading: a change during the read makes the next call read again.
    const stamp = this.stamp();
    const promise = this.load().then(
      (directory) => {
        this.current = { ...stamp, directory };
        if (this.loading?.promise === promise) this.loading = undefined;
        return directory;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { ...stamp, promise };
    return promise;
  }

  private stamp(): Stamp {
    return { generation: this.feed.generation, organizations: this.feed.stamp(ORGANIZATIONS) };
  }

  private fresh(entry: Stamp): boolean {
    return entry.generation === this.feed.generation && entry.organizations === this.feed.stamp(ORGANIZATIONS);
  }

  private async load(): Promise<Directory> {
    const entries = await this.reads.discoverable();
    return { entries, byId: new Map(entries.map((e) => [e.row.id, e])) };
  }
}

interface Stamp {
  generation: number;
  organizations: number;
}

const ORGANIZATIONS = kindTag('organization');
