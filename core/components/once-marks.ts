import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Redis } from 'ioredis';
import type { Database } from '../db/orm.ts';
import { OnceMarkEntity } from '../entities/index.ts';

export interface OnceMarksOptions {
  db: Database;
  /** Where claims are recorded when set (SET NX with the id's expiry); the database otherwise. */
  redis?: Redis | undefined;
  /** Prefix of the Redis keys. @default 'packline' */
  prefix?: string;
}

/**
 * Ids that can be claimed once, by any instance, before and after a restart, such as a one-time
 * secret that is shown: Redis `SET NX` with the id's expiry when Redis is configured, else a row
 * of `once_marks` (also while Redis is unreachable). A process's memory would forget on restart
 * and know nothing of the other instances.
 */
export class OnceMarks {
  private readonly db: Database;
  private readonly redis: Redis | undefined;
  private readonly prefix: string;

  constructor({ db, redis, prefix = 'packline' }: OnceMarksOptions) {
    this.db = db;
    this.redis = redis;
    this.prefix = prefix;
  }

  /** True the first time `id` is claimed before `expiresAt`; false afterwards, and once expired. */
  async claim(id: string, expiresAt: Date): Promise<boolean> {
    const ms = expiresAt.getTime() - Date.now();
    if (ms <= 0) return false;
    if (this.redis?.status === 'ready') {
      try {
        return (await this.redis.set(`${this.prefix}:once:${id}`, '1', 'PX', Math.ceil(ms), 'NX')) === 'OK';
      } catch {
        // Unreachable after all: the database decides.
      }
    }
    return this.claimRow(id, expiresAt);
  }

  private async claimRow(id: string, expiresAt: Date): Promise<boolean> {
    const em = this.db.em.fork();
    // Expired marks guard nothing any more; there are few (one per secret shown).
    await em.nativeDelete(OnceMarkEntity, { expiresAt: { $lte: new Date() } });
    try {
      await em.insert(OnceMarkEntity, { id, expiresAt });
      return true;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false;
      throw error;
    }
  }
}
