// The consumer's local mirror: which signal does what, the SQLite schema and its statements.
import type Database from 'libsql';
import type { WebhookEnvelope } from '../../consumer-kit/index.ts';

export type Db = InstanceType<typeof Database>;

export type Kind = 'opportunity' | 'event';
export const MIRROR: Record<Kind, { table: 'opportunities' | 'events'; path: 'opportunities' | 'events' }> = {
  opportunity: { table: 'opportunities', path: 'opportunities' },
  event: { table: 'events', path: 'events' },
};

/** Which local effect each signal kind has. Unknown kinds are recorded and otherwise ignored. */
const EFFECTS: Record<string, { kind: Kind; action: 'upsert' | 'delete' } | undefined> = {
  'need.created': { kind: 'opportunity', action: 'upsert' },
  'need.updated': { kind: 'opportunity', action: 'upsert' },
  'need.withdrawn': { kind: 'opportunity', action: 'delete' },
  'event.created': { kind: 'event', action: 'upsert' },
  'event.updated': { kind: 'event', action: 'upsert' },
  'event.cancelled': { kind: 'event', action: 'delete' },
};

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS processed_events (
  event_id    TEXT PRIMARY KEY,
  type        TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS opportunities (
  id              TEXT PRIMARY KEY,
  title           TEXT,
  url             TEXT,
  data            TEXT,              -- last representation read from GET /opportunities/{id}
  pending_refresh INTEGER NOT NULL DEFAULT 1,
  generation      INTEGER NOT NULL DEFAULT 1, -- bumped by each signal; guards stale re-reads
  last_event_id   TEXT,
  refreshed_at    TEXT
);
CREATE TABLE IF NOT EXISTS events (
  id              TEXT PRIMARY KEY,
  title           TEXT,
  url             TEXT,
  data            TEXT,              -- last representation read from GET /events/{id}
  pending_refresh INTEGER NOT NULL DEFAULT 1,
  generation      INTEGER NOT NULL DEFAULT 1,
  last_event_id   TEXT,
  refreshed_at    TEXT
);
`;

export type Effect = { kind: Kind; action: 'upsert' | 'delete'; id: string };

/** The local effect of a signal: undefined for kinds this example does not mirror, null for bad data. */
export function effectOf(envelope: WebhookEnvelope): Effect | undefined | null {
  const effect = EFFECTS[envelope.type];
  if (!effect) return undefined;
  const id = envelope.data.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 120) return null;
  return { ...effect, id };
}

export function upsertStatement(db: Db, table: 'opportunities' | 'events') {
  return db.prepare(
    `INSERT INTO ${table} (id, pending_refresh, generation, last_event_id) VALUES (?, 1, 1, ?)
     ON CONFLICT (id) DO UPDATE SET pending_refresh = 1, generation = generation + 1, last_event_id = excluded.last_event_id`,
  );
}

/** Stores a re-read only if no newer signal arrived since it started (same generation). */
export function storeStatement(db: Db, table: 'opportunities' | 'events') {
  return db.prepare(
    `UPDATE ${table} SET title = ?, url = ?, data = ?, refreshed_at = ?, pending_refresh = 0 WHERE id = ? AND generation = ?`,
  );
}
