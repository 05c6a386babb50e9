/**
 * Bounded retries of GitHub reports (docs/github.md#reporters): an API answer of 5xx or a
 * failed connection (a timeout included) is tried again after each delay in turn; anything else,
 * and the last failure, is thrown.
 */
import { GitHubApiError } from './client';

/** Waits before the second, third and fourth attempt: at most 13 s in all, since a report made inside a scheduler pass holds it. */
export const REPORT_RETRY_DELAYS_MS: readonly number[] = [1000, 3000, 9000];

export interface RetryOptions {
  delaysMs: readonly number[];
  sleep: (ms: number) => Promise<void>;
  /** Called before each wait (logging, tests). */
  onRetry?: (err: GitHubApiError, attempt: number, waitMs: number) => void;
}

/** Whether a failure may pass by itself: the connection failed (status 0) or GitHub answered 5xx. */
export function transient(err: unknown): err is GitHubApiError {
  return err instanceof GitHubApiError && (err.status === 0 || err.status >= 500);
}

export async function withRetries<T>(action: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await action();
    } catch (err) {
      const wait = options.delaysMs[attempt - 1];
      if (!transient(err) || wait === undefined) {
        throw err;
      }
      options.onRetry?.(err, attempt, wait);
      await options.sleep(wait);
    }
  }
}
