/**
 * Maps a live source iterator to subscription values. Unlike an async generator, `return()`
 * reaches the source at once even while a `next()` is pending, so a client that unsubscribes
 * releases its bounded queue immediately.
 */
export class LiveIterator<S, T> implements AsyncIterableIterator<T> {
  private ready: T[] = [];

  constructor(
    private readonly source: AsyncIterator<S>,
    /** Values to emit for one source value (none to skip it); throwing ends the subscription with that error. */
    private readonly transform: (value: S) => Promise<readonly T[]> | readonly T[],
  ) {}

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      const value = this.ready.shift();
      if (value !== undefined) {
        return { value, done: false };
      }
      const result = await this.source.next();
      if (result.done) {
        return { value: undefined, done: true };
      }
      try {
        this.ready = [...(await this.transform(result.value))];
      } catch (error) {
        await this.source.return?.();
        throw error;
      }
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.ready = [];
    await this.source.return?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
