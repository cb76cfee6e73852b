import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { PLAN_ALLOWANCES, type LiveLimits, type Plan, type UsageRecorder } from '../../core/index.ts';
import { andThen, type MaybePromise } from './maybe-promise.ts';
import { MemoryWindows } from './memory-windows.ts';
import { FlexibleWindows, type WindowCount, type WindowCounter } from './window-counter.ts';

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

/** Length of the per-key window. */
const RATE_WINDOW_SECONDS = 60;

/**
 * Per-key rate limit and per-organization monthly quota (calendar month, UTC). In memory the
 * counters answer synchronously, so a call spends no promise on its limits; with Redis every
 * instance shares one budget through rate-limiter-flexible, and if Redis fails, an in-memory
 * insurance limiter keeps answering so the API never fails because of it.
 */
export class ApiLimits implements LiveLimits {
  readonly perMinute: number;
  private readonly rate: WindowCounter;
  private readonly quota: WindowCounter;
  private readonly seeding = new Map<string, Promise<void> | true>();
  private readonly quotaKeys = new Map<string, { month: string; key: string }>();
  private readonly usage: UsageRecorder;
  private readonly shared: boolean;
  private readonly onRefused: ((kind: 'rate' | 'quota') => void) | undefined;

  constructor({ perMinute = 120, redis, prefix = 'packline', usage, onRefused }: ApiLimitsOptions) {
    this.perMinute = perMinute;
    this.usage = usage;
    this.onRefused = onRefused;
    this.shared = redis !== undefined;
    if (redis) {
      const rate = { points: perMinute, duration: RATE_WINDOW_SECONDS, keyPrefix: `${prefix}:rate` };
      const quota = { points: QUOTA_CEILING, duration: 0, keyPrefix: `${prefix}:quota` };
      const insured = { storeClient: redis, rejectIfRedisNotReady: true };
      this.rate = new FlexibleWindows(new RateLimiterRedis({ ...rate, ...insured, insuranceLimiter: new RateLimiterMemory(rate) }));
      this.quota = new FlexibleWindows(new RateLimiterRedis({ ...quota, ...insured, insuranceLimiter: new RateLimiterMemory(quota) }));
    } else {
      this.rate = new MemoryWindows();
      this.quota = new MemoryWindows();
    }
  }

  /** Spends one call of the key's minute; synchronous in memory. */
  consumeRate(keyId: string, now = Date.now()): MaybePromise<LimitDecision> {
    return andThen(this.rate.consume(keyId, 1, RATE_WINDOW_SECONDS), (count) => {
      const window = {
        limit: this.perMinute,
        remaining: Math.max(0, this.perMinute - count.consumed),
        reset: Math.ceil((now + count.msBeforeNext) / 1000),
      };
      const allowed = count.consumed <= this.perMinute;
      if (!allowed) this.onRefused?.('rate');
      return { allowed, window, retryAfter: allowed ? 0 : Math.max(1, Math.ceil(count.msBeforeNext / 1000)) };
    });
  }

  /** Spends one call of the organization's month; synchronous in memory once the month is seeded. */
  consumeQuota(organizationId: string, plan: Plan, now = new Date()): MaybePromise<LimitDecision> {
    const month = calendar(now.getTime());
    const key = this.quotaKey(organizationId, month.month);
    const seeding = this.seed(key, organizationId, now, month);
    if (seeding === undefined) return this.spendQuota(key, organizationId, plan, month);
    return seeding.then(() => this.spendQuota(key, organizationId, plan, month));
  }

  private spendQuota(key: string, organizationId: string, plan: Plan, month: Calendar): MaybePromise<LimitDecision> {
    return andThen(this.quota.consume(key, 1, month.secondsLeft), (count: WindowCount) => {
      const decision = quotaDecision(plan, count.consumed, month);
      if (decision.allowed) this.usage.record(organizationId, month.day);
      else this.onRefused?.('quota');
      return decision;
    });
  }

  /** Counts an answer to a key by its status class, refusals (429) included: a counter in memory, no query. */
  answered(organizationId: string, keyId: string, status: number, now = Date.now()): void {
    this.usage.answered(organizationId, keyId, calendar(now).day, status);
  }

  /** `<organization>:<month>`, the same string on every call of the month: its hash is computed once. */
  private quotaKey(organizationId: string, month: string): string {
    const known = this.quotaKeys.get(organizationId);
    if (known?.month === month) return known.key;
    const key = `${organizationId}:${month}`;
    this.quotaKeys.set(organizationId, { month, key });
    return key;
  }

  /** A key's current minute window without spending from it (usage pages). */
  async peekRate(keyId: string, now = Date.now()): Promise<LimitWindow> {
    const count = await this.peek(this.rate, keyId);
    const consumed = Math.min(this.perMinute, count?.consumed ?? 0);
    return { limit: this.perMinute, remaining: this.perMinute - consumed, reset: Math.ceil((now + (count?.msBeforeNext ?? 0)) / 1000) };
  }

  /** The quota window without spending from it (for answers refused before the quota step). */
  async peekQuota(organizationId: string, plan: Plan, now = new Date()): Promise<LimitWindow> {
    const month = calendar(now.getTime());
    const key = this.quotaKey(organizationId, month.month);
    await this.seed(key, organizationId, now, month);
    const count = await this.peek(this.quota, key);
    return quotaDecision(plan, count?.consumed ?? 0, month, false).window;
  }

  /** A window as it stands; none when the store cannot tell (Redis down). */
  private async peek(counter: WindowCounter, key: string): Promise<WindowCount | null> {
    try {
      return await counter.get(key);
    } catch {
      return null;
    }
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
