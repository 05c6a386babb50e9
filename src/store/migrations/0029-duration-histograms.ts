/**
 * Duration histograms of the analytics (docs/analytics.md#duration-quantiles): for every tenant,
 * hour or day (`grain`), pipeline, project and job, how many successful runs took a duration in
 * each logarithmic bin (`analytics_duration_bin`: bin 0 below 1 s, bin k ≥ 1 from 1.05^(k − 1)
 * to 1.05^k seconds). Quantiles cannot be summed but bin counts can, so a 30-day query reads
 * counts instead of sorting every build.
 *
 * The counts are kept at every combination of the three dimensions at once (`GROUP BY CUBE`):
 * `rolled` says which dimensions a row sums over (`GROUPING(pipeline, project, job)`: 4 all
 * pipelines, 2 all projects, 1 all jobs; their columns then hold ''), so a query reads the rows
 * of the combination its filter names and no more: the unfiltered one reads one row per bucket
 * and bin. Statement triggers on `builds` add a build when its result becomes `SUCCESS` (as the
 * sums of migration 0025); the history already stored is counted here.
 */
import type { Knex } from 'knex';

export const name = '0029-duration-histograms';

/** The histogram counts of the successful builds with a start time in `rows` (`n`), where `where` holds. */
export const histogramCounts = (rows: string, where: string): string => `
  INSERT INTO analytics_durations AS a (tenant, grain, rolled, bucket, pipeline, project, job, bin, runs)
  SELECT tenant, grain, GROUPING(pipeline, project, job), bucket, coalesce(pipeline, ''), coalesce(project, ''),
         coalesce(job, ''), bin, count(*)
  FROM (
    SELECT n.tenant, g.grain, analytics_bucket(g.grain, n.end_time) AS bucket, coalesce(n.pipeline, '') AS pipeline,
           coalesce(n.project_canonical, '') AS project, coalesce(n.job_name, '') AS job,
           analytics_duration_bin(EXTRACT(EPOCH FROM (n.end_time - n.start_time))::float8) AS bin
    FROM ${rows} CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
    WHERE n.result = 'SUCCESS' AND n.start_time IS NOT NULL AND n.end_time IS NOT NULL ${where}
  ) d
  GROUP BY tenant, grain, bucket, bin, CUBE (pipeline, project, job)
  ON CONFLICT (tenant, grain, rolled, bucket, pipeline, project, job, bin) DO UPDATE SET runs = a.runs + EXCLUDED.runs`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION analytics_duration_bin(seconds float8) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN seconds < 1 THEN 0 ELSE 1 + floor(ln(seconds) / ln(1.05))::integer END $$`);
  await knex.schema.createTable('analytics_durations', (t) => {
    t.text('tenant').notNullable();
    t.text('grain').notNullable();
    t.smallint('rolled').notNullable();
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.text('pipeline').notNullable();
    t.text('project').notNullable();
    t.text('job').notNullable();
    t.integer('bin').notNullable();
    t.bigInteger('runs').notNullable();
    t.primary(['tenant', 'grain', 'rolled', 'bucket', 'pipeline', 'project', 'job', 'bin']);
  });
  await knex.raw(`CREATE FUNCTION analytics_durations_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${histogramCounts('inserted_rows n', '')}; RETURN NULL; END $$`);
  await knex.raw(`CREATE FUNCTION analytics_durations_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${histogramCounts('updated_rows n JOIN previous_rows o ON o.id = n.id', 'AND o.result IS NULL')};
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER builds_durations_insert AFTER INSERT ON builds
    REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_durations_inserted()`);
  await knex.raw(`CREATE TRIGGER builds_durations_update AFTER UPDATE ON builds
    REFERENCING OLD TABLE AS previous_rows NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_durations_updated()`);
  await knex.raw(histogramCounts('builds n', ''));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS builds_durations_update ON builds');
  await knex.raw('DROP TRIGGER IF EXISTS builds_durations_insert ON builds');
  await knex.raw('DROP FUNCTION IF EXISTS analytics_durations_updated()');
  await knex.raw('DROP FUNCTION IF EXISTS analytics_durations_inserted()');
  await knex.schema.dropTableIfExists('analytics_durations');
  await knex.raw('DROP FUNCTION IF EXISTS analytics_duration_bin(float8)');
}
