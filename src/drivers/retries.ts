/**
 * Bounded retries of a driver's calls to its code-review system (docs/github.md#reporters,
 * docs/gerrit.md#reporters): a failure the driver calls transient (a 5xx answer, a failed or
 * timed-out connection) is tried again after each delay in turn; anything else, and the last
 * failure, is thrown.
 */
export interface TransientRetryOptions<E> {
  delaysMs: readonly number[];
  sleep: (ms: number) => Promise<void>;
  /** Whether a failure may pass by itself. */
  transient: (err: unknown) => err is E;
  /** Called before each wait (logging, tests). */
  onRetry?: (err: E, attempt: number, waitMs: number) => void;
}

export async function retryTransient<T, E>(action: () => Promise<T>, options: TransientRetryOptions<E>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await action();
    } catch (err) {
      const wait = options.delaysMs[attempt - 1];
      if (!options.transient(err) || wait === undefined) {
        throw err;
      }
      options.onRetry?.(err, attempt, wait);
      await options.sleep(wait);
    }
  }
}
