// Cheap reads for readiness checks and metrics scrapes: never on a request's path.
import { OutboxEventEntity } from '../entities/index.ts';
import type { Database } from './orm.ts';

/** One round trip to the database; rejects when it cannot answer. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.em.fork().getConnection().execute('select 1');
}

/**
 * Age in seconds of the oldest outbox row not fanned out yet (0 when none waits): how far the
 * webhook dispatchers lag behind the changes. One probe of the fan-out index.
 */
export async function outboxLagSeconds(db: Database, now = Date.now()): Promise<number> {
  const oldest = await db.em.fork().findOne(OutboxEventEntity, { fannedOutAt: null }, { orderBy: { seq: 'asc' }, fields: ['occurredAt'] });
  return oldest ? Math.max(0, (now - oldest.occurredAt.getTime()) / 1000) : 0;
}
