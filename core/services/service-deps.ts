import { LockMode } from '@mikro-orm/core';
import type { CursorCodec } from '../cursor.ts';
import type { DatabaseKind } from '../db/orm.ts';
import { invalidInput } from '../errors.ts';
import type { Links } from '../visibility.ts';
import type { ChangeFeed } from './change-feed.ts';

/** What every domain service needs besides its EntityManager; one instance per process. */
export interface ServiceDeps {
  links: Links;
  cursors: CursorCodec;
  feed: ChangeFeed;
  /** Row lock for read-modify-write (PostgreSQL); SQLite serializes writers itself. */
  forUpdate: { lockMode?: LockMode.PESSIMISTIC_WRITE };
}

export const lockOptions = (kind: DatabaseKind): ServiceDeps['forUpdate'] =>
  kind === 'postgresql' ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {};

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export interface Page<T> {
  items: T[];
  /** Cursor of the next page; null on the last page. */
  nextCursor: string | null;
  cursorFor(item: T): string;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

export function pageArgs(args: PageArgs): { first: number; after: string | undefined } {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw invalidInput('first', `first must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return { first, after: args.after ?? undefined };
}
