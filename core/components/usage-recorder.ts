import type { Database } from '../db/orm.ts';
import { sqlOf } from '../db/sql.ts';

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
export const utcMonth = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Counts public API calls per organization and UTC day, written in batches. The counts make
 * the in-memory quota survive restarts and feed usage reports.
 */
export class UsageRecorder {
  /** Calls not written yet, per organization and UTC day. */
  private pending = new Map<string, Map<string, number>>();
  private readonly timer: NodeJS.Timeout;

  private readonly db: Database;

  constructor(db: Database, flushIntervalMs = 5_000) {
    this.db = db;
    this.timer = setInterval(() => void this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  record(organizationId: string, at: Date | string = new Date()): void {
    this.add(organizationId, typeof at === 'string' ? at : utcDay(at), 1);
  }

  /** Calls recorded this UTC month, written or still pending. */
  async monthCalls(organizationId: string, at = new Date()): Promise<number> {
    const month = utcMonth(at);
    const row = await sqlOf(this.db.em.fork())
      .selectFrom('ApiUsage')
      .select((eb) => eb.fn.sum<number | string | null>('calls').as('total'))
      .where('organizationId', '=', organizationId)
      .where('day', '>=', `${month}-01`)
      .where('day', '<=', `${month}-31`)
      .executeTakeFirst();
    let total = Number(row?.total ?? 0);
    for (const [day, calls] of this.pending.get(organizationId) ?? []) {
      if (day.startsWith(month)) total += calls;
    }
    return total;
  }

  /** Calls per UTC day of one month, written or still pending. */
  async daily(organizationId: string, month: string): Promise<{ day: string; calls: number }[]> {
    await this.flush();
    const rows = await sqlOf(this.db.em.fork())
      .selectFrom('ApiUsage')
      .select(['day', 'calls'])
      .where('organizationId', '=', organizationId)
      .where('day', '>=', `${month}-01`)
      .where('day', '<=', `${month}-31`)
      .orderBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, calls: Number(r.calls) }));
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].flatMap(([organizationId, days]) => [...days].map(([day, calls]) => ({ organizationId, day, calls })));
    this.pending = new Map();
    const db = sqlOf(this.db.em.fork());
    let written = 0;
    try {
      for (const { organizationId, day, calls } of batch) {
        await db
          .insertInto('ApiUsage')
          .values({ organizationId, day, calls })
          .onConflict((conflict) =>
            conflict
              .columns(['organizationId', 'day'])
              .doUpdateSet((eb) => ({ calls: eb('ApiUsage.calls', '+', eb.ref('excluded.calls')) })),
          )
          .execute();
        written++;
      }
    } catch {
      // Keep the unwritten counts for the next flush rather than lose them.
      for (const { organizationId, day, calls } of batch.slice(written)) this.add(organizationId, day, calls);
    }
  }

  // Keyed by organization, then day: on the API's hot path both strings are the caller's own,
  // whose hashes are already known (a joined key would be a new string to hash on every call).
  private add(organizationId: string, day: string, calls: number): void {
    let days = this.pending.get(organizationId);
    if (days === undefined) {
      days = new Map();
      this.pending.set(organizationId, days);
    }
    days.set(day, (days.get(day) ?? 0) + calls);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
