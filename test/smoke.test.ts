import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support/stack.ts';

describe('the service as started', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('answers the demo key with a page of opportunities', async () => {
    const res = await stack.get('/opportunities?limit=3');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[]; meta: { next_cursor: string | null } };
    expect(body.data).toHaveLength(3);
    expect(body.meta.next_cursor).toEqual(expect.any(String));
  });

  it('is healthy', async () => {
    const res = await fetch(`${stack.origin}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
