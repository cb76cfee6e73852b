import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestCore, type TestCore } from '../test/support/test-core.ts';
import { INTERNAL, type Core } from './index.ts';

describe('RequestServices', () => {
  let core: Core;
  let opened: TestCore;
  beforeAll(async () => {
    opened = await openTestCore('services');
    core = opened.core;
  });
  afterAll(async () => {
    await opened.close();
  });

  it('forks nothing for a public read, and builds each service once per request', async () => {
    const fork = vi.spyOn(core.db.em, 'fork');
    try {
      const services = core.services();
      const needs = services.needs;
      expect(services.needs).toBe(needs);
      const page = await needs.listPublic(INTERNAL, { first: 5 });
      expect(page.items).toEqual([]);
      expect(fork).not.toHaveBeenCalled();
    } finally {
      fork.mockRestore();
    }
  });

  it("shares one EntityManager fork among a request's services, and gives each request its own", async () => {
    const fork = vi.spyOn(core.db.em, 'fork');
    try {
      const first = core.services();
      expect(first.apiKeys).toBeDefined();
      expect(first.members).toBeDefined();
      expect(fork).toHaveBeenCalledTimes(1);
      const second = core.services();
      expect(second.apiKeys).toBeDefined();
      expect(fork).toHaveBeenCalledTimes(2);
      expect(fork.mock.results[0]!.value).not.toBe(fork.mock.results[1]!.value);
    } finally {
      fork.mockRestore();
    }
  });

  it("builds every request's services from one class, each service on first read and then kept", () => {
    const services = core.services();
    expect(Object.getPrototypeOf(services)).toBe(Object.getPrototypeOf(core.services()));
    expect(Object.getOwnPropertyNames(services).sort()).toEqual(Object.getOwnPropertyNames(core.services()).sort());
    expect(services.directory).toBe(services.directory);
    expect(services.assistant).toBe(services.assistant);
  });
});
