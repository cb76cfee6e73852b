import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { sharedLimiter } from '../../../core/components/shared-limiter.ts';
import { clientAddress, limitKey } from '../../../core/index.ts';

/**
 * Requests per client address to the OAuth endpoints (the MCP SDK's own defaults): registration
 * is the strictest, since anyone may register an application.
 */
export const OAUTH_LIMITS = {
  /** POST /register: 20 per hour. */
  register: { points: 20, duration: 3_600 },
  /** /authorize: 100 per 15 minutes. */
  authorize: { points: 100, duration: 900 },
  /** POST /token: 50 per 15 minutes. */
  token: { points: 50, duration: 900 },
  /** POST /revoke: 50 per 15 minutes. */
  revoke: { points: 50, duration: 900 },
} as const;

export type OAuthEndpoint = keyof typeof OAUTH_LIMITS;

export interface OAuthLimitsOptions {
  /** Shared store for several instances; in this process when absent. */
  redis?: Redis | undefined;
  /** Prefix of the Redis keys. @default 'packline' */
  prefix?: string;
  /** Reverse proxies trusted to append to X-Forwarded-For. @default 0 */
  trustedProxies?: number;
}

/**
 * The OAuth endpoints' limits per client address (an IPv6 client is its /64), in place of the
 * SDK's per-process ones: with Redis every instance shares them; if Redis fails, an in-process
 * insurance limiter answers.
 */
export class OAuthLimits {
  private readonly limiters: Record<OAuthEndpoint, RateLimiterAbstract>;
  private readonly trustedProxies: number;

  constructor({ redis, prefix = 'packline', trustedProxies = 0 }: OAuthLimitsOptions = {}) {
    this.trustedProxies = trustedProxies;
    const limiter = (name: OAuthEndpoint) => sharedLimiter({ ...OAUTH_LIMITS[name], keyPrefix: `${prefix}:oauth:${name}` }, redis);
    this.limiters = { register: limiter('register'), authorize: limiter('authorize'), token: limiter('token'), revoke: limiter('revoke') };
  }

  /**
   * Express middleware spending one request of `endpoint`; a refusal is 429 with Retry-After and,
   * unless `refused` answers it (a page for a person), an OAuth error in JSON.
   */
  middleware(endpoint: OAuthEndpoint, refused?: (req: Request, res: Response, retryAfter: number) => boolean) {
    return async (req: Request, res: Response, next: NextFunction) => {
      // CORS preflights of browser clients are answered by the SDK and cost nothing.
      if (req.method === 'OPTIONS') return next();
      const key = limitKey(clientAddress(req, this.trustedProxies));
      try {
        await this.limiters[endpoint].consume(key, 1);
      } catch (error) {
        // rate-limiter-flexible rejects with the result when points run out.
        if (!(error instanceof RateLimiterRes)) return next(error);
        const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        res.setHeader('retry-after', String(retryAfter));
        res.setHeader('cache-control', 'no-store');
        if (refused?.(req, res, retryAfter)) return;
        return res.status(429).json({
          error: 'too_many_requests',
          error_description: `Too many ${endpoint} requests from this address; retry in ${retryAfter} s`,
        });
      }
      next();
    };
  }
}
