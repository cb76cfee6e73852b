import type { AttemptOutcome } from '../core/webhooks/attempt-outcome.ts';
import type { LaneTarget, PendingDelivery } from '../core/webhooks/delivery-store.ts';
import type { PreparedDelivery, DeliveryJob } from '../core/webhooks/envelope.ts';
import type { SendResult, SendTarget } from './send.ts';

/** Deliveries read from the queue at a time. */
const BATCH = 256;
/** Deliveries prepared (rendered and signed) together; every lane's chunk of one turn goes as one batch. */
const PREPARE_CHUNK = 64;
/**
 * How long a lane reuses its destination's settings before reading them again regardless. Changes
 * to the destination itself are seen at once (its stamp); this bounds how late a plan change is.
 */
const TARGET_TTL_MS = 30_000;
/** Waiting deliveries re-read at least this often, for changes made by other processes. */
const MAX_SLEEP_MS = 60_000;

/** A destination's URL as the sender uses it. */
export interface Route {
  target: SendTarget;
  /** The URL names a private or reserved address outright: nothing is sent. */
  refused: boolean;
}

/** A destination's settings as a lane sends with them. */
export interface LaneSettings {
  value: LaneTarget;
  route: Route;
}

/**
 * What a lane needs from the process that runs it, and nothing more: its lease, its
 * destination's settings, its queue, the preparer and sender, and where attempts are recorded.
 */
export interface LanePort {
  /** The lane may go on sending: the dispatcher runs and holds the destination's lease. */
  holds(destinationId: string): boolean;
  /** Bumped on every change the change feed reports; the lane then checks its destination's stamp. */
  settingsVersion(): number;
  /** The destination's current stamp (changes whenever its row does). */
  stamp(destinationId: string): Promise<string | null>;
  /** The destination's settings and route; null when it is gone. */
  settings(destinationId: string): Promise<LaneSettings | null>;
  /** Deliveries waiting for the destination, in order, after `after`. */
  pending(target: LaneTarget, limit: number, after?: PendingDelivery): Promise<PendingDelivery[]>;
  /** Renders and signs a chunk. */
  prepare(requests: DeliveryJob[]): Promise<PreparedDelivery[]>;
  send(route: Route, prepared: PreparedDelivery): Promise<SendResult>;
  /**
   * Judges an attempt's result and queues its record; undefined when the attempt came back after
   * a stop gave the lane away, so nothing may be recorded.
   */
  record(delivery: PendingDelivery, target: LaneTarget, result: SendResult, at: Date): AttemptOutcome | undefined;
  /** Writes the attempts recorded so far. */
  flush(): Promise<void>;
  /** A lane's run failed; it retries shortly. */
  failed(destinationId: string, error: unknown): void;
}

/**
 * One destination's lane: an actor that sends its deliveries one at a time in event order.
 * A failure holds the lane until the retry is due, so order is kept.
 */
export class Lane {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private target: { value: LaneSettings | null; at: number; version: number } | undefined;

  readonly destinationId: string;
  private readonly port: LanePort;

  constructor(destinationId: string, port: LanePort) {
    this.destinationId = destinationId;
    this.port = port;
  }

