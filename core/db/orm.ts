import { type MigrationInfo, MikroORM, type Options } from '@mikro-orm/core';
import { type AbstractSqlDriver, type EntityManager, SqliteDriver } from '@mikro-orm/sql';
import { join } from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { ENTITIES } from '../entities/index.ts';
import { LibsqlDialect, type SqliteHandle } from './sqlite-dialect.ts';
import { privateDirectory, privateFile, restrictExisting, sqliteFiles } from '../private-files.ts';
import { sqlAttributes, tracingOn, withSpan } from '../telemetry.ts';

export type Database = MikroORM<AbstractSqlDriver, EntityManager>;
type SqlOptions = Partial<Options<AbstractSqlDriver, EntityManager>>;
export type DatabaseKind = 'sqlite' | 'postgresql';

/**
 * PostgreSQL's driver options: they receive the pool MikroORM creates for its Kysely dialect, so
 * the query layer's named statements and the start-up lock use the ORM's own connections.
 */
export class PostgresPoolOptions {
  pool: Pool | undefined;
  readonly onPoolCreated = (pool: Pool): void => {
    this.pool = pool;
  };
}

/** The SQLite connection behind `orm`; undefined on PostgreSQL or before it connects. */
export function sqliteHandle(orm: Database): SqliteHandle | undefined {
  const options = orm.config.get('driverOptions');
  return options instanceof LibsqlDialect ? options.handle : undefined;
}

/** The PostgreSQL pool behind `orm`; undefined on SQLite or before it connects. */
export function postgresPool(orm: Database): Pool | undefined {
  const options = orm.config.get('driverOptions');
  return options instanceof PostgresPoolOptions ? options.pool : undefined;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; SQLite at `sqlitePath` when absent. */
  databaseUrl?: string | undefined;
  /** @default '<dataDir>/packline.sqlite' */
  sqlitePath?: string;
  dataDir: string;
  /** Where generated migrations are written (scripts only). */
  migrationsPath?: string;
  /** Whether the migrator is loaded: not where nothing migrates (the dispatcher's SQLite thread). @default true */
  migrator?: boolean;
  /** Receives the ORM's own messages (applied migrations). Silent by default. */
  log?: (message: string) => void;
}

export const databaseKind = (options: Pick<DatabaseOptions, 'databaseUrl'>): DatabaseKind =>
  options.databaseUrl ? 'postgresql' : 'sqlite';

/**
 * MikroORM's options for the database of `options`. The PostgreSQL driver and the migrator are
 * loaded here, when asked for: a CLI command on SQLite loads neither the pg driver nor umzug's
 * successor until it needs them.
 */
export async function ormOptions(options: DatabaseOptions): Promise<SqlOptions> {
  const extensions = options.migrator === false ? [] : [(await import('@mikro-orm/migrations')).Migrator];
  const kind = databaseKind(options);
  const migrations = {
    tableName: 'packline_migrations',
    transactional: true,
    allOrNothing: true,
    snapshot: false,
    emit: 'ts' as const,
    ...(options.migrationsPath
      ? { path: options.migrationsPath, pathTs: options.migrationsPath, glob: 'Migration*.ts' }
      : { migrationsList: options.migrator === false ? [] : await migrationsOf(kind) }),
  };
  const common = {
    entities: ENTITIES,
    extensions,
    migrations,
    discovery: { warnWhenNoEntities: true },
    // Every foreign key since the first migration says ON UPDATE CASCADE (MikroORM 6's default;
    // 7 leaves it out). Ids never change, so it is kept rather than rebuilding every table.
    schemaGenerator: { defaultUpdateRule: 'cascade' as const },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    logger: options.log ?? (() => {}),
  } satisfies SqlOptions;

  if (kind === 'postgresql') {
    const { PostgreSqlDriver } = await import('@mikro-orm/postgresql');
    return {
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: options.databaseUrl,
      pool: { min: 1, max: 10 },
      driverOptions: new PostgresPoolOptions(),
    };
  }
  const dbName = options.sqlitePath ?? join(options.dataDir, 'packline.sqlite');
  privateDirectory(options.dataDir);
  const onDisk = dbName !== ':memory:' && !dbName.startsWith('file:');
  // Created 0600 before SQLite opens it: SQLite gives -wal and -shm the database file's mode.
  if (onDisk) privateFile(dbName);
  // WAL lets the CLI write while the server reads; busy_timeout makes a second writer wait for the
  // lock that the dialect's transactions take at BEGIN IMMEDIATE.
  const dialect = new LibsqlDialect({ path: dbName, onOpen: onDisk ? () => restrictExisting(sqliteFiles(dbName)) : undefined });
  return { ...common, driver: SqliteDriver, dbName, driverOptions: dialect };
}

