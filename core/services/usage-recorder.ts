import type { Database } from '../db/orm.ts';

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
export const utcMonth = (at: Date) => at.toISOString().slice(0, 7);

/**
 * Counts public API calls per organization and UTC day, written in batches. The counts make
 * the in-memory quota survive restarts and feed usage reports.
 */
export class UsageRecorder {
  private pending = new Map<string, { organizationId: string; day: string; calls: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    flushIntervalMs = 5_000,
  ) {
    this.timer = setInterval(() => void this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  record(organizationId: string, at: Date | string = new Date()): void {
    const day = typeof at === 'string' ? at : utcDay(at);
    const key = `${organizationId}\u0000${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.calls++;
    else this.pending.set(key, { organizationId, day, calls: 1 });
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
    for (const entry of this.pending.values()) {
      if (entry.organizationId === organizationId && entry.day.startsWith(month)) total += entry.calls;
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
    const batch = [...this.pending.values()];
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
      for (const entry of batch.slice(written)) {
        const key = `${entry.organizationId}\u0000${entry.day}`;
        const current = this.pending.get(key);
        if (current) current.calls += entry.calls;
        else this.pending.set(key, entry);
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
