/**
 * The flaky check at a build's completion (docs/analytics.md#flaky-runs) reads the earlier runs of
 * the same job on the same ref: `builds_ref_job_idx` (ref_id, job_name) finds exactly those, and
 * the check's statement gives no other index a condition to serve (docs/gating.md#performance).
 * With `builds_ref_idx` (ref_id) the planner took, by statistics, one of several indexes it costed
 * alike (tenant and job, tenant and result, ref), and the bad ones read hundreds of earlier builds
 * per completed build. It takes the place of `builds_ref_idx`, serving every look-up by ref too.
 *
 * A ref holds the runs of its jobs in its pipelines, about ten builds: its distinct count grows with
 * the table. Statistics of a young table (one change's runs) fixed it at the count they saw, so the
 * planner took a ref for the whole table and scanned it; the count is given as a tenth of the rows.
 */
import type { Knex } from 'knex';

export const name = '0036-builds-ref-job-index';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX builds_ref_job_idx ON builds (ref_id, job_name)`);
  await knex.raw(`DROP INDEX IF EXISTS builds_ref_idx`);
  await knex.raw(`ALTER TABLE builds ALTER COLUMN ref_id SET (n_distinct = -0.1)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE builds ALTER COLUMN ref_id RESET (n_distinct)`);
  await knex.raw(`CREATE INDEX builds_ref_idx ON builds (ref_id)`);
  await knex.raw(`DROP INDEX IF EXISTS builds_ref_job_idx`);
}
