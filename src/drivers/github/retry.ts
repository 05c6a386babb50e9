/**
 * Bounded retries of GitHub reports (docs/github.md#reporters), through src/drivers/retries.ts:
 * an API answer of 5xx or a failed connection (a timeout included) is tried again after each
 * delay in turn; anything else, and the last failure, is thrown.
 */
import { retryTransient } from '../retries';
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

export function withRetries<T>(action: () => Promise<T>, options: RetryOptions): Promise<T> {
  return retryTransient(action, { ...options, transient });
}
