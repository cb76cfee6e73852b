// The base of the services a public read builds: their EntityManager is forked on first use, so
// a read that goes through the public read path (`deps.reads`) forks nothing.
import type { EntityManager } from '@mikro-orm/sql';
import type { ServiceDeps } from './service-deps.ts';

/** The EntityManager itself, or how to fork one when a write or an internal read first needs it. */
export type EntityManagerSource = EntityManager | (() => EntityManager);

export abstract class LazyEmService {
  protected readonly deps: ServiceDeps;
  private readonly lazyEm: () => EntityManager;

  constructor(em: EntityManagerSource, deps: ServiceDeps) {
    this.deps = deps;
    this.lazyEm = typeof em === 'function' ? em : () => em;
  }

  protected get em(): EntityManager {
    return this.lazyEm();
  }
}
