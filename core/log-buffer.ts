/** The part of a sonic-boom destination the buffer writes through. */
export interface LogSink {
  write(chunk: string): unknown;
  flush(cb?: (error?: Error) => void): void;
  flushSync(): void;
}

/**
 * Log lines gathered into chunks before they reach the sink: one write per `minLength`
 * characters, and whatever waits at least every `flushIntervalMs`. sonic-boom buffers too, but
 * measures its whole pending string again on every line (flattening and scanning up to 16 KiB),
 * which cost about 3 µs per API call; here a line costs one concatenation.
 */
export class LogBuffer {
  private pending = '';
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly sink: LogSink,
    private readonly minLength: number,
    flushIntervalMs: number,
  ) {
    this.timer = setInterval(() => this.drain(), flushIntervalMs);
    this.timer.unref();
  }

  write(line: string): boolean {
    this.pending += line;
    if (this.pending.length >= this.minLength) this.drain();
    return true;
  }

  flush(cb?: (error?: Error) => void): void {
    this.drain();
    this.sink.flush(cb);
  }

  flushSync(): void {
    this.drain();
    this.sink.flushSync();
  }

  private drain(): void {
    if (this.pending === '') return;
    const chunk = this.pending;
    this.pending = '';
    this.sink.write(chunk);
  }
}