  /** Asks the lane to look at its queue; runs are never concurrent. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Stops after the attempt in flight; resolves when it is recorded. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  private async loop(): Promise<void> {
    const d = this.port;
    // Within a streak of sends, each batch is read after the last one handed out (and while it is
    // being sent), without waiting for its attempts to be written; once the streak ends, the
    // queue is read from its start again, after everything sent is written.
    let after: PendingDelivery | undefined;
    let prefetched: Promise<PendingDelivery[]> | undefined;
    try {
      while (!this.closed && d.holds(this.destinationId)) {
        const target = await this.settings();
        if (!target?.value.active) return;
        const queue = await (prefetched ?? d.pending(target.value, BATCH, after));
        prefetched = undefined;
        const now = Date.now();
        let dueCount = 0;
        while (dueCount < queue.length && queue[dueCount]!.nextAttemptAt <= now) dueCount++;
        if (dueCount === 0) {
          if (after !== undefined) {
            after = undefined;
            await d.flush();
            continue;
          }
          return queue.length > 0 ? this.sleep(queue[0]!.nextAttemptAt - now) : undefined;
        }
        const due = queue.slice(0, dueCount);
        const last = due[dueCount - 1]!;
        prefetched = d.pending(target.value, BATCH, last);
        const stopped = await this.deliver(target.value, target.route, due);
        if (stopped !== undefined) {
          await d.flush();
          return stopped > 0 ? this.sleep(stopped) : undefined;
        }
        after = last;
      }
    } catch (error) {
      d.failed(this.destinationId, error);
      this.sleep(1_000);
    } finally {
      // A batch read ahead for nothing (the lane stopped) must not fail unobserved.
      prefetched?.catch(() => undefined);
    }
  }

  /** Sends in order; returns the wait before the next try when the lane must pause, 0 when it must stop. */
  private async deliver(target: LaneTarget, route: Route, due: PendingDelivery[]): Promise<number | undefined> {
    const d = this.port;
    const timestamp = Math.floor(Date.now() / 1000);
    const prepare = (start: number) =>
      d.prepare(
        due.slice(start, start + PREPARE_CHUNK).map((delivery) => ({
          format: target.format,
          language: target.language,
          id: delivery.eventId,
          envelope: delivery.envelope,
          secrets: target.secrets,
          timestamp,
          test: delivery.test,
        })),
      );
    // The next chunk is being prepared (on the pool, for large batches) while this one is sent.
    let next: Promise<PreparedDelivery[]> | undefined = prepare(0);
    try {
      for (let start = 0; start < due.length; start += PREPARE_CHUNK) {
        const prepared: PreparedDelivery[] = await next!;
        next = start + PREPARE_CHUNK < due.length ? prepare(start + PREPARE_CHUNK) : undefined;
        for (let i = 0; i < prepared.length; i++) {
          if (this.closed || !d.holds(this.destinationId)) return 0;
          const delivery = due[start + i]!;
          const request = prepared[i]!;
          const at = new Date();
          const result = await d.send(route, request);
          const outcome = d.record(delivery, target, result, at);
          if (outcome === undefined) return 0;
          if (outcome.next.status === 'succeeded') continue;
          if (outcome.next.status === 'pending') return outcome.next.at.getTime() - Date.now();
          if ('disableDestination' in outcome.next && outcome.next.disableDestination) return 0;
          // Out of attempts: the next delivery's turn.
        }
      }
      return undefined;
    } finally {
      // A chunk prepared for nothing (the lane stopped early) must not fail unobserved.
      next?.catch(() => undefined);
    }
  }

  /**
   * The destination's settings, read again at once when it changed: after any change the feed
   * reports, a look at every lane's row tells whether this one moved (a rotation signs with both
   * secrets from the next delivery on). Read again too when a rotation's overlap ends, and every
   * TARGET_TTL_MS regardless.
   */
  private async settings(): Promise<LaneSettings | null> {
    const now = Date.now();
    const version = this.port.settingsVersion();
    const cached = this.target;
    if (cached && now - cached.at <= TARGET_TTL_MS && now < (cached.value?.value.secretsUntil ?? Number.POSITIVE_INFINITY)) {
      if (cached.version !== version && cached.value?.value.stamp !== (await this.port.stamp(this.destinationId))) {
        this.target = undefined;
      } else {
        cached.version = version;
      }
    } else {
      this.target = undefined;
    }
    if (!this.target) this.target = { value: await this.port.settings(this.destinationId), at: now, version };
    return this.target.value;
  }

  private sleep(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.min(Math.max(ms, 0), MAX_SLEEP_MS));
    this.timer.unref();
  }
}
