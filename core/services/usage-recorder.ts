import type { Database } from '../db/orm.ts';

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
    const rows = await this.db.em
      .getConnection()
      .execute<{ total: number | string | null }[]>(
        'select sum(calls) as total from api_usage where organization_id = ? and day >= ? and day <= ?',
        [organizationId, `${month}-01`, `${month}-31`],
      );
    let total = Number(rows[0]?.total ?? 0);
    for (const [day, calls] of this.pending.get(organizationId) ?? []) {
      if (day.startsWith(month)) total += calls;
    }
    return total;
  }

  /** Calls per UTC day of one month, written or still pending. */
  async daily(organizationId: string, month: string): Promise<{ day: string; calls: number }[]> {
    await this.flush();
    const rows = await this.db.em
      .getConnection()
      .execute<{ day: string; calls: number }[]>(
        'select day, calls from api_usage where organization_id = ? and day >= ? and day <= ? order by day',
        [organizationId, `${month}-01`, `${month}-31`],
      );
    return rows.map((r: { day: string; calls: number }) => ({ day: r.day, calls: Number(r.calls) }));
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].flatMap(([organizationId, days]) => [...days].map(([day, calls]) => ({ organizationId, day, calls })));
    this.pending = new Map();
    const connection = this.db.em.getConnection();
    let written = 0;
    try {
      for (const { organizationId, day, calls } of batch) {
        await connection.execute(
          'insert into api_usage (organization_id, day, calls) values (?, ?, ?) ' +
            'on conflict (organization_id, day) do update set calls = api_usage.calls + excluded.calls',
          [organizationId, day, calls],
        );
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
