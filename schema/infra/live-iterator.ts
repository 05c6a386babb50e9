/**
 * Maps a live source iterator to subscription values. Unlike an async generator, `return()`
 * reaches the source at once even while a `next()` is pending, so a client that unsubscribes
 * releases its bounded queue immediately.
 */

/**
 * Re-checks a subscription's access when the access policies change (a reconfiguration), even
 * while no event arrives: `check` throwing ends the subscription with that error.
 */
export interface AccessRecheck {
  /** Resolves at the next policy change. */
  changed(): Promise<void>;
  check(): void;
}

const CHANGED = Symbol('policies changed');

export class LiveIterator<S, T> implements AsyncIterableIterator<T> {
  private ready: T[] = [];
  /** The source's `next()` in flight, kept across policy re-checks. */
  private pending: Promise<IteratorResult<S>> | null = null;

  constructor(
    private readonly source: AsyncIterator<S>,
    /** Values to emit for one source value (none to skip it); throwing ends the subscription with that error. */
    private readonly transform: (value: S) => Promise<readonly T[]> | readonly T[],
    private readonly recheck?: AccessRecheck,
  ) {}

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      const value = this.ready.shift();
      if (value !== undefined) {
        return { value, done: false };
      }
      this.pending ??= this.source.next();
      const result =
        this.recheck === undefined
          ? await this.pending
          : await Promise.race([this.pending, this.recheck.changed().then((): typeof CHANGED => CHANGED)]);
      try {
        if (result === CHANGED) {
          this.recheck?.check();
          continue;
        }
        this.pending = null;
        if (result.done) {
          return { value: undefined, done: true };
        }
        this.ready = [...(await this.transform(result.value))];
      } catch (error) {
        this.pending = null;
        await this.source.return?.();
        throw error;
      }
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.ready = [];
    this.pending = null;
    await this.source.return?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
