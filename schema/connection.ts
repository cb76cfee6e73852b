import { invalidInput } from '../core/errors.ts';
import type { Page, PageArgs } from '../core/service-kit/paging.ts';

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

/**
 * A relay connection over a page; edge cursors are signed only when selected. Edges and page info
 * are class instances, their lazy cursors getters on the prototype: object literals with getters
 * would give each request's objects a hidden class of their own, kept (with the page they hold)
 * until a full collection.
 */
export function toConnection<T>(page: Page<T>) {
  const edges = page.items.map((node) => new Edge(page, node));
  return { edges, pageInfo: new PageInfo(page, edges) };
}

class Edge<T> {
  private readonly page: Page<T>;
  readonly node: T;

  constructor(page: Page<T>, node: T) {
    this.page = page;
    this.node = node;
  }

  get cursor(): string {
    return this.page.cursorFor(this.node);
  }
}

class PageInfo<T> {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage = false;

  private readonly page: Page<T>;
  private readonly edges: Edge<T>[];

  constructor(page: Page<T>, edges: Edge<T>[]) {
    this.page = page;
    this.edges = edges;
    this.hasNextPage = page.nextCursor !== null;
  }

  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }

  get endCursor(): string | null {
    return this.page.nextCursor ?? this.edges.at(-1)?.cursor ?? null;
  }
}
