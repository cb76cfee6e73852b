import type { WindowCount, WindowCounter } from './window-counter.ts';

interface Entry {
  value: number;
  expiresAt: number | null;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Fixed-window counters of this process that answer synchronously: the arithmetic of
 * rate-limiter-flexible's RateLimiterMemory (a window opens with its first point and ends
 * `durationSec` later; a timer removes the entry at its end) without a promise per call, which
 * costs a microsecond on every API call once async hooks are on. memory-windows.test.ts runs both
 * side by side on the same clock.
 */
export class MemoryWindows implements WindowCounter {
  private readonly entries = new Map<string, Entry>();

  /** Adds `points` to the key's window, opening a new window when there is none or it ended. */
  consume(key: string, points: number, durationSec: number): WindowCount {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      const msBeforeNext = entry.expiresAt === null ? -1 : entry.expiresAt - Date.now();
      if (entry.expiresAt === null || msBeforeNext > 0) {
        entry.value += points;
        return { consumed: entry.value, msBeforeNext };
      }
    }
    return this.set(key, points, durationSec);
  }

  /** Starts a window holding `value` points (0 or less: without end). */
  set(key: string, value: number, durationSec: number): WindowCount {
    const durationMs = durationSec * 1000;
    const previous = this.entries.get(key);
    if (previous?.timer !== undefined) clearTimeout(previous.timer);
    const entry: Entry = { value, expiresAt: durationMs > 0 ? Date.now() + durationMs : null, timer: undefined };
    this.entries.set(key, entry);
    if (durationMs > 0) {
      entry.timer = setTimeout(() => this.entries.delete(key), durationMs);
      entry.timer.unref();
    }
    return { consumed: value, msBeforeNext: durationMs === 0 ? -1 : durationMs };
  }

  /** The key's window as it stands (an ended one until its timer removes it), or null. */
  get(key: string): WindowCount | null {
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    return { consumed: entry.value, msBeforeNext: entry.expiresAt === null ? -1 : entry.expiresAt - Date.now() };
  }
}
