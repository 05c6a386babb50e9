/**
 * Build-time estimates of the status document (docs/rest.md#status-document, `estimated_time`):
 * the newest final SUCCESS builds of one job on one project and branch of a tenant are one
 * backward range scan of this partial index, for every job of a status computation at once
 * (`BuildTimeRepository.estimates`).
 */
import type { Knex } from 'knex';

export const name = '0015-build-estimates';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX builds_estimate_idx ON builds (tenant, project_canonical, job_name, branch, end_time DESC, id DESC)
     WHERE final AND result = 'SUCCESS'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS builds_estimate_idx');
}
