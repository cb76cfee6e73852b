import type { AttemptOutcome } from './attempt-outcome.ts';

/** The contract's schedule (docs/design.md#webhook-retries): immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/** Longest `Retry-After` honoured, so one receiver cannot park a delivery for days. */
export const MAX_RETRY_AFTER_S = 24 * 3600;

/** Receivers answering 410 Gone no longer want signals. */
const GONE = 410;

/** How far a planned delay may move either way (±20 %), so retries of many deliveries spread out. */
const JITTER = 0.2;

const SUCCEEDED: AttemptOutcome['next'] = Object.freeze({ status: 'succeeded' });

/** What the receiver did with one attempt, as the sender saw it. */
export interface AttemptResult {
  /** Null when no answer came (connection error, timeout, refused address). */
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** Seconds asked for by a `Retry-After` header, when present and valid. */
  retryAfterSeconds: number | null;
  durationMs: number;
  /** The headers sent and received, as stored (attempt-headers.ts). */
  requestHeaders?: string | null;
  responseHeaders?: string | null;
}

/** The delivery an attempt was for: its id and the attempts recorded before this one. */
export interface AttemptedDelivery {
  id: string;
  attempts: number;
}

/**
 * What an attempt's result means for its delivery (docs/design.md#webhook-retries): a 2xx succeeds; 410 Gone fails the
 * delivery and disables the destination; anything else (another status, a 3xx — redirects are not
 * followed —, no answer) is a failed attempt, retried after the schedule's next delay (±20 %), or
 * the receiver's longer `Retry-After` up to MAX_RETRY_AFTER_S, until the schedule runs out.
 */
export class RetryPolicy {
  readonly schedule: readonly number[];
  private readonly random: () => number;

  /**
   * @param schedule delay in seconds before each attempt; its length is the number of attempts.
   * @param random the jitter's source, a value in [0, 1) per retry.
   */
  constructor(schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE, random: () => number = Math.random) {
    this.schedule = schedule;
    this.random = random;
  }

  judge(delivery: AttemptedDelivery, destinationId: string, result: AttemptResult, at: Date): AttemptOutcome {
    const number = delivery.attempts + 1;
    const status = result.statusCode;
    const outcome = (error: string | null, next: AttemptOutcome['next']): AttemptOutcome => ({
      deliveryId: delivery.id,
      destinationId,
      number,
      at,
      durationMs: result.durationMs,
      statusCode: status,
      error,
      responseExcerpt: result.responseExcerpt,
      requestHeaders: result.requestHeaders ?? null,
      responseHeaders: result.responseHeaders ?? null,
      next,
    });
    if (status !== null && status >= 200 && status < 300) return outcome(result.error, SUCCEEDED);
    if (status === GONE)
      return outcome('receiver answered 410 Gone', { status: 'failed', disableDestination: 'The receiver answered 410 Gone' });
    const error = result.error ?? (status === null ? 'no answer' : `receiver answered ${status}`);
    if (number >= this.schedule.length) return outcome(error, { status: 'failed' });
    const planned = this.schedule[number]! * 1000 * (1 - JITTER + this.random() * 2 * JITTER);
    const asked = Math.min(result.retryAfterSeconds ?? 0, MAX_RETRY_AFTER_S) * 1000;
    return outcome(error, { status: 'pending', at: new Date(at.getTime() + Math.max(planned, asked)) });
  }
}
