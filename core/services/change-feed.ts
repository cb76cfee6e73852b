import type { EntityManager } from '@mikro-orm/core';
import { raw } from '@mikro-orm/core';
import { ChangeEpochEntity } from '../entities/index.ts';
import type { Database } from '../db/orm.ts';

/** Records, inside the caller's transaction, that public output or API keys changed. */
export async function bumpChangeEpoch(em: EntityManager): Promise<void> {
  await em.nativeUpdate(ChangeEpochEntity, { id: 1 }, { value: raw('value + 1') });
}

/**
 * Tells this process when data behind its caches changed: at once for changes it made itself,
 * within one poll interval for changes made by another process (the CLI, another instance).
 */
export class ChangeFeed {
  /** Increases whenever a change is seen; caches tag entries with it. */
  version = 0;
  private lastSeen: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Database,
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Call after committing a change made in this process. */
  changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the shared epoch once; exposed so tests and start-up can sync without waiting. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const rows = await this.db.em.getConnection().execute<{ value: number }[]>('select value from change_epoch where id = 1');
      const value = Number(rows[0]?.value ?? 0);
      if (this.lastSeen !== undefined && value !== this.lastSeen) this.changed();
      this.lastSeen = value;
    } catch {
      // The database is unreachable: caches keep serving; the next poll retries.
    } finally {
      this.polling = false;
    }
  }
}
