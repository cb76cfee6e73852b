import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { PLAN_ALLOWANCES, type LiveLimits, type Plan, type UsageRecorder } from '../../core/index.ts';

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
  /** Told of every refusal (metrics). */
  onRefused?: (kind: 'rate' | 'quota') => void;
}

/** Far above any plan: a plan's quota is compared to the count, so plan changes apply at once. */
const QUOTA_CEILING = Number.MAX_SAFE_INTEGER;

/**
 * Per-key rate limit and per-organization monthly quota (calendar month, UTC), on
 * rate-limiter-flexible. With Redis every instance shares one budget; if Redis fails, an
 * in-memory insurance limiter keeps answering so the API never fails because of it.
 */
export class ApiLimits implements LiveLimits {
  readonly perMinute: number;
  private readonly rate: RateLimiterAbstract;
  private readonly quota: RateLimiterAbstract;
  private readonly seeding = new Map<string, Promise<void> | true>();
  private readonly usage: UsageRecorder;
  private readonly shared: boolean;
  private readonly onRefused: ((kind: 'rate' | 'quota') => void) | undefined;

  constructor({ perMinute = 120, redis, prefix = 'packline', usage, onRefused }: ApiLimitsOptions) {
    this.perMinute = perMinute;
    this.usage = usage;
    this.onRefused = onRefused;
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

  consumeRate(keyId: string, now = Date.now()): Promise<LimitDecision> {
    // A promise chain rather than an async function: one promise fewer on every API call.
    return settle(this.rate.consume(keyId)).then((res) => {
      const window = { limit: this.perMinute, remaining: Math.max(0, res.remainingPoints), reset: Math.ceil((now + res.msBeforeNext) / 1000) };
      const allowed = res.consumedPoints <= this.perMinute;
      if (!allowed) this.onRefused?.('rate');
      return { allowed, window, retryAfter: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    });
  }

  consumeQuota(organizationId: string, plan: Plan, now = new Date()): Promise<LimitDecision> {
    const month = calendar(now.getTime());
    const key = `${organizationId}:${month.month}`;
    const spend = () =>
      settle(this.quota.consume(key, 1, { customDuration: month.secondsLeft })).then((res) => {
        const decision = quotaDecision(plan, res.consumedPoints, month);
        if (decision.allowed) this.usage.record(organizationId, month.day);
        else this.onRefused?.('quota');
        return decision;
      });
    const seeding = this.seed(key, organizationId, now, month);
    return seeding === undefined ? spend() : seeding.then(spend);
  }

  /** A key's current minute window without spending from it (usage pages). */
  async peekRate(keyId: string, now = Date.now()): Promise<LimitWindow> {
    const res = await this.rate.get(keyId).catch(() => null);
    const consumed = Math.min(this.perMinute, res?.consumedPoints ?? 0);
    return { limit: this.perMinute, remaining: this.perMinute - consumed, reset: Math.ceil((now + (res?.msBeforeNext ?? 0)) / 1000) };
  }

  /** The quota window without spending from it (for answers refused before the quota step). */
  async peekQuota(organizationId: string, plan: Plan, now = new Date()): Promise<LimitWindow> {
    const month = calendar(now.getTime());
    const key = `${organizationId}:${month.month}`;
    await this.seed(key, organizationId, now, month);
    const res = await this.quota.get(key).catch(() => null);
    return quotaDecision(plan, res?.consumedPoints ?? 0, month, false).window;
  }

  /**
   * In memory, a restart would forget the month's calls: the first use of an organization's
   * month seeds them from the durable counts. Undefined once done (no promise on the hot path);
   * concurrent first calls wait for the same seeding.
   */
  private seed(key: string, organizationId: string, now: Date, month: Calendar): Promise<void> | undefined {
    if (this.shared) return undefined;
    const state = this.seeding.get(key);
    if (state === true) return undefined;
    if (state) return state;
    const promise = (async () => {
      const calls = await this.usage.monthCalls(organizationId, now).catch(() => 0);
      if (calls > 0) await this.quota.set(key, calls, month.secondsLeft);
      this.seeding.set(key, true);
    })();
    this.seeding.set(key, promise);
    return promise;
  }
}

interface Calendar {
  /** `YYYY-MM` and `YYYY-MM-DD`, UTC. */
  month: string;
  day: string;
  /** Unix seconds of the first instant of next month, UTC. */
  reset: number;
  secondsLeft: number;
  nowSeconds: number;
}

let memo: { minute: number; calendar: Calendar } | undefined;

/** Calendar facts of an instant, recomputed once per minute rather than per call. */
function calendar(nowMs: number): Calendar {
  const minute = Math.floor(nowMs / 60_000);
  if (memo?.minute !== minute) {
    const at = new Date(minute * 60_000);
    const iso = at.toISOString();
    const reset = Math.floor(startOfNextMonth(at).getTime() / 1000);
    memo = { minute, calendar: { month: iso.slice(0, 7), day: iso.slice(0, 10), reset, secondsLeft: 0, nowSeconds: 0 } };
  }
  const nowSeconds = Math.floor(nowMs / 1000);
  return { ...memo.calendar, nowSeconds, secondsLeft: Math.max(1, memo.calendar.reset - nowSeconds) };
}

function quotaDecision(plan: Plan, consumed: number, month: Calendar, spending = true): LimitDecision {
  const limit = PLAN_ALLOWANCES[plan].monthlyQuota;
  const allowed = consumed <= limit;
  return {
    allowed: spending ? allowed : consumed < limit,
    window: { limit, remaining: Math.max(0, limit - consumed), reset: month.reset },
    retryAfter: allowed ? 0 : Math.max(1, month.reset - month.nowSeconds),
  };
}

export function startOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}


/** rate-limiter-flexible rejects with the result when points run out; both are answers here. */
function settle(promise: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  return promise.catch((error: unknown) => {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  });
}
