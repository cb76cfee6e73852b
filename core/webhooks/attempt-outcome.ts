/** What one attempt gave and what follows from it. */
export interface AttemptOutcome {
  deliveryId: string;
  destinationId: string;
  /** 1-based, counting every attempt including manual retries. */
  number: number;
  at: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  next: { status: 'succeeded' } | { status: 'failed'; disableDestination?: string } | { status: 'pending'; at: Date };
}
