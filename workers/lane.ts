import type { LaneTarget, PendingDelivery } from '../core/webhooks/delivery-store.ts';
import type { DeliveryJob } from '../core/webhooks/envelope.ts';
import type { Dispatcher } from './dispatcher.ts';

/** Deliveries read from the queue at a time, prepared together. */
const BATCH = 256;
/** How long a lane reuses its destination's settings before reading them again. */
const TARGET_TTL_MS = 2_000;
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
  private target: { value: LaneTarget | null; at: number; version: number } | undefined;

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
    try {
      while (!this.closed && d.holds(this.destinationId)) {
        const target = await this.settings();
        if (!target?.active) return;
        const queue = await d.store.pending(this.destinationId, BATCH);
        if (queue.length === 0) return;
        const now = Date.now();
        const due = queue.filter((delivery, i) => i === 0 || delivery.nextAttemptAt.getTime() <= now);
        if (due[0]!.nextAttemptAt.getTime() > now) return this.sleep(due[0]!.nextAttemptAt.getTime() - now);
        const stopped = await this.deliver(target, due);
        await d.ledger.flush();
        if (stopped !== undefined) return stopped > 0 ? this.sleep(stopped) : undefined;
      }
    } catch (error) {
      d.log.error({ err: error, destination: this.destinationId }, 'webhook lane failed; retrying shortly');
      this.sleep(1_000);
    }
  }

  /** Sends in order; returns the wait before the next try when the lane must pause, 0 when it must stop. */
  private async deliver(target: LaneTarget, due: PendingDelivery[]): Promise<number | undefined> {
    const d = this.dispatcher;
    const timestamp = Math.floor(Date.now() / 1000);
    const jobs: DeliveryJob[] = due.map((delivery) => ({
      format: target.format,
      language: target.language,
      envelope: delivery.envelope,
      secrets: target.secrets,
      timestamp,
    }));
    const prepared = await d.batcher.prepare(jobs);
    for (let i = 0; i < due.length; i++) {
      if (this.closed || !d.holds(this.destinationId)) return 0;
      const delivery = due[i]!;
      const request = prepared[i]!;
      if (delivery.test) request.headers['x-service-test'] = '1';
      const at = new Date();
      const result = await d.send(target.url, request);
      if (d.cutOffAtStop) return 0;
      const outcome = d.judge(delivery, target, result, at);
      d.ledger.add(outcome, target.plan);
      d.observe(outcome, delivery);
      if (outcome.next.status === 'succeeded') continue;
      if (outcome.next.status === 'pending') return outcome.next.at.getTime() - Date.now();
      if ('disableDestination' in outcome.next && outcome.next.disableDestination) return 0;
      // Out of attempts: the next delivery's turn.
    }
    return undefined;
  }

  /**
   * The destination's settings: re-read after any change the feed reports (a rotation signs with
   * both secrets from the next delivery on), and every couple of seconds regardless.
   */
  private async settings(): Promise<LaneTarget | null> {
    const now = Date.now();
    const version = this.dispatcher.feed.version;
    if (!this.target || this.target.version !== version || now - this.target.at > TARGET_TTL_MS) {
      this.target = { value: await this.dispatcher.store.target(this.destinationId), at: now, version };
    }
    return this.target.value;
  }

  private sleep(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.min(Math.max(ms, 0), MAX_SLEEP_MS));
    this.timer.unref();
  }
}
