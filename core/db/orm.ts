import { MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { join } from 'node:path';
import { ENTITIES } from '../entities/index.ts';
import { POSTGRESQL_MIGRATIONS } from './migrations/postgresql/index.ts';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/index.ts';
import { SqliteDriver } from './sqlite-driver.ts';
import { SQLITE_CONNECTION_PRAGMAS } from './sqlite-pragmas.ts';
import { privateDirectory, privateFile, restrictExisting, sqliteFiles } from '../private-files.ts';
import { sqlAttributes, tracingOn, withSpan } from '../telemetry.ts';

export type Database = MikroORM;
export type DatabaseKind = 'sqlite' | 'postgresql';

export interface DatabaseOptions {
  /** PostgreSQL URL; SQLite at `sqlitePath` when absent. */
  databaseUrl?: string | undefined;
  /** @default '<dataDir>/packline.sqlite' */
  sqlitePath?: string;
  dataDir: string;
  /** Where generated migrations are written (scripts only). */
  migrationsPath?: string;
  /** Receives the ORM's own messages (applied migrations). Silent by default. */
  log?: (message: string) => void;
}

export const databaseKind = (options: Pick<DatabaseOptions, 'databaseUrl'>): DatabaseKind =>
  options.databaseUrl ? 'postgresql' : 'sqlite';

export function ormOptions(options: DatabaseOptions): Options {
  const kind = databaseKind(options);
  const migrations = {
    tableName: 'packline_migrations',
    transactional: true,
    allOrNothing: true,
    snapshot: false,
    emit: 'ts' as const,
    ...(options.migrationsPath
      ? { path: options.migrationsPath, pathTs: options.migrationsPath, glob: 'Migration*.ts' }
      : { migrationsList: kind === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRESQL_MIGRATIONS }),
  };
  const common = {
    entities: ENTITIES,
    extensions: [Migrator],
    migrations,
    discovery: { warnWhenNoEntities: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    logger: options.log ?? (() => {}),
  } satisfies Options;

  if (kind === 'postgresql') {
    return { ...common, driver: PostgreSqlDriver, clientUrl: options.databaseUrl, pool: { min: 1, max: 10 } };
  }
  const dbName = options.sqlitePath ?? join(options.dataDir, 'packline.sqlite');
  privateDirectory(options.dataDir);
  const onDisk = dbName !== ':memory:' && !dbName.startsWith('file:');
  // Created 0600 before SQLite opens it: SQLite gives -wal and -shm the database file's mode.
  if (onDisk) privateFile(dbName);
  return {
    ...common,
    driver: SqliteDriver,
    dbName,
    pool: {
      min: 1,
      max: 1,
      // WAL lets the CLI write while the server reads; busy_timeout makes a second writer wait for the
      // lock that SqliteDriver's transactions take at BEGIN IMMEDIATE.
      afterCreate: (conn: { exec(sql: string): void }, done: (err: Error | null, conn: unknown) => void) => {
        try {
          conn.exec(`pragma journal_mode = wal; pragma busy_timeout = 10000; ${SQLITE_CONNECTION_PRAGMAS}`);
          if (onDisk) restrictExisting(sqliteFiles(dbName));
          done(null, conn);
        } catch (error) {
          done(error as Error, conn);
        }
      },
    },
  };
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const orm = await MikroORM.init(ormOptions(options));
  await underStartupLock(orm, () => orm.getMigrator().up());
  if (tracingOn) traceOrmQueries(orm, databaseKind(options));
  return orm;
}

/**
 * A span per statement the ORM runs. Every ORM query goes through its connection's
 * `executeQuery(sql, run, context)`, whose `context.query` is the statement with its placeholders
 * (the first argument may have the parameters written in, so it is never recorded).
 */
function traceOrmQueries(orm: Database, kind: DatabaseKind): void {
  type Run = (sql: string, run: () => Promise<unknown>, context?: { query?: string }) => Promise<unknown>;
  const connection = orm.em.getConnection() as unknown as { executeQuery: Run };
  const executeQuery = connection.executeQuery.bind(connection);
  connection.executeQuery = (sql, run, context) =>
    withSpan('SQL', context?.query === undefined ? { 'db.system': kind } : sqlAttributes(kind, context.query), () =>
      executeQuery(sql, run, context),
    );
}

/** Any fixed number: the key of the advisory lock instances take while they migrate and seed. */
const STARTUP_LOCK = 7_316_022;

/**
 * Runs `work` holding PostgreSQL's start-up advisory lock, so that instances starting together
 * migrate and load the demo data one after another rather than racing to create the same tables
 * and rows. The lock is held on one pooled connection and released with it. SQLite needs nothing:
 * its single writer already serialises these steps within one process.
 */
export async function underStartupLock<T>(orm: Database, work: () => Promise<T>): Promise<T> {
  if (orm.config.get('driver') !== PostgreSqlDriver) return work();
  const knex = (orm.em as unknown as { getKnex(): { client: PooledClient } }).getKnex();
  const connection = await knex.client.acquireConnection();
  try {
    await connection.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    try {
      return await work();
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

interface PooledClient {
  acquireConnection(): Promise<{ query(sql: string, values: unknown[]): Promise<unknown> }>;
  releaseConnection(connection: unknown): Promise<void>;
}

/** Applies pending migrations; returns the names of those applied now and of all applied. */
export async function migrateDatabase(options: DatabaseOptions): Promise<{ applied: string[]; total: number }> {
  const orm = await MikroORM.init(ormOptions(options));
  try {
    const applied = await underStartupLock(orm, () => orm.getMigrator().up());
    const executed = await orm.getMigrator().getExecutedMigrations();
    return { applied: applied.map((m) => m.name), total: executed.length };
  } finally {
    await orm.close(true);
  }
}
