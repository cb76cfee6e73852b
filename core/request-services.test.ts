import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabaseUrl } from '../test/support/database.ts';
import { INTERNAL, openCore, type Core } from './index.ts';

describe('RequestServices', () => {
  let core: Core;
  let dir: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-services-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    core = await openCore({
      dataDir: dir,
      databaseUrl: database.url,
      publicBaseUrl: 'https://packline.test',
      dataEncryptionKey: randomBytes(32).toString('base64'),
    });
  });
  afterAll(async () => {
    await core.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
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
