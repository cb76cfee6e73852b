// The benchmarks' CPU accounting: a watched process that ends during a run counts for nothing,
// not for minus all the CPU it had used (a closing database backend once read as other processes
// taking more than the whole machine).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuSnapshot, watchedDeltaMs } from '../../bench/support/load.ts';

describe('watchedDeltaMs', () => {
  it('counts a process that ended meanwhile as nothing, and one still running by what it used', async () => {
    // A child that spins until it has used 200 ms of CPU, then waits to be told to end.
    const child = spawn(process.execPath, [
      '-e',
      "const s = process.cpuUsage(); while ((process.cpuUsage(s).user + process.cpuUsage(s).system) < 200_000); console.log('spun'); setInterval(() => {}, 1000);",
    ]);
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(chunk.toString()).toContain('spun');
    const before = cpuSnapshot([process.pid, child.pid!]);
    expect(before.perProcess.get(child.pid!)).toBeGreaterThanOrEqual(150);

    let spent = 0;
    for (let i = 0; i < 2_000_000; i++) spent += Math.sqrt(i);
    expect(spent).toBeGreaterThan(0);
    const running = cpuSnapshot([process.pid, child.pid!]);
    expect(watchedDeltaMs(before, running)).toBeGreaterThanOrEqual(0);

    child.kill();
    await once(child, 'exit');
    const after = cpuSnapshot([process.pid, child.pid!]);
    expect(after.perProcess.has(child.pid!)).toBe(false);
    const delta = watchedDeltaMs(before, after);
    expect(delta).toBeGreaterThanOrEqual(0);
    expect(delta).toBeLessThan(before.perProcess.get(child.pid!)!);
  });
});
