import type { AttemptView } from './views.ts';

/** What one attempt gave (`number` is 1-based, counting every attempt including manual retries) and what follows from it. */
export interface AttemptOutcome extends AttemptView {
  deliveryId: string;
  destinationId: string;
  next: { status: 'succeeded' } | { status: 'failed'; disableDestination?: string } | { status: 'pending'; at: Date };
}
