/** A value now, or a promise of it: the hot path answers without a promise when nothing waits. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)`, at once when `value` is at hand, else once it settles. Every promise costs about
 * a microsecond on the API's hot path while async hooks are on (MikroORM's AsyncLocalStorage).
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
