import type { DeliveryJob, PreparedDelivery } from '../core/webhooks/envelope.ts';
import type { DeliveryPreparer } from './pool.ts';

/**
 * Gathers the jobs every lane asks for within one turn of the event loop into one batch, so the
 * worker pool gets work large enough to pay for the trip to a thread.
 */
export class PrepareBatcher {
  private waiting: { jobs: DeliveryJob[]; resolve: (out: PreparedDelivery[]) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  private readonly preparer: DeliveryPreparer;

  constructor(preparer: DeliveryPreparer) {
    this.preparer = preparer;
  }

  prepare(jobs: DeliveryJob[]): Promise<PreparedDelivery[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ jobs, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.run());
      }
    });
  }

  private async run(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    try {
      const prepared = await this.preparer.prepare(batch.flatMap((entry) => entry.jobs));
      let offset = 0;
      for (const entry of batch) {
        entry.resolve(prepared.slice(offset, offset + entry.jobs.length));
        offset += entry.jobs.length;
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
