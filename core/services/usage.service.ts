import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../actor.ts';
import { ApiKeyEntity, OrganizationEntity, type Plan } from '../entities/index.ts';
import { notFound } from '../errors.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import { requireOrganizationAdmin } from '../service-kit/organization-admin.ts';
import { utcMonth, type UsageRecorder } from '../components/usage-recorder.ts';

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

export interface UsageReport {
  organizationId: string;
  plan: Plan;
  /** `YYYY-MM`, UTC. */
  month: string;
  quota: { limit: number; used: number; remaining: number; resetsAt: Date };
  /** This minute's window of each active key; null where no API limiter runs (the CLI). */
  rateWindows: KeyRateWindow[] | null;
  /** Calls per UTC day of the month, from its first day to today, days without calls included. */
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

  async report(actor: Actor, organizationId: string, now = new Date()): Promise<UsageReport> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'read API usage');
    const org = await this.em.findOne(OrganizationEntity, { id: organizationId });
    if (!org) throw notFound('organization', organizationId);
    const month = utcMonth(now);
    const limits = this.live();
    const recorded = await this.recorder.daily(org.id, month);

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
      organizationId: org.id,
      plan: org.plan,
      month,
      quota: { limit, used: Math.max(0, used), remaining: Math.max(0, limit - used), resetsAt },
      rateWindows,
      days: everyDay(month, now, recorded),
    };
  }
}

function everyDay(month: string, now: Date, recorded: { day: string; calls: number }[]): { day: string; calls: number }[] {
  const calls = new Map(recorded.map((d) => [d.day, d.calls]));
  const days: { day: string; calls: number }[] = [];
  for (let d = 1; d <= now.getUTCDate(); d++) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    days.push({ day, calls: calls.get(day) ?? 0 });
  }
  return days;
}
