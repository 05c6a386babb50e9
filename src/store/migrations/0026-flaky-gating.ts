/**
 * Flake-aware gating (docs/analytics.md#flake-aware-gating): the quarantine list, whose jobs'
 * failures are reported but do not fail their item, and a count of the failed runs retried in
 * place because their job is known to be flaky (each a gate reset avoided), kept by the
 * builds trigger of migration 0025 (redefined here with the new column).
 */
import type { Knex } from 'knex';
import { jobSums } from './0025-analytics';

export const name = '0026-flaky-gating';

async function defineBuildTriggers(knex: Knex, flakyRetries: boolean): Promise<void> {
  const bodies: Array<[string, string[]]> = [
    ['analytics_builds_inserted', jobSums('inserted_rows n', '', flakyRetries)],
    [
      'analytics_builds_updated',
      jobSums('updated_rows n JOIN previous_rows o ON o.id = n.id', 'AND o.result IS NULL', flakyRetries),
    ],
  ];
  for (const [fn, statements] of bodies) {
    await knex.raw(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${statements.join(';\n')};
        RETURN NULL;
      END $$`);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_quarantine', (t) => {
    t.text('tenant').notNullable();
    /** Canonical project name; '' for every project of the tenant. */
    t.text('project').notNullable();
    t.text('job').notNullable();
    t.text('reason').notNullable();
    t.text('added_by');
    t.timestamp('added_at', { useTz: true }).notNullable();
    t.primary(['tenant', 'job', 'project']);
  });
  await knex.schema.alterTable('analytics_jobs', (t) => {
    t.bigInteger('flaky_retries').notNullable().defaultTo(0);
  });
  await knex.raw(`UPDATE analytics_jobs a SET flaky_retries = s.retried
    FROM (SELECT tenant, grain, analytics_bucket(grain, end_time) AS bucket, coalesce(pipeline, '') AS pipeline,
                 coalesce(project_canonical, '') AS project, job_name AS job, count(*) AS retried
          FROM builds CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
          WHERE NOT final AND end_time IS NOT NULL AND result IN ('FAILURE', 'POST_FAILURE', 'TIMED_OUT', 'RETRY_LIMIT')
          GROUP BY 1, 2, 3, 4, 5, 6) s
    WHERE a.tenant = s.tenant AND a.grain = s.grain AND a.bucket = s.bucket AND a.pipeline = s.pipeline
      AND a.project = s.project AND a.job = s.job`);
  await defineBuildTriggers(knex, true);
}

export async function down(knex: Knex): Promise<void> {
  await defineBuildTriggers(knex, false);
  await knex.schema.alterTable('analytics_jobs', (t) => {
    t.dropColumn('flaky_retries');
  });
  await knex.schema.dropTable('job_quarantine');
}
