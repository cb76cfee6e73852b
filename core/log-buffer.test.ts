import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogBuffer, type LogSink } from './log-buffer.ts';

/** A sink that records what it is told: writes, and `flush` / `flushSync` calls. */
function sink() {
  const calls: string[] = [];
  const target: LogSink & { destroyed: boolean } = {
    destroyed: false,
    write: (chunk) => calls.push(`write ${JSON.stringify(chunk)}`),
    flush: () => calls.push('flush'),
    flushSync: () => calls.push('flushSync'),
  };
  return { target, calls };
}

describe('LogBuffer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands lines on in order, one chunk once chunkLength characters wait, and has it written', () => {
    const { target, calls } = sink();
    const buffer = new LogBuffer(target, 10, 1_000);
    buffer.write('one\n');
    buffer.write('two\n');
    expect(calls).toEqual([]);
    buffer.write('three\n');
    buffer.write('four\n');
    expect(calls).toEqual(['write "one\\ntwo\\nthree\\n"', 'flush']);
  });

  it('flushes at every interval, what waits first', () => {
    const { target, calls } = sink();
    new LogBuffer(target, 4_096, 1_000).write('a\n');
    vi.advanceTimersByTime(999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['write "a\\n"', 'flush']);
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual(['write "a\\n"', 'flush', 'flush']);
  });

  it('at exit writes what the sink holds, then what waits, synchronously', () => {
    const { target, calls } = sink();
    const buffer = new LogBuffer(target, 4_096, 1_000);
    buffer.write('a\n');
    buffer.flushSync();
    expect(calls).toEqual(['flushSync', 'write "a\\n"', 'flushSync']);
  });

  it('leaves an ended sink alone', () => {
    const { target, calls } = sink();
    const buffer = new LogBuffer(target, 4_096, 1_000);
    buffer.write('a\n');
    target.destroyed = true;
    buffer.flush();
    buffer.flushSync();
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual([]);
  });
});
