// The public read path's reads, gathered per turn of the event loop. Requests that arrive
// together (every socket the poll phase read) ask for their rows in the same turn; their reads
// wait for that turn's check phase (setImmediate) and then run one after another, where each
// request would otherwise run its statement, then render and write its answer, before the next
// request's statement. Reads by id go further: every id asked for in the turn is read by one
// statement (the loaders of core/components/public-reads.ts schedule their batches here).
//
// Measured on SQLite under 50 connections (docs/benchmarks.md, "Reads gathered per turn"): the
// same list statement took 118 µs gathered against 157 µs interleaved with the rest of each
// request's work, and the whole answer about a fifth less CPU; a read by id, batched, 9 µs per row
// against 29 µs for a statement of its own. The cost: a read waits for the end of the turn it was
// asked in, the time the poll phase takes to hand over the other sockets' requests.

/** Runs the tasks scheduled during one turn of the event loop together, in its check phase. */
export class ReadTurn {
  private waiting: Array<() => void> = [];
  private inFlush = false;

  /** Whether this turn's tasks are running now: a read asked for from one of them runs at once. */
  get running(): boolean {
    return this.inFlush;
  }

  /** Runs `task` in this turn's check phase, after the tasks scheduled before it (DataLoader's batchScheduleFn). */
  readonly schedule = (task: () => void): void => {
    this.waiting.push(task);
    if (this.waiting.length === 1) setImmediate(this.flush);
  };

  /** Resolves in this turn's check phase, with the tasks scheduled before it. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => this.schedule(resolve));
  }

  private readonly flush = (): void => {
    const tasks = this.waiting;
    this.waiting = [];
    this.inFlush = true;
    const failures: unknown[] = [];
    for (const task of tasks) {
      try {
        task();
      } catch (error) {
        failures.push(error);
      }
    }
    this.inFlush = false;
    // A task that throws does not keep the others from running; the error still surfaces as an
    // uncaught one, as it would have from a setImmediate of its own.
    if (failures.length > 0) throw failures.length === 1 ? failures[0] : new AggregateError(failures, 'Read turn tasks failed');
  };
}
