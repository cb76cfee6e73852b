import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LimiterBudget {
  points: number;
  /** Seconds. */
  duration: number;
  keyPrefix: string;
}

/**
 * A budget's limiter: in Redis when given one, shared by every instance, with an in-process
 * insurance limiter that answers while Redis fails; otherwise in this process.
 */
export function sharedLimiter(budget: LimiterBudget, redis: Redis | undefined): RateLimiterAbstract {
  return redis
    ? new RateLimiterRedis({ ...budget, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(budget) })
    : new RateLimiterMemory(budget);
}
