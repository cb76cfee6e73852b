import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './orm.ts';

// The server holds the database open; a second process (as the CLI does) writes to the same file.
describe('SQLite transactions against a second writing process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packline-sqlite-'));
  let server: Database;

  /** One write from another process, with busy_timeout 0 so a held lock fails it at once. */
  const writeFromOtherProcess = () => {
    const script = `
      const Database = require('libsql');
      const db = new Database(process.argv[1]);
      db.exec('pragma busy_timeout = 0');
      try { db.prepare('update change_epoch set value = value + 1 where id = 1').run(); console.log('written'); }
      catch (error) { console.log(error.message); }
      db.close();`;
    return spawnSync(process.execPath, ['-e', script, join(dataDir, 'packline.sqlite')], { encoding: 'utf8' }).stdout.trim();
  };
  const epoch = async () =>
    (await server.em.getConnection().execute<{ value: number }[]>('select value from change_epoch where id = 1'))[0]!.value;

  beforeAll(async () => {
    server = await openDatabase({ dataDir });
    await server.em.getConnection().execute('insert into change_epoch (id, value) values (1, 0)');
  });

  afterAll(async () => {
    await server.close(true);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds the write lock from BEGIN, so a transaction that reads first can still write', async () => {
    await server.em.fork().transactional(async (em) => {
      const ctx = em.getTransactionContext();
      await em.getConnection().execute('select value from change_epoch where id = 1', [], 'all', ctx);
      // Under a deferred BEGIN this write would land, and the update below would fail "database is locked".
      expect(writeFromOtherProcess()).toMatch(/locked|busy/i);
      await em.getConnection().execute('update change_epoch set value = value + 1 where id = 1', [], 'run', ctx);
    });
    expect(await epoch()).toBe(1);
    expect(writeFromOtherProcess()).toBe('written');
    expect(await epoch()).toBe(2);
  });

  it("rejects with the lock's own error when BEGIN cannot take the lock, and runs none of the work", async () => {
    // Another process holds the write lock until its stdin closes.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `
      const Database = require('libsql');
      const db = new Database(process.argv[1]);
      db.exec('begin immediate');
      console.log('holding');
      process.stdin.resume();
      process.stdin.on('end', () => { db.exec('rollback'); db.close(); });`,
        join(dataDir, 'packline.sqlite'),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await once(holder.stdout, 'data');
    const connection = server.em.getConnection();
    await connection.execute('pragma busy_timeout = 0');
    let ran = false;
    try {
      await expect(
        server.em.fork().transactional(async () => {
          ran = true;
        }),
      ).rejects.toThrow(/locked|busy/i);
      expect(ran).toBe(false);
    } finally {
      await connection.execute('pragma busy_timeout = 10000');
      holder.stdin.end();
      await once(holder, 'exit');
    }
    expect(writeFromOtherProcess()).toBe('written');
  });
});
