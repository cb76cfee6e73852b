/** The part of a sonic-boom destination the buffer writes through. */
export interface LogSink {
  /** Set once the sink has ended (sonic-boom has it, though its types do not say so). */
  readonly destroyed?: boolean;
  write(chunk: string): unknown;
  flush(): void;
  flushSync(): void;
}

/**
 * Log lines gathered into chunks before they reach the sink: one chunk per `chunkLength`
 * characters, and whatever waits at least every `flushIntervalMs`. sonic-boom buffers too, but
 * measures its whole pending string again on every line (flattening and scanning up to 16 KiB),
 * which cost about 3 µs per API call; here a line costs one concatenation.
 *
 * The sink must hold what it is given until told to flush (a sonic-boom whose minLength is
 * above any chunk), so that at exit the last lines are written synchronously, not by a write
 * still in flight when the process ends.
 */
export class LogBuffer {
  private pending = '';
  private readonly timer: NodeJS.Timeout;

  private readonly sink: LogSink;
  private readonly chunkLength: number;

  constructor(sink: LogSink, chunkLength: number, flushIntervalMs: number) {
    this.sink = sink;
    this.chunkLength = chunkLength;
    this.timer = setInterval(() => this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  write(line: string): boolean {
    this.pending += line;
    if (this.pending.length >= this.chunkLength) this.flush();
    return true;
  }

  /** Hands what waits to the sink and has it written (lines after the sink ended are dropped, as it would refuse them). */
  flush(): void {
    if (this.sink.destroyed) return;
    if (this.pending !== '') this.sink.write(this.take());
    this.sink.flush();
  }

  /** Writes everything synchronously (at exit). */
  flushSync(): void {
    if (this.sink.destroyed) return;
    this.sink.flushSync();
    if (this.pending === '') return;
    this.sink.write(this.take());
    this.sink.flushSync();
  }

  private take(): string {
    const chunk = this.pending;
    this.pending = '';
    return chunk;
  }
}
