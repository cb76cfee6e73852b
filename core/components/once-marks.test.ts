import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../test/support/database.ts';
import { openDatabase, type Database } from '../db/orm.ts';
import { OnceMarkEntity } from '../entities/index.ts';
import { OnceMarks } from './once-marks.ts';

// Claims on the database of this run (SQLite, or PostgreSQL with DATABASE_URL), and in Redis
// when REDIS_URL is set. Two OnceMarks over the same storage stand for two instances.
describe(`OnceMarks (${process.env.REDIS_URL ? 'Redis' : 'database'})`, () => {
  let dir: string;
  let drop: () => Promise<void>;
  let db: Database;
  let redis: Redis | undefined;
  const prefix = `packline-unit-${randomBytes(4).toString('hex')}`;
  const later = () => new Date(Date.now() + 60_000);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-once-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    db = await openDatabase({ dataDir: dir, databaseUrl: database.url });
    if (process.env.REDIS_URL) {
      redis = new Redis(process.env.REDIS_URL);
      if (redis.status !== 'ready') await once(redis, 'ready');
    }
  });
  afterAll(async () => {
    redis?.disconnect();
    await db.close(true);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one claim of an id succeed, whichever instance makes it', async () => {
    const [one, two] = [new OnceMarks({ db, redis, prefix }), new OnceMarks({ db, redis, prefix })];
    const claims = await Promise.all([one.claim('flash:a', later()), two.claim('flash:a', later()), one.claim('flash:a', later())]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await two.claim('flash:a', later())).toBe(false);
    expect(await two.claim('flash:b', later())).toBe(true);
    // Where the claim lives: Redis when configured, the database otherwise.
    if (redis) expect(await redis.pttl(`${prefix}:once:flash:b`)).toBeGreaterThan(50_000);
    else expect(await db.em.fork().count(OnceMarkEntity, { id: 'flash:b' })).toBe(1);
  });

  it('refuses an id already expired, and forgets expired rows', async () => {
    const marks = new OnceMarks({ db, prefix });
    expect(await marks.claim('flash:gone', new Date(Date.now() - 1))).toBe(false);
    await db.em.fork().insert(OnceMarkEntity, { id: 'flash:old', expiresAt: new Date(Date.now() - 1_000) });
    expect(await marks.claim('flash:new', later())).toBe(true);
    expect(await db.em.fork().count(OnceMarkEntity, { id: 'flash:old' })).toBe(0);
  });

  it('falls back to the database while Redis is unreachable', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    down.on('error', () => {});
    const marks = new OnceMarks({ db, redis: down, prefix });
    expect(await marks.claim('flash:offline', later())).toBe(true);
    expect(await new OnceMarks({ db, prefix }).claim('flash:offline', later())).toBe(false);
    down.disconnect();
  });
});
