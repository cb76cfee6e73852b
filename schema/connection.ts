import { invalidInput } from '../core/errors.ts';
import type { Page, PageArgs } from '../core/services/service-deps.ts';

interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Lists page forward only (keyset); `last`/`before` are refused with a clear message. */
export function forwardArgs(args: ConnectionArgs): PageArgs {
  if (args.last != null || args.before != null) throw invalidInput('last', 'Lists page forward only: use first and after');
  return { first: args.first, after: args.after };
}

/** A relay connection over a page; edge cursors are signed only when selected. */
export function toConnection<T>(page: Page<T>) {
  const edges = page.items.map((node) => ({
    node,
    get cursor() {
      return page.cursorFor(node);
    },
  }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: false,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return page.nextCursor ?? edges.at(-1)?.cursor ?? null;
      },
    },
  };
}
