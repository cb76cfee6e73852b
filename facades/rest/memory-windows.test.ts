import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageRecorder } from '../../core/index.ts';
import { ApiLimits } from './limits.ts';
import { MemoryWindows } from './memory-windows.ts';

// Both sides run on vitest's fake clock: Date.now() and the timers that end windows move together.
const START = Date.parse('2026-11-30T23:58:30.250Z');
const POINTS = 3;

type Step =
  | { kind: 'consume'; key: string; points: number; durationSec: number }
  | { kind: 'get'; key: string }
  | { kind: 'set'; key: string; value: number; durationSec: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'lag'; ms: number };

const key = fc.constantFrom('a', 'b', 'c');
const durationSec = fc.oneof(fc.constantFrom(0, 1, 60), fc.integer({ min: 1, max: 120 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('consume' as const), key, points: fc.integer({ min: 1, max: 2 }), durationSec }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('get' as const), key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 5 }), durationSec }) },
  // Waits land on window ends exactly as often as between them.
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 130_000 }), fc.constantFrom(1, 999, 1_000, 59_999, 60_000, 60_001)),
    }),
  },
  // The clock moves on while timers wait, as when the event loop is late: windows past their end
  // are still held until their timer runs.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('lag' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.constantFrom(1, 1_000, 60_000)),
    }),
  },
);

/** rate-limiter-flexible rejects with its result when points run out. */
const settled = (promise: Promise<RateLimiterRes>) =>
  promise.catch((error: unknown) => (error instanceof RateLimiterRes ? error : Promise.reject(error)));

describe('MemoryWindows', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives rate-limiter-flexible's memory limiter's counts, window ends and refusals for any sequence of calls", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        vi.setSystemTime(START);
        const reference = new RateLimiterMemory({ points: POINTS, duration: 60 });
        const windows = new MemoryWindows();
        for (const s of steps) {
          if (s.kind === 'wait') {
            vi.advanceTimersByTime(s.ms);
          } else if (s.kind === 'lag') {
            vi.setSystemTime(Date.now() + s.ms);
          } else if (s.kind === 'consume') {
            const { res: expected, refused } = await reference.consume(s.key, s.points, { customDuration: s.durationSec }).then(
              (res) => ({ res, refused: false }),
              (error: unknown) => (error instanceof RateLimiterRes ? { res: error, refused: true } : Promise.reject(error)),
            );
            const actual = windows.consume(s.key, s.points, s.durationSec);
            expect(actual).toEqual({ consumed: expected.consumedPoints, msBeforeNext: expected.msBeforeNext });
            expect(Math.max(POINTS - actual.consumed, 0)).toBe(expected.remainingPoints);
            expect(actual.consumed > POINTS).toBe(refused);
          } else if (s.kind === 'get') {
            const expected = await reference.get(s.key);
            expect(windows.get(s.key)).toEqual(expected && { consumed: expected.consumedPoints, msBeforeNext: expected.msBeforeNext });
          } else {
            await reference.set(s.key, s.value, s.durationSec);
            windows.set(s.key, s.value, s.durationSec);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('ApiLimits in memory answers what it answered on RateLimiterMemory: remaining, reset, refusal and wait', async () => {
    const usage = { monthCalls: async () => 0, record() {} } as unknown as UsageRecorder;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 70_000 })), lag: fc.boolean() }), {
          minLength: 1,
          maxLength: 40,
        }),
        async (waits) => {
          vi.setSystemTime(START);
          const perMinute = 4;
          const limits = new ApiLimits({ perMinute, usage });
          const rate = new RateLimiterMemory({ points: perMinute, duration: 60 });
          const quota = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: 0 });
          const organization = `org-${randomBytes(3).toString('hex')}`;
          for (const { ms, lag } of waits) {
            if (lag) vi.setSystemTime(Date.now() + (ms % 2_000));
            else vi.advanceTimersByTime(ms);
            const now = Date.now();
            // The decisions of ApiLimits as they were computed from rate-limiter-flexible's results.
            const res = await settled(rate.consume('key'));
            const allowed = res.consumedPoints <= perMinute;
            expect(await limits.consumeRate('key', now)).toEqual({
              allowed,
              window: { limit: perMinute, remaining: Math.max(0, res.remainingPoints), reset: Math.ceil((now + res.msBeforeNext) / 1000) },
              retryAfter: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
            });
            const at = new Date(now);
            const reset = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) / 1000;
            const month = at.toISOString().slice(0, 7);
            const spent = await quota.consume(`${organization}:${month}`, 1, {
              customDuration: Math.max(1, reset - Math.floor(now / 1000)),
            });
            expect(await limits.consumeQuota(organization, 'base', at)).toEqual({
              allowed: true,
              window: { limit: 1_000, remaining: 1_000 - spent.consumedPoints, reset },
              retryAfter: 0,
            });
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers without a promise, so the API needs none for its limits in memory', () => {
    const limits = new ApiLimits({ perMinute: 2, usage: { monthCalls: async () => 0, record() {} } as unknown as UsageRecorder });
    expect(limits.consumeRate('key')).not.toBeInstanceOf(Promise);
  });
});
