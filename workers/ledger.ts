import type { Plan } from '../core/entities/index.ts';
import type { AttemptOutcome, DeliveryStore } from '../core/webhooks/delivery-store.ts';

/**
 * At most this long between an attempt and its record, while a lane is still sending its batch:
 * what a crash can make a dispatcher send twice is bounded by it.
 */
const WRITE_WITHIN_MS = 100;

/**
 * Group commit of attempt outcomes: lanes add results as they come, and one transaction
 * writes everything queued meanwhile, within WRITE_WITHIN_MS. A lane awaits `flush()` before
 * reading its queue again, so nothing already delivered is read back as waiting.
 */
export class Ledger {
  private queued: AttemptOutcome[] = [];
  private readonly plans = new Map<string, Plan>();
  /** The latest write, queued behind the ones before it. */
  private chain: Promise<void> = Promise.resolve();
  /** A write that has not started yet: whatever is added before it starts rides along. */
  private upcoming: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  private readonly store: DeliveryStore;
  private readonly onError: (error: unknown) => void;

  constructor(store: DeliveryStore, onError: (error: unknown) => void) {
    this.store = store;
    this.onError = onError;
  }

  add(outcome: AttemptOutcome, plan: Plan): void {
    this.queued.push(outcome);
    this.plans.set(outcome.destinationId, plan);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      // A failed write keeps its outcomes queued and is reported through onError.
      this.flush().catch(() => undefined);
    }, WRITE_WITHIN_MS).unref();
  }

  /** Resolves once everything added so far is written; rejects if that write failed. */
  flush(): Promise<void> {
    if (this.upcoming) return this.upcoming;
    if (this.queued.length === 0) return this.chain;
    const write = this.chain
      .catch(() => undefined)
      .then(async () => {
        this.upcoming = undefined;
        const batch = this.queued;
        const plans = new Map(this.plans);
        this.queued = [];
        this.plans.clear();
        try {
          await this.store.record(batch, plans);
        } catch (error) {
          // Keep the outcomes for the next flush; until then their lanes wait.
          this.queued = batch.concat(this.queued);
          for (const [id, plan] of plans) if (!this.plans.has(id)) this.plans.set(id, plan);
          this.onError(error);
          throw error;
        }
      });
    this.upcoming = write;
    this.chain = write;
    return write;
  }

  get size(): number {
    return this.queued.length;
  }
}
