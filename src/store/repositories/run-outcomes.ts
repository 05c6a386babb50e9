/** How build results count as runs: failed runs, and flaky runs (docs/analytics.md#flaky-runs). */
import type { Knex } from 'knex';
import type { BuildResult } from '../../model/results';

/** Results of a failed run: a failure of the job itself, not of the system around it (docs/analytics.md#job-estimates). */
export const FAILED_RUN: readonly BuildResult[] = ['FAILURE', 'POST_FAILURE', 'TIMED_OUT', 'RETRY_LIMIT'];

/**
 * Whether a build finishing with `result` is flaky (docs/analytics.md#flaky-runs): an earlier run of
 * the same job on the same change revision (ref) ended the other way, in a buildset that reported
 * (not one reset for a failure ahead, whose state may have caused it) or in this very buildset.
 * Evaluated in the build's own UPDATE, so the rollup trigger counts it.
 */
export function flakyCondition(trx: Knex, result: BuildResult): Knex.Raw | boolean {
  const opposite = result === 'SUCCESS' ? FAILED_RUN : FAILED_RUN.includes(result) ? ['SUCCESS'] : null;
  if (opposite === null) {
    return false;
  }
  return trx.raw(
    `EXISTS (
       SELECT 1 FROM builds earlier JOIN buildsets reported ON reported.id = earlier.buildset_id
       WHERE earlier.tenant = builds.tenant AND earlier.ref_id = builds.ref_id AND earlier.job_name = builds.job_name
         AND earlier.id <> builds.id AND earlier.result IN (${opposite.map(() => '?').join(', ')})
         AND (earlier.buildset_id = builds.buildset_id
              OR (earlier.final AND reported.result IS NOT NULL AND reported.result <> 'DEQUEUED')))`,
    [...opposite],
  );
}
