import type { EntityManager } from '@mikro-orm/core';

/**
 * Runs `work` in a database transaction on a fork of `em`, flushing and committing at the end,
 * rolling back on any error. Unlike `em.transactional()` it uses explicit begin/commit rather
 * than an AsyncLocalStorage context: once any AsyncLocalStorage runs, Node keeps async hooks on
 * every promise and socket of the process, which cost the read path a measurable share.
 */
export async function inTransaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  const tx = em.fork();
  await tx.begin();
  try {
    const result = await work(tx);
    await tx.commit();
    return result;
  } catch (error) {
    await tx.rollback();
    throw error;
  }
}
