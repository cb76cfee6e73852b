import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferenceKind } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database, databaseKind, migrate } from '../../core/db/orm.ts';
import { createMigration } from '../../scripts/create-migration.ts';
import { freshDatabaseUrl } from '../support/database.ts';

// No drift between the entities and the migrations, on the database of this run (SQLite, or
// PostgreSQL with DATABASE_URL): a database built by the migrations alone is the one the entities
// describe, so MikroORM's schema generator has nothing to change and `npm run migration:create`
// writes nothing.
describe('the migrations and the entities', () => {
  let dir: string;
  let drop: () => Promise<void>;
  let orm: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-schema-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    orm = await connectDatabase({ dataDir: dir, databaseUrl: database.url });
    await migrate(orm);
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('agree: the schema generator finds nothing to change on a freshly migrated database', async () => {
    // Tables, columns, types, defaults, checks, indexes and foreign keys with their rules.
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
  });

  it('agree: the migration generator writes no migration', async () => {
    const out = mkdtempSync(join(dir, 'generated-'));
    const base = process.env.DATABASE_URL;
    const adminUrl = base ? Object.assign(new URL(base), { pathname: '/postgres' }).toString() : 'postgres://unused';
    expect(await createMigration(databaseKind({ databaseUrl: base }), { adminUrl, dir: out })).toBeUndefined();
    expect(readdirSync(out)).toEqual([]);
  });

  it('every relation states what deleting its target does', () => {
    // Discovery fills the rule in only for nullable relations ('set null') and foreign keys that
    // are the whole primary key ('cascade'); any other relation without one is missing its intent.
    const entities = [...orm.getMetadata().getAll().values()];
    const silent = entities.flatMap((meta) =>
      meta.relations
        .filter((prop) => prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner))
        .filter((prop) => prop.deleteRule === undefined)
        .map((prop) => `${meta.className}.${prop.name}`),
    );
    expect(silent).toEqual([]);
    expect(entities.filter((meta) => meta.relations.length > 0).length).toBeGreaterThan(20);
  });
});
