import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../test/support/database.ts';
import { AssistantClientEntity } from '../entities/index.ts';
import { connectDatabase, databaseKind, type Database, migrate } from './orm.ts';

// The migration that gives registered applications their last use, on the database of this run
// (SQLite, or PostgreSQL with DATABASE_URL): applications members already approved count as used,
// so none of them expires on upgrade; the others start their 30 days from registration.
describe('the last-use migration of registered applications', () => {
  let dir: string;
  let drop: () => Promise<void>;
  let orm: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'packline-migration-'));
    const database = await freshDatabaseUrl();
    drop = database.drop;
    orm = await connectDatabase({ dataDir: dir, databaseUrl: database.url });
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks applications with a grant as used at their latest grant, and leaves the others unused', async () => {
    const postgres = databaseKind({ databaseUrl: process.env.DATABASE_URL }) === 'postgresql';
    await migrate(orm, { to: postgres ? 'Migration20261126141041' : 'Migration20261126141039' });
    const sql = (query: string) => orm.em.getConnection().execute(query, [], 'run');
    // Instants as each database holds them: timestamptz, or milliseconds in SQLite.
    const at = (iso: string) => (postgres ? `'${iso}'` : String(Date.parse(iso)));
    await sql(
      `insert into members (id, email, name, credentials_epoch, created_at) values ('m_1', 'm1@example.org', 'M', 0, ${at('2026-01-01T00:00:00Z')})`,
    );
    await sql(`insert into assistant_clients (id, name, redirect_uris, created_at) values
      ('cli_used', 'Used', '["https://a.example/cb"]', ${at('2026-01-01T00:00:00Z')}),
      ('cli_idle', 'Idle', '["https://b.example/cb"]', ${at('2026-01-02T00:00:00Z')})`);
    await sql(`insert into assistant_grants (id, member_id, client_id, scopes, credentials_epoch, created_at, last_used_at) values
      ('g_1', 'm_1', 'cli_used', '[]', 0, ${at('2026-01-03T00:00:00Z')}, null),
      ('g_2', 'm_1', 'cli_used', '[]', 0, ${at('2026-01-04T00:00:00Z')}, ${at('2026-02-01T00:00:00Z')})`);
    await migrate(orm);

    const clients = await orm.em.fork().find(AssistantClientEntity, {}, { orderBy: { id: 'asc' } });
    expect(clients.map((c) => [c.id, c.lastUsedAt?.toISOString() ?? null])).toEqual([
      ['cli_idle', null],
      ['cli_used', '2026-02-01T00:00:00.000Z'],
    ]);
  });
});
