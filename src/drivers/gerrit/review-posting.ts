/**
 * A review posted with bounded retries (docs/gerrit.md#reporters): a `5xx` answer, a refused
 * connection or a timeout is tried again after 1, 3 and 9 s. The review may have been applied
 * although its answer was lost, so before each retry of a review with a message the change's
 * messages are read: one of the connection's account on that patch set, ending with the message
 * and no older than the first try (less a minute for the clocks' skew), means it was posted.
 * Votes alone are sent again (a vote cast twice is one vote).
 */
import { retryTransient } from '../retries';
import { gerritTime } from './change-source';
import { GerritApiError, type GerritClient } from './client';

export const REVIEW_RETRY_DELAYS_MS: readonly number[] = [1000, 3000, 9000];

/** How much older than the first try a message may look and still be taken for it (clock skew). */
const CLOCK_SKEW_MS = 60_000;

export type ReviewInput = Parameters<GerritClient['review']>[3];

export interface ReviewRetryOptions {
  delaysMs: readonly number[];
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  onRetry?: (err: unknown, attempt: number, waitMs: number) => void;
}

/** A failure that may pass by itself: Gerrit answered 5xx, or no answer came (refused, reset, timed out). */
export function transientGerritFailure(err: unknown): err is Error {
  if (err instanceof GerritApiError) {
    return err.status >= 500;
  }
  return (
    err instanceof Error &&
    (err.name === 'TimeoutError' ||
      err.name === 'AbortError' ||
      (err instanceof TypeError && err.message === 'fetch failed'))
  );
}

export async function postReview(
  client: GerritClient,
  target: { project: string; number: number; patchset: string },
  review: ReviewInput,
  options: ReviewRetryOptions,
): Promise<void> {
  const since = options.now().getTime() - CLOCK_SKEW_MS;
  let tried = false;
  await retryTransient(
    async () => {
      if (tried && review.message !== undefined && (await posted(client, target, review.message, since))) {
        return;
      }
      tried = true;
      await client.review(target.project, target.number, target.patchset, review);
    },
    { ...options, transient: transientGerritFailure },
  );
}

async function posted(
  client: GerritClient,
  target: { project: string; number: number; patchset: string },
  message: string,
  since: number,
): Promise<boolean> {
  const text = message.trimEnd();
  return (await client.changeMessages(target.project, target.number)).some(
    (m) =>
      m.author?.username === client.user &&
      String(m._revision_number) === target.patchset &&
      Date.parse(gerritTime(m.date)) >= since &&
      (m.message ?? '').trimEnd().endsWith(text),
  );
}
