import { LRUCache } from 'lru-cache';
import { hashApiKey, isWellFormedApiKey } from '../api-key-format.ts';
import type { Database } from '../db/orm.ts';
import { ApiKeyEntity, type ApiScope, type Plan } from '../entities/index.ts';
import type { ChangeFeed, ChangeNotice } from './change-feed.ts';
import { serially } from './serially.ts';

export interface AuthenticatedKey {
  keyId: string;
  organizationId: string;
  plan: Plan;
  scopes: readonly ApiScope[];
  expiresAt: number;
}

export interface KeyAuthenticatorOptions {
  /** How long a lookup is reused when nothing changed. @default 30_000 */
  ttlMs?: number;
  /** How often last-use times are written. @default 15_000 */
  flushIntervalMs?: number;
}

type Lookup = AuthenticatedKey | 'unknown';

/**
 * Resolves bearer keys to their organization and scopes. Lookups are cached briefly and
 * dropped when their key or its organization changes (in this process at once, elsewhere
 * within a poll of the change feed);
 * a malformed key is refused by its checksum without touching the database.
 */
export class KeyAuthenticator {
  private readonly cache: LRUCache<string, Lookup>;
  private readonly lastUsed = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  private readonly db: Database;

  constructor(db: Database, feed: ChangeFeed, { ttlMs = 30_000, flushIntervalMs = 15_000 }: KeyAuthenticatorOptions = {}) {
    this.db = db;
    this.cache = new LRUCache({ max: 20_000, ttl: ttlMs });
    feed.onChange((notice) => this.retire(notice));
    this.timer = setInterval(() => void this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  /**
   * The grant from the cache alone: null when the key is known to be refused, undefined when
   * the cache cannot tell (then call `authenticate`). Lets the hot path skip a promise.
   */
  peek(key: string, now = Date.now()): AuthenticatedKey | null | undefined {
    const lookup = this.cache.get(key);
    if (lookup === undefined) return undefined;
    if (lookup === 'unknown' || lookup.expiresAt <= now) return null;
    this.lastUsed.set(lookup.keyId, now);
    return lookup;
  }

  /** The key's grant, or null when the key is unknown, revoked or expired. */
  async authenticate(key: string, now = Date.now()): Promise<AuthenticatedKey | null> {
    const cached = this.peek(key, now);
    if (cached !== undefined) return cached;
    if (!isWellFormedApiKey(key)) return null;
    const lookup = await this.load(hashApiKey(key));
    // Keyed by the key itself so a cached check needs no hashing; the store holds only hashes.
    this.cache.set(key, lookup);
    return this.peek(key, now) ?? null;
  }

  /**
   * Drops only the lookups a change made stale: a key's own change retires that key (and any
   * refusal kept, since the change may be the key's creation); an organization's change retires
   * its keys (their plan); changes of needs, events or destinations retire nothing.
   */
  private retire(notice: ChangeNotice): void {
    if (notice.all) {
      this.cache.clear();
      return;
    }
    const keys = new Set<string>();
    const organizations = new Set<string>();
    for (const change of notice.changes) {
      if (change.kind === 'api_key') keys.add(change.id);
      else if (change.kind === 'organization') organizations.add(change.id);
    }
    if (keys.size === 0 && organizations.size === 0) return;
    for (const [key, lookup] of this.cache.entries()) {
      if (lookup === 'unknown' ? keys.size > 0 : keys.has(lookup.keyId) || organizations.has(lookup.organizationId)) this.cache.delete(key);
    }
  }

  /** Writes pending last-use times; the timer's and `close()`'s flushes run one after another. */
  readonly flush = serially(() => this.write());

  private async write(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const pending = [...this.lastUsed];
    this.lastUsed.clear();
    const em = this.db.em.fork();
    try {
      for (const [id, at] of pending) await em.nativeUpdate(ApiKeyEntity, { id }, { lastUsedAt: new Date(at) });
    } catch {
      // Best effort: a later flush writes newer times.
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async load(hash: string): Promise<Lookup> {
    const em = this.db.em.fork();
    const key = await em.findOne(ApiKeyEntity, { hash, revokedAt: null }, { populate: ['organization'] });
    if (!key) return 'unknown';
    return {
      keyId: key.id,
      organizationId: key.organization.id,
      plan: key.organization.plan,
      scopes: Object.freeze([...key.scopes]),
      expiresAt: key.expiresAt.getTime(),
    };
  }
}
