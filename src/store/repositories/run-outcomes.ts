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
 *
 * Its cost must not follow the statistics (docs/gating.md#performance): the runs of the job on the
 * ref are read first, in a sub-query fenced by `OFFSET 0` whose only conditions are ref and job,
 * which `builds_ref_job_idx` (migration 0036) alone serves whole; tenant, result and buildset apply
 * to those few rows. Side by side with them, statistics of a young table (no failure seen yet, one
 * change's runs) made the planner read every run on the ref, every failed run of the tenant, every
 * run of the job or the whole table.
 */
export function flakyCondition(trx: Knex, result: BuildResult): Knex.Raw | boolean {
  const opposite = result === 'SUCCESS' ? FAILED_RUN : FAILED_RUN.includes(result) ? ['SUCCESS'] : null;
  if (opposite === null) {
    return false;
  }
  return trx.raw(
    `EXISTS (
       SELECT 1 FROM (SELECT earlier.id, earlier.tenant, earlier.buildset_id, earlier.result, earlier.final
                      FROM builds earlier WHERE earlier.ref_id = builds.ref_id AND earlier.job_name = builds.job_name
                      OFFSET 0) AS run
         JOIN buildsets reported ON reported.id = run.buildset_id
       WHERE run.tenant = builds.tenant AND run.id <> builds.id AND run.result IN (${opposite.map(() => '?').join(', ')})
         AND (run.buildset_id = builds.buildset_id
              OR (run.final AND reported.result IS NOT NULL AND reported.result <> 'DEQUEUED')))`,
    [...opposite],
  );
}
