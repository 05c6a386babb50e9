/**
 * Duration quantiles of the analytics (docs/analytics.md#duration-quantiles) are read from the
 * raw builds: a partial index of the successful builds by tenant and end time, holding every
 * column the query reads, lets it scan the range of one tenant without visiting the table
 * (src/store/repositories/analytics-durations.ts).
 */
import type { Knex } from 'knex';

export const name = '0027-success-durations-index';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX builds_success_end_idx ON builds (tenant, end_time)
    INCLUDE (start_time, pipeline, project_canonical, job_name) WHERE result = 'SUCCESS'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS builds_success_end_idx');
}
