import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';
import { bulkSeed } from '../demo/bulk-seed.ts';
import { PublicReads } from './public-reads.ts';
import { STATEMENTS } from './public-statements.ts';

// The public read path gathers its reads per turn of the event loop (core/db/read-turn.ts): the
// requests parsed in one poll phase read together, in its check phase.
let opened: TestCore;
let ids: string[];
beforeAll(async () => {
  opened = await openTestCore('public-reads');
  await bulkSeed(opened.core, opened.core.statements.kind, { needs: 12, events: 0, seed: 3 });
  ids = (await opened.core.statements.all(STATEMENTS.needsFirst, { limit: 12 })).map((row) => row.id);
});
afterAll(async () => {
  await opened.close();
});

const reads = () => new PublicReads(opened.core.statements, { publicBaseUrl: 'https://packline.test' });

/**
 * Runs `first` and `second` as two callbacks of one phase of the event loop (two immediates queued
 * together), as two requests read from two sockets in one poll phase, and waits for what they return.
 */
function inTwoCallbacks<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  return new Promise((done, fail) => {
    let a: Promise<A>;
    setImmediate(() => {
      a = first();
    });
    setImmediate(() => {
      Promise.all([a, second()]).then(done, fail);
    });
  });
}

it('reads by id asked in different callbacks of one turn go out as one statement', async () => {
  const public_ = reads();
  const { statements } = opened.core;
  const original = statements.all;
  // Whether each statement was asked for from the turn's own tasks, so that it runs at once, in
  // this turn, rather than waiting for the next one.
  const inTurn: boolean[] = [];
  const all = vi.spyOn(statements, 'all').mockImplementation((statement, params) => {
    inTurn.push(statements.turn.running);
    return original.call(statements, statement, params);
  });
  try {
    const [a, b] = await inTwoCallbacks(
      () => public_.need(ids[0]!),
      () => public_.need(ids[1]!),
    );
    expect([a?.id, b?.id]).toEqual([ids[0], ids[1]]);
    const byId = all.mock.calls.filter(([statement]) => statement === STATEMENTS.needsById);
    expect(byId.map(([, params]) => params)).toEqual([{ ids: [ids[0], ids[1]] }]);
    expect(inTurn).toEqual([true]);
  } finally {
    all.mockRestore();
  }
});

it('a list read asked in one callback of a turn answers after the turn’s other callbacks ran', async () => {
  const public_ = reads();
  const events: string[] = [];
  const [page] = await inTwoCallbacks(
    async () => {
      const page = await public_.needPage(5, undefined);
      events.push('page');
      return page;
    },
    async () => {
      events.push('second callback');
    },
  );
  expect(events).toEqual(['second callback', 'page']);
  expect(page.views.map((view) => view.id)).toEqual(ids.slice(0, 6));
});
