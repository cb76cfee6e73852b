import type { Redis } from 'ioredis';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { limitKey } from '../client-address.ts';

/**
 * Password attempts allowed (OWASP authentication cheat sheet): a strict budget per client
 * address and account, a looser one per account from anywhere (a slow spread-out guess), and one
 * per address over every account (spraying). Strangers who spend an account's strict budget
 * from their address do not lock its owner out: the owner's own address has its own budget.
 * An IPv6 "address" here is its whole /64 (`limitKey`).
 */
export const SIGN_IN_LIMITS = {
  /** Per client address and account: 5 attempts per 15 minutes. */
  addressAndAccount: { points: 5, duration: 900 },
  /** Per account, any address: 50 attempts per hour. */
  account: { points: 50, duration: 3_600 },
  /** Per client address, any account: 100 attempts per 15 minutes. */
  address: { points: 100, duration: 900 },
} as const;

export interface SignInDecision {
  allowed: boolean;
  /** Seconds to wait when refused. */
  retryAfter: number;
}

export interface SignInLimitsOptions {
  /** Shared store for several instances; in this process when absent. */
  redis?: Redis | undefined;
  /** Prefix of the Redis keys. @default 'packline' */
  prefix?: string;
}

/**
 * Budgets of password checks (sign-in, and the current password of a password change). An
 * attempt is spent atomically *before* the password is checked, so parallel guesses cannot
 * all be checked before the count catches up. With Redis every instance shares the budgets;
 * if Redis fails, an in-process insurance limiter answers.
 */
export class SignInLimits {
  private readonly redis: Redis | undefined;
  private readonly prefix: string;
  /** Made with the first attempt: a process that checks no password (a CLI command) loads no limiter. */
  private limiters: Promise<Limiters> | undefined;

  constructor({ redis, prefix = 'packline' }: SignInLimitsOptions = {}) {
    this.redis = redis;
    this.prefix = prefix;
  }

  /**
   * Spends one attempt for `account` (a normalized email, or `member:<id>`) from `address`
   * (counted under its /64 when it is IPv6). The strict budget is spent first: once it refuses,
   * the looser ones are not touched, so one address cannot drain an account's budget for everyone.
   */
  async attempt(address: string, account: string): Promise<SignInDecision> {
    const from = limitKey(address);
    const limiters = await this.limitersMade();
    for (const [limiter, key] of [
      [limiters.addressAndAccount, `${from}|${account}`],
      [limiters.address, from],
      [limiters.account, account],
    ] as const) {
      const refused = await spend(limiter, key, limiters.Refusal);
      if (refused) return { allowed: false, retryAfter: refused };
    }
    return { allowed: true, retryAfter: 0 };
  }

  /** The right password: this address's budget (its /64's, for IPv6) for the account starts again. */
  async succeeded(address: string, account: string): Promise<void> {
    await (await this.limitersMade()).addressAndAccount.delete(`${limitKey(address)}|${account}`);
  }

  private limitersMade(): Promise<Limiters> {
    this.limiters ??= makeLimiters(this.redis, this.prefix);
    return this.limiters;
  }
}

type Limiters = Record<keyof typeof SIGN_IN_LIMITS, RateLimiterAbstract> & { Refusal: typeof RateLimiterRes };

/** One limiter per budget (see sharedLimiter). */
async function makeLimiters(redis: Redis | undefined, prefix: string): Promise<Limiters> {
  const [{ RateLimiterRes }, { sharedLimiter }] = await Promise.all([import('rate-limiter-flexible'), import('./shared-limiter.ts')]);
  const limiter = (name: string, { points, duration }: { points: number; duration: number }) =>
    sharedLimiter({ points, duration, keyPrefix: `${prefix}:sign-in:${name}` }, redis);
  return {
    addressAndAccount: limiter('address-account', SIGN_IN_LIMITS.addressAndAccount),
    account: limiter('account', SIGN_IN_LIMITS.account),
    address: limiter('address', SIGN_IN_LIMITS.address),
    Refusal: RateLimiterRes,
  };
}

/** Spends a point; seconds to wait when the budget is spent, else 0. */
async function spend(limiter: RateLimiterAbstract, key: string, Refusal: typeof RateLimiterRes): Promise<number> {
  try {
    await limiter.consume(key, 1);
    return 0;
  } catch (error) {
    // rate-limiter-flexible rejects with its result when points run out.
    if (error instanceof Refusal) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw error;
  }
}
