import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../actor.ts';
import { ApiKeyEntity, OrganizationEntity, type Plan } from '../entities/index.ts';
import { invalidInput, notFound } from '../errors.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';
import { utcMonth, type AnswerCount, type UsageRecorder } from '../components/usage-recorder.ts';
import type { AnswerClass } from '../entities/index.ts';

export interface LimitWindow {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
}

/** The API's live limiter, read without spending (registered by the process serving the API). */
export interface LiveLimits {
  readonly perMinute: number;
  peekRate(keyId: string): Promise<LimitWindow>;
  peekQuota(organizationId: string, plan: Plan): Promise<LimitWindow>;
}

export interface KeyRateWindow {
  keyId: string;
  name: string;
  prefix: string;
  limit: number;
  used: number;
  remaining: number;
  resetsAt: Date;
}

/** A key's answers of one status class over the month. */
export interface KeyAnswers {
  keyId: string;
  /** The key's label and prefix; null for a key deleted since. */
  name: string | null;
  prefix: string | null;
  answer: AnswerClass;
  calls: number;
}

export interface UsageReport {
  organizationId: string;
  plan: Plan;
  /** `YYYY-MM`, UTC: the month reported. */
  month: string;
  /** Whether `month` is the current month (the quota and the minute windows are this month's). */
  current: boolean;
  /** The months with recorded usage and the current month, newest first. */
  months: string[];
  /** The month's answers per key and status class, rate and quota refusals (429) included. */
  answers: KeyAnswers[];
  quota: { limit: number; used: number; remaining: number; resetsAt: Date };
  /** This minute's window of each active key; null where no API limiter runs (the CLI). */
  rateWindows: KeyRateWindow[] | null;
  /** Calls per UTC day of the month, from its first day to today (a past month: to its last), days without calls included. */
  days: { day: string; calls: number }[];
}

/** What an organization's API keys have used: the monthly quota, the minute windows, calls per day. */
export class UsageService {
  private readonly em: EntityManager;
  private readonly recorder: UsageRecorder;
  private readonly live: () => LiveLimits | undefined;

  constructor(em: EntityManager, recorder: UsageRecorder, live: () => LiveLimits | undefined) {
    this.em = em;
    this.recorder = recorder;
    this.live = live;
  }

  /** The usage of `month` (`YYYY-MM`, UTC; the current month when absent): quota, days, and answers per key and status. */
  async report(actor: Actor, organizationId: string, month?: string, now = new Date()): Promise<UsageReport> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'read API usage');
    const thisMonth = utcMonth(now);
    if (month !== undefined && (!MONTH.test(month) || month > thisMonth)) {
      throw invalidInput('month', 'month must be a month up to this one, written YYYY-MM (like 2026-11)');
    }
    const org = await this.em.findOne(OrganizationEntity, { id: organizationId });
    if (!org) throw notFound('organization', organizationId);
    const shown = month ?? thisMonth;
    const current = shown === thisMonth;
    const recorded = await this.recorder.daily(org.id, shown);
    const answers = await this.keyAnswers(org.id, await this.recorder.answersOf(org.id, shown));
    const months = [...new Set([thisMonth, ...(await this.recorder.months(org.id))])].sort().reverse();
    const summary = { organizationId: org.id, plan: org.plan, month: shown, current, months, answers };
    if (!current) return { ...summary, ...pastMonth(org.plan, shown, recorded) };
    const limits = this.live();

    const limit = PLAN_ALLOWANCES[org.plan].monthlyQuota;
    // The live limiter is the budget the API enforces (shared through Redis); the durable counts
    // stand in where none runs in this process.
    const used = limits ? limit - (await limits.peekQuota(org.id, org.plan)).remaining : recorded.reduce((sum, d) => sum + d.calls, 0);
    const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

    let rateWindows: KeyRateWindow[] | null = null;
    if (limits) {
      const keys = await this.em.find(
        ApiKeyEntity,
        { organization: org.id, revokedAt: null, expiresAt: { $gt: now } },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      rateWindows = await Promise.all(
        keys.map(async (key) => {
          const window = await limits.peekRate(key.id);
          return {
            keyId: key.id,
            name: key.name,
            prefix: key.prefix,
            limit: window.limit,
            used: window.limit - window.remaining,
            remaining: window.remaining,
            resetsAt: new Date(window.reset * 1000),
          };
        }),
      );
    }

    return {
      ...summary,
      quota: { limit, used: Math.max(0, used), remaining: Math.max(0, limit - used), resetsAt },
      rateWindows,
      days: everyDay(thisMonth, now.getUTCDate(), recorded),
    };
  }

  /** The month's answers summed per key and class, with each key's label. */
  private async keyAnswers(organizationId: string, counts: AnswerCount[]): Promise<KeyAnswers[]> {
    const sums = new Map<string, KeyAnswers>();
    for (const c of counts) {
      const at = `${c.keyId} ${c.answer}`;
      const sum = sums.get(at) ?? { keyId: c.keyId, name: null, prefix: null, answer: c.answer, calls: 0 };
      sum.calls += c.calls;
      sums.set(at, sum);
    }
    const ids = [...new Set(counts.map((c) => c.keyId))];
    const keys = ids.length ? await this.em.find(ApiKeyEntity, { id: { $in: ids }, organization: organizationId }) : [];
    const byId = new Map(keys.map((k) => [k.id, k]));
    return [...sums.values()].map((a) => ({ ...a, name: byId.get(a.keyId)?.name ?? null, prefix: byId.get(a.keyId)?.prefix ?? null }));
  }
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A past month: its calls against the plan's quota, and every one of its days. */
function pastMonth(plan: Plan, month: string, recorded: { day: string; calls: number }[]) {
  const limit = PLAN_ALLOWANCES[plan].monthlyQuota;
  const used = recorded.reduce((sum, d) => sum + d.calls, 0);
  const [year, m] = month.split('-').map(Number) as [number, number];
  const resetsAt = new Date(Date.UTC(year, m, 1));
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return {
    quota: { limit, used, remaining: Math.max(0, limit - used), resetsAt },
    rateWindows: null,
    days: everyDay(month, lastDay, recorded),
  };
}

function everyDay(month: string, lastDay: number, recorded: { day: string; calls: number }[]): { day: string; calls: number }[] {
  const calls = new Map(recorded.map((d) => [d.day, d.calls]));
  const days: { day: string; calls: number }[] = [];
  for (let d = 1; d <= lastDay; d++) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    days.push({ day, calls: calls.get(day) ?? 0 });
  }
  return days;
}
