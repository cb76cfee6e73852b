import { LockMode } from '@mikro-orm/core';
import type { CursorCodec } from '../cursor.ts';
import type { SecretBox } from '../secret-box.ts';
import type { UrlPolicy } from '../webhooks/url-policy.ts';
import type { DatabaseKind } from '../db/orm.ts';
import type { Links } from '../links.ts';
import type { ChangeFeed } from '../components/change-feed.ts';
import type { PublicReads } from '../components/public-reads.ts';

/** What every domain service needs besides its EntityManager; one instance per process. */
export interface ServiceDeps {
  links: Links;
  cursors: CursorCodec;
  feed: ChangeFeed;
  /** The public read path: prepared statements, no entities. */
  reads: PublicReads;
  /** Row lock for read-modify-write (PostgreSQL); SQLite serializes writers itself. */
  forUpdate: { lockMode?: LockMode.PESSIMISTIC_WRITE };
  webhooks: { box: SecretBox; policy: UrlPolicy };
}

export const lockOptions = (kind: DatabaseKind): ServiceDeps['forUpdate'] =>
  kind === 'postgresql' ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {};
