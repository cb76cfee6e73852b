import type { LaneTarget, PendingDelivery } from '../core/webhooks/delivery-store.ts';
import type { PreparedDelivery } from '../core/webhooks/envelope.ts';
import type { Dispatcher, Route } from './dispatcher.ts';

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

/**
 * One destination's lane: an actor that sends its deliveries one at a time in event order.
 * A failure holds the lane until the retry is due, so order is kept.
 */
export class Lane {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private target: { value: LaneTarget | null; route: Route | null; at: number; version: number } | undefined;

  constructor(
    readonly destinationId: string,
    private readonly dispatcher: Dispatcher,
  ) {}

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
    const d = this.dispatcher;
    // Within a streak of sends, each batch is read after the last one handed out (and while it is
    // being sent), without waiting for its attempts to be written; once the streak ends, the
    // queue is read from its start again, after everything sent is written.
    let after: PendingDelivery | undefined;
    let prefetched: Promise<PendingDelivery[]> | undefined;
    try {
      while (!this.closed && d.holds(this.destinationId)) {
        const target = await this.settings();
        if (!target?.value.active) return;
        const queue = await (prefetched ?? d.store.pending(target.value, BATCH, after));
        prefetched = undefined;
        const now = Date.now();
        let dueCount = 0;
        while (dueCount < queue.length && queue[dueCount]!.nextAttemptAt <= now) dueCount++;
        if (dueCount === 0) {
          if (after !== undefined) {
            after = undefined;
            await d.ledger.flush();
            continue;
          }
          return queue.length > 0 ? this.sleep(queue[0]!.nextAttemptAt - now) : undefined;
        }
        const due = queue.slice(0, dueCount);
        const last = due[dueCount - 1]!;
        prefetched = d.store.pending(target.value, BATCH, last);
        const stopped = await this.deliver(target.value, target.route, due);
        if (stopped !== undefined) {
          await d.ledger.flush();
          return stopped > 0 ? this.sleep(stopped) : undefined;
        }
        after = last;
      }
    } catch (error) {
      d.log.error({ err: error, destination: this.destinationId }, 'webhook lane failed; retrying shortly');
      this.sleep(1_000);
    } finally {
      // A batch read ahead for nothing (the lane stopped) must not fail unobserved.
      prefetched?.catch(() => undefined);
    }
  }

  /** Sends in order; returns the wait before the next try when the lane must pause, 0 when it must stop. */
  private async deliver(target: LaneTarget, route: Route, due: PendingDelivery[]): Promise<number | undefined> {
    const d = this.dispatcher;
    const timestamp = Math.floor(Date.now() / 1000);
    const prepare = (start: number) =>
      d.batcher.prepare(
        due.slice(start, start + PREPARE_CHUNK).map((delivery) => ({
          format: target.format,
          language: target.language,
          id: delivery.eventId,
          envelope: delivery.envelope,
          secrets: target.secrets,
          timestamp,
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
          if (delivery.test) request.headers['x-service-test'] = '1';
          const at = new Date();
          const result = await d.send(route, request);
          if (d.cutOffAtStop) return 0;
          const outcome = d.judge(delivery, target, result, at);
          d.ledger.add(outcome, target.plan);
          d.observe(outcome, delivery);
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
  private async settings(): Promise<{ value: LaneTarget; route: Route } | null> {
    const now = Date.now();
    const version = this.dispatcher.feed.version;
    const cached = this.target;
    if (cached && now - cached.at <= TARGET_TTL_MS && now < (cached.value?.secretsUntil ?? Number.POSITIVE_INFINITY)) {
      if (cached.version !== version && cached.value?.stamp !== (await this.dispatcher.stamp(this.destinationId))) {
        this.target = undefined;
      } else {
        cached.version = version;
      }
    } else {
      this.target = undefined;
    }
    if (!this.target) {
      const value = await this.dispatcher.target(this.destinationId);
      this.target = { value, route: value ? this.dispatcher.route(value.url) : null, at: now, version };
    }
    const { value, route } = this.target;
    return value && route ? { value, route } : null;
  }

  private sleep(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.min(Math.max(ms, 0), MAX_SLEEP_MS));
    this.timer.unref();
  }
}
