// Keyset pages of the services' lists: the page size's bounds and the signed cursor of each item.
import type { CursorCodec } from '../cursor.ts';
import { invalidInput } from '../errors.ts';

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

/**
 * A page from `first + 1` rows fetched in keyset order: the extra row only tells that more
 * follow. `position` gives a row's keyset position; cursors are signed for `list`.
 */
export function keysetPage<Row extends { id: string }, View extends { id: string }>(
  cursors: CursorCodec,
  list: string,
  rows: Row[],
  first: number,
  view: (row: Row) => View,
  position: (row: Row) => number,
): Page<View> {
  const kept = rows.slice(0, first);
  const at = new Map(kept.map((row) => [row.id, position(row)]));
  const cursorFor = (item: View) => cursors.encode(list, { at: at.get(item.id) ?? 0, id: item.id });
  const items = kept.map(view);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > first && last ? cursorFor(last) : null, cursorFor };
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
