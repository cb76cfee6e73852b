import type { Redis } from 'ioredis';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { sharedLimiter } from '../../../core/components/shared-limiter.ts';

export interface McpLimitsOptions {
  /** Calls per minute per client. @default 60 */
  perMinute?: number;
  /** `compose_team` calls per hour per client. @default 20 */
  composePerHour?: number;
  /** Shared store for several instances; in memory when absent. */
  redis?: Redis;
  /** Prefix of the Redis keys. @default 'packline' */
  prefix?: string;
  /** Told of every refusal (metrics): `rate` for calls per minute, `compose` for compositions per hour. */
  onRefused?: (kind: 'rate' | 'compose') => void;
}

export interface McpDecision {
  allowed: boolean;
  /** Seconds to wait, when refused. */
  retryAfter: number;
}

/**
 * The public connector's limits per client address (docs/design.md#public-connector): calls per minute, and team
 * compositions per hour. With Redis every instance shares the budget; if Redis fails, an
 * in-memory insurance limiter answers so the connector never fails because of it.
 */
export class McpLimits {
  readonly perMinute: number;
  readonly composePerHour: number;
  private readonly calls: RateLimiterAbstract;
  private readonly compositions: RateLimiterAbstract;
  private readonly onRefused: ((kind: 'rate' | 'compose') => void) | undefined;

  constructor({ perMinute = 60, composePerHour = 20, redis, prefix = 'packline', onRefused }: McpLimitsOptions = {}) {
    this.perMinute = perMinute;
    this.onRefused = onRefused;
    this.composePerHour = composePerHour;
    const calls = { points: perMinute, duration: 60, keyPrefix: `${prefix}:mcp:calls` };
    const compositions = { points: composePerHour, duration: 3_600, keyPrefix: `${prefix}:mcp:compose` };
    this.calls = sharedLimiter(calls, redis);
    this.compositions = sharedLimiter(compositions, redis);
  }

  /** Spends `points` calls (a JSON-RPC batch costs one per message). */
  consumeCall(client: string, points = 1): Promise<McpDecision> {
    return decide(this.calls, client, points, this.perMinute).then((decision) => this.told(decision, 'rate'));
  }

  consumeCompose(client: string): Promise<McpDecision> {
    return decide(this.compositions, client, 1, this.composePerHour).then((decision) => this.told(decision, 'compose'));
  }

  private told(decision: McpDecision, kind: 'rate' | 'compose'): McpDecision {
    if (!decision.allowed) this.onRefused?.(kind);
    return decision;
  }
}

async function decide(limiter: RateLimiterAbstract, key: string, points: number, limit: number): Promise<McpDecision> {
  const res = await limiter.consume(key, points).catch((error: unknown) => {
    // rate-limiter-flexible rejects with the result when points run out.
    if (error instanceof RateLimiterRes) return error;
    throw error;
  });
  const allowed = res.consumedPoints <= limit;
  return { allowed, retryAfter: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
