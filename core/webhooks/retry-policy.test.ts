import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, MAX_RETRY_AFTER_S, RetryPolicy, type AttemptResult } from './retry-policy.ts';

const AT = new Date('2026-11-25T10:00:00.000Z');
const answer = (statusCode: number | null, extra: Partial<AttemptResult> = {}): AttemptResult => ({
  statusCode,
  error: null,
  responseExcerpt: null,
  retryAfterSeconds: null,
  durationMs: 12,
  ...extra,
});
/** A policy whose jitter is fixed: 0 gives the shortest delay (−20 %), 0.5 the planned one, 1 the longest (+20 %). */
const policy = (random = 0.5, schedule = DEFAULT_RETRY_SCHEDULE) => new RetryPolicy(schedule, () => random);
const delivery = (attempts: number) => ({ id: 'dlv_1', attempts });
const nextAt = (outcome: ReturnType<RetryPolicy['judge']>) => {
  expect(outcome.next.status).toBe('pending');
  return outcome.next.status === 'pending' ? outcome.next.at.getTime() - AT.getTime() : Number.NaN;
};

describe('RetryPolicy', () => {
  it('records a 2xx as succeeded, with the attempt number, status, duration, excerpt and headers', () => {
    const headers = { requestHeaders: '[["x-service-signature","t=1,v1=ab"]]', responseHeaders: '[["x-trace","7"]]' };
    const outcome = policy().judge(delivery(2), 'dst_1', answer(204, { responseExcerpt: 'ok', ...headers }), AT);
    expect(outcome).toEqual({
      deliveryId: 'dlv_1',
      destinationId: 'dst_1',
      number: 3,
      at: AT,
      durationMs: 12,
      statusCode: 204,
      error: null,
      responseExcerpt: 'ok',
      ...headers,
      next: { status: 'succeeded' },
    });
  });

  it('retries a failure after the next delay of the schedule', () => {
    // The first attempt (number 1) failed: the second comes schedule[1] = 5 s later.
    expect(nextAt(policy().judge(delivery(0), 'dst_1', answer(500), AT))).toBe(5_000);
    expect(nextAt(policy().judge(delivery(1), 'dst_1', answer(500), AT))).toBe(300_000);
    expect(nextAt(policy().judge(delivery(6), 'dst_1', answer(500), AT))).toBe(36_000_000);
  });

  it('moves the planned delay by at most 20 % either way', () => {
    expect(nextAt(policy(0).judge(delivery(1), 'dst_1', answer(503), AT))).toBe(240_000);
    expect(nextAt(policy(0.999_999).judge(delivery(1), 'dst_1', answer(503), AT))).toBeCloseTo(360_000, -1);
  });

  it('names the failure: the sender error, no answer, or the status', () => {
    expect(policy().judge(delivery(0), 'dst_1', answer(null, { error: 'timed out after 10 s' }), AT).error).toBe('timed out after 10 s');
    expect(policy().judge(delivery(0), 'dst_1', answer(null), AT).error).toBe('no answer');
    expect(policy().judge(delivery(0), 'dst_1', answer(429), AT).error).toBe('receiver answered 429');
  });

  it('treats a redirect as a failed attempt (redirects are not followed)', () => {
    for (const status of [301, 302, 307, 308]) {
      const outcome = policy().judge(delivery(0), 'dst_1', answer(status), AT);
      expect(outcome.error).toBe(`receiver answered ${status}`);
      expect(nextAt(outcome)).toBe(5_000);
    }
  });

  it('fails the delivery and disables the destination on 410 Gone, whatever attempts are left', () => {
    const outcome = policy().judge(delivery(0), 'dst_1', answer(410), AT);
    expect(outcome.error).toBe('receiver answered 410 Gone');
    expect(outcome.next).toEqual({ status: 'failed', disableDestination: 'The receiver answered 410 Gone' });
  });

  it('fails the delivery once the schedule is spent', () => {
    const last = DEFAULT_RETRY_SCHEDULE.length - 1;
    expect(policy().judge(delivery(last), 'dst_1', answer(500), AT).next).toEqual({ status: 'failed' });
    expect(policy(0.5, [0, 1, 1]).judge(delivery(2), 'dst_1', answer(500), AT).next).toEqual({ status: 'failed' });
    expect(nextAt(policy(0.5, [0, 1, 1]).judge(delivery(1), 'dst_1', answer(500), AT))).toBe(1_000);
  });

  it('honours a longer Retry-After, never a shorter one', () => {
    expect(nextAt(policy().judge(delivery(0), 'dst_1', answer(503, { retryAfterSeconds: 120 }), AT))).toBe(120_000);
    expect(nextAt(policy().judge(delivery(1), 'dst_1', answer(503, { retryAfterSeconds: 1 }), AT))).toBe(300_000);
  });

  it(`caps Retry-After at ${MAX_RETRY_AFTER_S / 3600} hours`, () => {
    expect(nextAt(policy().judge(delivery(0), 'dst_1', answer(429, { retryAfterSeconds: 30 * 24 * 3600 }), AT))).toBe(
      MAX_RETRY_AFTER_S * 1000,
    );
  });

  it('does not retry past the schedule even when Retry-After asks for it', () => {
    const last = DEFAULT_RETRY_SCHEDULE.length - 1;
    expect(policy().judge(delivery(last), 'dst_1', answer(503, { retryAfterSeconds: 60 }), AT).next).toEqual({ status: 'failed' });
  });
});
