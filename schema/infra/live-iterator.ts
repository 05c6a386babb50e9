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
  /** A policy change happened and was not checked yet. */
  private policiesChanged = false;
  /** Waiting for the policy change signal (one wait per subscription, renewed after each change). */
  private watching = false;
  /** Wakes a `next()` waiting for the source when the policies change. */
  private wake: (() => void) | null = null;

  constructor(
    private readonly source: AsyncIterator<S>,
    /** Values to emit for one source value (none to skip it); throwing ends the subscription with that error. */
    private readonly transform: (value: S) => Promise<readonly T[]> | readonly T[],
    private readonly recheck?: AccessRecheck,
  ) {}

  /**
   * Listen for the next policy change once; not per event: a reaction added to the signal's
   * promise for every event would pile up until the next reconfiguration.
   */
  private watchPolicies(): void {
    if (this.recheck === undefined || this.watching) {
      return;
    }
    this.watching = true;
    void this.recheck.changed().then(() => {
      this.watching = false;
      this.policiesChanged = true;
      this.wake?.();
    });
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      const value = this.ready.shift();
      if (value !== undefined) {
        return { value, done: false };
      }
      const pending = (this.pending ??= this.source.next());
      this.watchPolicies();
      const result = await new Promise<IteratorResult<S> | typeof CHANGED>((resolve, reject) => {
        if (this.policiesChanged) {
          resolve(CHANGED);
          return;
        }
        this.wake = () => resolve(CHANGED);
        pending.then(resolve, reject);
      });
      this.wake = null;
      try {
        if (result === CHANGED) {
          this.policiesChanged = false;
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
    this.wake = null;
    await this.source.return?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
