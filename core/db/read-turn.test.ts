import { expect, it } from 'vitest';
import { ReadTurn } from './read-turn.ts';

/**
 * Runs `first` and `second` as two callbacks of one phase of the event loop (two immediates queued
 * together: a task they schedule runs in the next check phase), and resolves after that one.
 */
function inTwoCallbacks(first: () => void, second: () => void): Promise<void> {
  return new Promise((done) => {
    setImmediate(first);
    setImmediate(() => {
      second();
      setImmediate(() => setImmediate(done));
    });
  });
}

it('runs the tasks of every callback of one turn together, in its check phase, in order', async () => {
  const turn = new ReadTurn();
  const events: string[] = [];
  await inTwoCallbacks(
    () => {
      turn.schedule(() => events.push(`task 1, running ${turn.running}`));
      events.push('callback 1');
    },
    () => {
      turn.schedule(() => events.push(`task 2, running ${turn.running}`));
      events.push('callback 2');
    },
  );
  expect(events).toEqual(['callback 1', 'callback 2', 'task 1, running true', 'task 2, running true']);
  expect(turn.running).toBe(false);
});

it('next() resolves in the check phase, after the tasks scheduled before it; a task scheduled meanwhile waits for the next turn', async () => {
  const turn = new ReadTurn();
  const events: string[] = [];
  turn.schedule(() => {
    events.push('task');
    turn.schedule(() => events.push('later task'));
  });
  const next = turn.next().then(() => events.push('next'));
  setImmediate(() => events.push('immediate scheduled after'));
  await next;
  expect(events).toEqual(['task', 'next']);
  await new Promise((done) => setImmediate(done));
  await new Promise((done) => setImmediate(done));
  expect(events).toEqual(['task', 'next', 'immediate scheduled after', 'later task']);
});
