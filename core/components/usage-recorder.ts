import type { Database } from '../db/orm.ts';
import { sqlOf } from '../db/sql.ts';
import type { AnswerClass } from '../entities/index.ts';
import { serially } from './serially.ts';

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
export const utcMonth = (at: Date) => at.toISOString().slice(0, 7);

/** The class of an HTTP status, 429 (rate or quota refused) apart. */
export const answerClass = (status: number): AnswerClass =>
  status === 429 ? '429' : status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';

/** One count of answers: a key's answers of one class on one day. */
export interface AnswerCount {
  day: string;
  keyId: string;
  answer: AnswerClass;
  calls: number;
}

/**
 * Counts public API calls per organization and UTC day, and answers per key and status class,
 * written in batches. The call counts make the in-memory quota survive restarts; both feed the
 * usage reports.
 */
export class UsageRecorder {
  /** Calls not written yet, per organization and UTC day. */
  private pending = new Map<string, Map<string, number>>();
  /** Answers not written yet, per organization, then `day key class`. */
  private answers = new Map<string, Map<string, number>>();
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

  /** One answer of the API to a key, refusals included: a counter incremented, written with the next flush. */
  answered(organizationId: string, keyId: string, day: string, status: number): void {
    let counts = this.answers.get(organizationId);
    if (counts === undefined) {
      counts = new Map();
      this.answers.set(organizationId, counts);
    }
    const at = `${day} ${keyId} ${answerClass(status)}`;
    counts.set(at, (counts.get(at) ?? 0) + 1);
  }

  /** Answers per day, key and class of one month. */
  async answersOf(organizationId: string, month: string): Promise<AnswerCount[]> {
    await this.flush();
    const rows = await sqlOf(this.db.em.fork())
      .selectFrom('ApiKeyUsage')
      .select(['day', 'keyId', 'answer', 'calls'])
      .where('organizationId', '=', organizationId)
      .where('day', '>=', `${month}-01`)
      .where('day', '<=', `${month}-31`)
      .orderBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, keyId: r.keyId, answer: r.answer as AnswerClass, calls: Number(r.calls) }));
  }

  /** The months (`YYYY-MM`) with recorded calls or answers, newest first. */
  async months(organizationId: string): Promise<string[]> {
    await this.flush();
    const db = sqlOf(this.db.em.fork());
    const calls = await db.selectFrom('ApiUsage').select('day').where('organizationId', '=', organizationId).execute();
    const answers = await db.selectFrom('ApiKeyUsage').select('day').where('organizationId', '=', organizationId).execute();
    return [...new Set([...calls, ...answers].map((r) => r.day.slice(0, 7)))].sort().reverse();
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

  /** Writes what is pending; the timer's, the readers' and `close()`'s flushes run one after another. */
  readonly flush = serially(() => this.write());

  private async write(): Promise<void> {
    await this.flushAnswers();
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

  private async flushAnswers(): Promise<void> {
    if (this.answers.size === 0) return;
    const batch = [...this.answers].flatMap(([organizationId, counts]) =>
      [...counts].map(([at, calls]) => {
        const [day, keyId, answer] = at.split(' ') as [string, string, AnswerClass];
        return { organizationId, day, keyId, answer, calls };
      }),
    );
    this.answers = new Map();
    const db = sqlOf(this.db.em.fork());
    let written = 0;
    try {
      for (const row of batch) {
        await db
          .insertInto('ApiKeyUsage')
          .values(row)
          .onConflict((conflict) =>
            conflict
              .columns(['organizationId', 'day', 'keyId', 'answer'])
              .doUpdateSet((eb) => ({ calls: eb('ApiKeyUsage.calls', '+', eb.ref('excluded.calls')) })),
          )
          .execute();
        written++;
      }
    } catch {
      for (const { organizationId, day, keyId, answer, calls } of batch.slice(written)) {
        const counts = this.answers.get(organizationId) ?? new Map<string, number>();
        const at = `${day} ${keyId} ${answer}`;
        counts.set(at, (counts.get(at) ?? 0) + calls);
        this.answers.set(organizationId, counts);
      }
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
