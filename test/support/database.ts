import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh database for one test file: a new PostgreSQL database on the server of
 * DATABASE_URL when it is set, otherwise nothing (the stack uses SQLite in a temp dir).
 */
export async function freshDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => {} };
  const name = `packline_t_${randomBytes(6).toString('hex')}`;
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
