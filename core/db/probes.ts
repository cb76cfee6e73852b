// Cheap reads for readiness checks and metrics scrapes: never on a request's path.
import { sql } from 'kysely';
import type { Database } from './orm.ts';
import { sqlOf } from './sql.ts';

/**
 * One round trip to the database; rejects when it cannot answer. Through the SQL layer rather than
 * the ORM's connection, which would open itself again: a database closed under the service fails.
 */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(sqlOf(db.em.fork()));
}

/**
 * Age in seconds of the oldest outbox row not fanned out yet (0 when none waits): how far the
 * webhook dispatchers lag behind the changes. One probe of the fan-out index.
 */
export async function outboxLagSeconds(db: Database, now = Date.now()): Promise<number> {
  const oldest = await sqlOf(db.em.fork())
    .selectFrom('OutboxEvent')
    .select('occurredAt')
    .where('fannedOutAt', 'is', null)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  return oldest ? Math.max(0, (now - oldest.occurredAt.getTime()) / 1000) : 0;
}
