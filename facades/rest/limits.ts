import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { PLAN_ALLOWANCES, type Plan, type UsageRecorder } from '../../core/index.ts';

export interface LimitWindow {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
}

export interface LimitDecision {
  allowed: boolean;
  window: LimitWindow;
  /** Seconds to wait, when refused. */
  retryAfter: number;
}

export interface ApiLimitsOptions {
  /** Requests per minute per key. @default 120 */
  perMinute?: number;
  /** Shared store for several instances; in memory when absent. */
  redis?: Redis;
  /** Prefix of the Redis keys. @default 'packline' */
  prefix?: string;
  /** Durable call counts that seed the in-memory quota after a restart. */
  usage: UsageRecorder;
}

/** Far above any plan: a plan's quota is compared to the count, so plan changes apply at once. */
const QUOTA_CEILING = Number.MAX_SAFE_INTEGER;

/**
 * Per-key rate limit and per-organization monthly quota (calendar month, UTC), on
 * rate-limiter-flexible. With Redis every instance shares one budget; if Redis fails, an
 * in-memory insurance limiter keeps answering so the API never fails because of it.
 */
export class ApiLimits {
  readonly perMinute: number;
  private readonly rate: RateLimiterAbstract;
  private readonly quota: RateLimiterAbstract;
  private readonly seeded = new Set<string>();
  private readonly usage: UsageRecorder;
  private readonly shared: boolean;

  constructor({ perMinute = 120, redis, prefix = 'packline', usage }: ApiLimitsOptions) {
    this.perMinute = perMinute;
    this.usage = usage;
    this.shared = redis !== undefined;
    const rate = { points: perMinute, duration: 60, keyPrefix: `${prefix}:rate` };
    const quota = { points: QUOTA_CEILING, duration: 0, keyPrefix: `${prefix}:quota` };
    if (redis) {
      const insured = { storeClient: redis, rejectIfRedisNotReady: true };
      this.rate = new RateLimiterRedis({ ...rate, ...insured, insuranceLimiter: new RateLimiterMemory(rate) });
      this.quota = new RateLimiterRedis({ ...quota, ...insured, insuranceLimiter: new RateLimiterMemory(quota) });
    } else {
      this.rate = new RateLimiterMemory(rate);
      this.quota = new RateLimiterMemory(quota);
    }
  }

  async consumeRate(keyId: string, now = Date.now()): Promise<LimitDecision> {
    const res = await settle(this.rate.consume(keyId));
    const window = { limit: this.perMinute, remaining: Math.max(0, res.remainingPoints), reset: Math.ceil((now + res.msBeforeNext) / 1000) };
    const allowed = res.consumedPoints <= this.perMinute;
    return { allowed, window, retryAfter: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }

  async consumeQuota(organizationId: string, plan: Plan, now = new Date()): Promise<LimitDecision> {
    const key = await this.quotaKey(organizationId, now);
    const res = await settle(this.quota.consume(key, 1, { customDuration: secondsToNextMonth(now) }));
    const decision = quotaDecision(plan, res.consumedPoints, now);
    if (decision.allowed) this.usage.record(organizationId, now);
    return decision;
  }

  /** The quota window without spending from it (for answers refused before the quota step). */
  async peekQuota(organizationId: string, plan: Plan, now = new Date()): Promise<LimitWindow> {
    const key = await this.quotaKey(organizationId, now);
    const res = await this.quota.get(key).catch(() => null);
    return quotaDecision(plan, res?.consumedPoints ?? 0, now, false).window;
  }

  private async quotaKey(organizationId: string, now: Date): Promise<string> {
    const key = `${organizationId}:${now.toISOString().slice(0, 7)}`;
    // In memory, a restart would forget the month's calls: seed them from the durable counts.
    if (!this.shared && !this.seeded.has(key)) {
      this.seeded.add(key);
      const calls = await this.usage.monthCalls(organizationId, now).catch(() => 0);
      if (calls > 0) await this.quota.set(key, calls, secondsToNextMonth(now));
    }
    return key;
  }
}

function quotaDecision(plan: Plan, consumed: number, now: Date, spending = true): LimitDecision {
  const limit = PLAN_ALLOWANCES[plan].monthlyQuota;
  const reset = Math.floor(startOfNextMonth(now).getTime() / 1000);
  const allowed = consumed <= limit;
  return {
    allowed: spending ? allowed : consumed < limit,
    window: { limit, remaining: Math.max(0, limit - consumed), reset },
    retryAfter: allowed ? 0 : Math.max(1, reset - Math.floor(now.getTime() / 1000)),
  };
}

export function startOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

const secondsToNextMonth = (now: Date) => Math.max(1, Math.ceil((startOfNextMonth(now).getTime() - now.getTime()) / 1000));

/** rate-limiter-flexible rejects with the result when points run out; both are answers here. */
async function settle(promise: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}
