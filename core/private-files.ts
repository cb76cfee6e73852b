import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

// What Packline writes to disk (the SQLite database and its -wal/-shm companions, generated
// keys and tokens) is for the service's own user only: directories it creates are 0700, files 0600.

/**
 * Creates `dir` (and missing parents) readable by the owner only. A directory that already
 * existed keeps its mode: the operator chose it, and it may be shared (/tmp, a volume).
 */
export function privateDirectory(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The mode passes through the umask; say it again for the directory asked for.
  if (created !== undefined) chmodSync(dir, 0o700);
}

/** Creates `path` empty if missing, then makes it readable and writable by the owner only. */
export function privateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/** The files among `paths` that exist become owner-only (SQLite's -wal and -shm once created). */
export function restrictExisting(paths: readonly string[]): void {
  for (const path of paths) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** The SQLite database and the companions SQLite creates beside it. */
export const sqliteFiles = (dbName: string) => [dbName, `${dbName}-wal`, `${dbName}-shm`, `${dbName}-journal`];
