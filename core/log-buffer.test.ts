import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogBuffer, type LogSink } from './log-buffer.ts';

function sink() {
  const chunks: string[] = [];
  const calls: string[] = [];
  const target: LogSink = {
    write: (chunk) => chunks.push(chunk),
    flush: (cb) => {
      calls.push('flush');
      cb?.();
    },
    flushSync: () => calls.push('flushSync'),
  };
  return { target, chunks, calls };
}

describe('LogBuffer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes lines on in order, one chunk once minLength characters wait', () => {
    const { target, chunks } = sink();
    const buffer = new LogBuffer(target, 10, 1_000);
    buffer.write('one\n');
    buffer.write('two\n');
    expect(chunks).toEqual([]);
    buffer.write('three\n');
    buffer.write('four\n');
    expect(chunks).toEqual(['one\ntwo\nthree\n']);
  });

  it('hands on what waits at every interval, and nothing when nothing waits', () => {
    const { target, chunks } = sink();
    const buffer = new LogBuffer(target, 4_096, 1_000);
    buffer.write('a\n');
    vi.advanceTimersByTime(999);
    expect(chunks).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(chunks).toEqual(['a\n']);
    vi.advanceTimersByTime(5_000);
    expect(chunks).toEqual(['a\n']);
  });

  it('flush and flushSync hand on what waits before flushing the sink', () => {
    const { target, chunks, calls } = sink();
    const buffer = new LogBuffer(target, 4_096, 1_000);
    buffer.write('a\n');
    const done = vi.fn();
    buffer.flush(done);
    expect(chunks).toEqual(['a\n']);
    expect(calls).toEqual(['flush']);
    expect(done).toHaveBeenCalledOnce();
    buffer.write('b\n');
    buffer.flushSync();
    expect(chunks).toEqual(['a\n', 'b\n']);
    expect(calls).toEqual(['flush', 'flushSync']);
  });
});
