// A core over a database of its own for one test file: a temporary data directory, a fresh
// database (SQLite, or PostgreSQL when DATABASE_URL is set), and one call that undoes all three.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCore, type Core, type CoreOptions } from '../../core/index.ts';
import { freshDatabaseUrl } from './database.ts';

export interface TestCore {
  core: Core;
  /** The database's URL (PostgreSQL), undefined on SQLite. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Closes the core, drops its database and removes its data directory. */
  close(): Promise<void>;
}

/** Opens a core with the test defaults (`https://packline.test`, a random data key) and `options` over them. */
export async function openTestCore(name: string, options: Partial<CoreOptions> = {}): Promise<TestCore> {
  const dir = mkdtempSync(join(tmpdir(), `packline-${name}-`));
  const database = await freshDatabaseUrl();
  const core = await openCore({
    dataDir: dir,
    databaseUrl: database.url,
    publicBaseUrl: 'https://packline.test',
    dataEncryptionKey: randomBytes(32).toString('base64'),
    ...options,
  });
  return {
    core,
    databaseUrl: 'databaseUrl' in options ? options.databaseUrl : database.url,
    dataDir: dir,
    close: async () => {
      await core.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
