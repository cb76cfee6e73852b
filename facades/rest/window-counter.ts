import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { MaybePromise } from './maybe-promise.ts';

/** A key's points in its current window, as rate-limiter-flexible's results give them. */
export interface WindowCount {
  consumed: number;
  /** Milliseconds until the window ends; -1 for a window without end. */
  msBeforeNext: number;
}

/** Fixed-window counters: in this process (synchronous) or shared through Redis. */
export interface WindowCounter {
  /** Adds `points` to the key's window, opening a window of `durationSec` when there is none. */
  consume(key: string, points: number, durationSec: number): MaybePromise<WindowCount>;
  get(key: string): MaybePromise<WindowCount | null>;
  /** Starts a window holding `value` points. */
  set(key: string, value: number, durationSec: number): MaybePromise<unknown>;
}

/** A rate-limiter-flexible limiter (Redis, with its in-memory insurance) as a WindowCounter. */
export class FlexibleWindows implements WindowCounter {
  private readonly limiter: RateLimiterAbstract;

  constructor(limiter: RateLimiterAbstract) {
    this.limiter = limiter;
  }

  consume(key: string, points: number, durationSec: number): Promise<WindowCount> {
    // The limiter rejects with its result when points run out; both are counts here.
    return this.limiter.consume(key, points, { customDuration: durationSec }).then(count, (error: unknown) => {
      if (error instanceof RateLimiterRes) return count(error);
      throw error;
    });
  }

  async get(key: string): Promise<WindowCount | null> {
    const res = await this.limiter.get(key);
    return res === null ? null : count(res);
  }

  set(key: string, value: number, durationSec: number): Promise<unknown> {
    return this.limiter.set(key, value, durationSec);
  }
}

const count = (res: RateLimiterRes): WindowCount => ({ consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext });
