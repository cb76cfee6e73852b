import type { Database } from '../db/orm.ts';
import { sqlOf } from '../db/sql.ts';
import type { Links } from '../links.ts';
import { bumpChangeEpoch, type ChangeFeed } from './change-feed.ts';

/** The `settings` row where the serving API records the base address it answers under. */
export const SERVED_BASE_SETTING = 'public_base_url';

/**
 * How a process's links relate to the recorded address: `serve` records its own (the API
 * server), `follow` uses the record (a process without PUBLIC_BASE_URL that does not serve the
 * API: the dispatcher, the CLI), `fixed` uses its own and records nothing.
 */
export type LinksMode = 'serve' | 'follow' | 'fixed';

/**
 * The base of every link this process hands out, read on each use (`publicBaseUrl` is a property
 * read, so services, views and signal data see a new value without being rebuilt). Precedence:
 * PUBLIC_BASE_URL, then the address the serving API recorded in `settings`, then `http://HOST:PORT`.
 *
 * A follower reads the record when the core opens (enough for the CLI, whose process lasts one
 * command) and again whenever the shared change epoch moves, which the serving API bumps when the
 * address it records changes: a long-lived process (the dispatcher) started before the server
 * learns it within one poll of the change feed, at no cost per use, and its caches, which hold
 * links, are retired with it.
 */
export class ServiceLinks implements Links {
  private base: string;
  private readonly fallback: string;
  private mode: LinksMode;
  private readonly db: Database;
  private readonly feed: ChangeFeed;

  constructor(db: Database, feed: ChangeFeed, publicBaseUrl: string, mode: LinksMode) {
    this.db = db;
    this.feed = feed;
    this.base = publicBaseUrl;
    this.fallback = publicBaseUrl;
    this.mode = mode;
  }

  get publicBaseUrl(): string {
    return this.base;
  }

  /**
   * Records the server's address, or reads the recorded one and follows it from now on. Called
   * before the change feed's first read, so a record made here retires no cache later.
   */
  async open(): Promise<void> {
    if (this.mode === 'serve') await this.serve(this.base);
    if (this.mode !== 'follow') return;
    await this.refresh();
    this.feed.onChange((notice) => {
      if (!notice.all) return;
      // A new address retires this process's caches once more: entries made while it was read hold the old one.
      this.refresh().then(
        (changed) => changed && this.feed.changed(),
        () => {},
      );
    });
  }

  /**
   * The serving API's address, from now on this process's links and the record the followers
   * use; said again once it listens, when the port was chosen then (PORT=0). Returns true when
   * the record changed (the change epoch then moves, and every process's caches retire).
   */
  async serve(base: string): Promise<boolean> {
    const before = this.base;
    this.mode = 'serve';
    this.base = base;
    if (before !== base) this.feed.changed();
    return this.db.em.fork().transactional(async (em) => {
      const db = sqlOf(em);
      const row = await db.selectFrom('Setting').select('value').where('key', '=', SERVED_BASE_SETTING).executeTakeFirst();
      if (row?.value === base) return false;
      await db
        .insertInto('Setting')
        .values({ key: SERVED_BASE_SETTING, value: base })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: base }))
        .execute();
      await bumpChangeEpoch(em);
      return true;
    });
  }

  /** Reads the recorded address; true when this process's links changed. */
  private async refresh(): Promise<boolean> {
    if (this.mode !== 'follow') return false;
    const db = sqlOf(this.db.em.fork());
    const row = await db.selectFrom('Setting').select('value').where('key', '=', SERVED_BASE_SETTING).executeTakeFirst();
    const next = row?.value ?? this.fallback;
    if (this.mode !== 'follow' || next === this.base) return false;
    this.base = next;
    return true;
  }
}