/** The migrations of one database, loaded only for it. */
async function migrationsOf(kind: DatabaseKind) {
  return kind === 'sqlite'
    ? (await import('./migrations/sqlite/index.ts')).SQLITE_MIGRATIONS
    : (await import('./migrations/postgresql/index.ts')).POSTGRESQL_MIGRATIONS;
}

/** Connects to the database as it is, migrating nothing (migration tests and scripts). */
export async function connectDatabase(options: DatabaseOptions): Promise<Database> {
  return MikroORM.init<AbstractSqlDriver, EntityManager>(await ormOptions(options));
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const orm = await connectDatabase(options);
  await underStartupLock(orm, () => migrate(orm));
  if (tracingOn) traceOrmQueries(orm, databaseKind(options));
  return orm;
}

/**
 * Applies the pending migrations (up to and including `to`, when given) in one transaction. On
 * SQLite, foreign keys are off while it runs and `pragma foreign_key_check` must find nothing
 * before it commits: SQLite's own procedure for rebuilding a table, the only way it changes a
 * foreign key. With them on, dropping a table deletes its rows first, and that runs its children's
 * ON DELETE actions (a cascade would empty them); and the pragma does nothing inside a transaction,
 * so a migration cannot turn them off itself.
 */
export async function migrate(orm: Database, options: { to?: string } = {}): Promise<MigrationInfo[]> {
  if (!(orm.config.get('driverOptions') instanceof LibsqlDialect)) return orm.migrator.up(options);
  // Also creates the migrations table, which must happen before the transaction below holds the
  // process's one SQLite connection.
  if ((await orm.migrator.getPending()).length === 0) return [];
  const connection = orm.em.getConnection();
  await connection.execute('pragma foreign_keys = off', [], 'run');
  try {
    return await connection.transactional(async (transaction) => {
      const applied = await orm.migrator.up({ ...options, transaction });
      const broken = await connection.execute<{ table: string; parent: string }[]>('pragma foreign_key_check', [], 'all', transaction);
      if (broken.length > 0) {
        const pairs = [...new Set(broken.map((row) => `${row.table} → ${row.parent}`))].join(', ');
        throw new Error(`The migrations leave rows without the row they refer to (${pairs}); nothing was applied`);
      }
      return applied;
    });
  } finally {
    await connection.execute('pragma foreign_keys = on', [], 'run');
  }
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
  if (!(orm.config.get('driverOptions') instanceof PostgresPoolOptions)) return work();
  await orm.em.getConnection().ensureConnection();
  const pool = postgresPool(orm);
  if (!pool) throw new Error('The PostgreSQL pool is not open');
  const connection: PoolClient = await pool.connect();
  try {
    await connection.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    try {
      return await work();
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
    }
  } finally {
    connection.release();
  }
}

/** Applies pending migrations; returns the names of those applied now and of all applied. */
export async function migrateDatabase(options: DatabaseOptions): Promise<{ applied: string[]; total: number }> {
  const orm = await connectDatabase(options);
  try {
    const applied = await underStartupLock(orm, () => migrate(orm));
    const executed = await orm.migrator.getExecuted();
    return { applied: applied.map((m) => m.name), total: executed.length };
  } finally {
    await orm.close(true);
  }
}
