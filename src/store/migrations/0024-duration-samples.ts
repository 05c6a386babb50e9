/**
 * The recent runs behind calibrated estimates (docs/analytics.md#job-estimates): for each job on
 * a project and branch, on a project, and tenant-wide, and for each pipeline's items of a
 * project and of any project, the outcomes and durations of the newest 50 runs. The history
 * writers append to them (`DurationSampleRepository`), so a status reads one row per key
 * instead of scanning build history; this migration fills them from the history already
 * stored. `builds_estimate_idx` (migration 0015) served the scan that this replaces.
 */
import type { Knex } from 'knex';

export const name = '0024-duration-samples';

const LIMIT = 50;

/** Finished builds as runs: outcome `s`, `f` or `r` (a retried attempt) and seconds. */
const BUILD_RUNS = `
  SELECT tenant, project_canonical, coalesce(branch, '') AS branch, job_name, id, end_time,
         CASE WHEN result = 'SUCCESS' THEN 's' WHEN NOT final THEN 'r' ELSE 'f' END AS outcome,
         EXTRACT(EPOCH FROM (end_time - start_time))::float8 AS seconds
  FROM builds
  WHERE end_time IS NOT NULL AND project_canonical IS NOT NULL
    AND (result IN ('SUCCESS', 'FAILURE', 'POST_FAILURE', 'TIMED_OUT', 'RETRY_LIMIT') OR (result = 'RETRY' AND NOT final))`;

/** Finished buildsets of SUCCESS or FAILURE as runs of their first ref's project. */
const ITEM_RUNS = `
  SELECT b.tenant, r.project_canonical, '' AS branch, b.pipeline AS job_name, b.id, b.updated AS end_time,
         CASE WHEN b.result = 'SUCCESS' THEN 's' ELSE 'f' END AS outcome,
         EXTRACT(EPOCH FROM (b.updated - b.created))::float8 AS seconds
  FROM buildsets b
  JOIN LATERAL (
    SELECT refs.project_canonical FROM buildset_refs JOIN refs ON refs.id = buildset_refs.ref_id
    WHERE buildset_refs.buildset_id = b.id ORDER BY refs.id LIMIT 1
  ) r ON true
  WHERE b.result IN ('SUCCESS', 'FAILURE')`;

/** Fill one level from `runs`: `project` and `branch` are the key's expressions over a run. */
async function fill(knex: Knex, level: string, runs: string, project: string, branch: string): Promise<void> {
  const key = 'tenant, p, br, job_name';
  await knex.raw(`
    INSERT INTO duration_samples (tenant, level, project, branch, name, outcomes, successes, failures)
    SELECT tenant, '${level}', p, br, job_name,
           string_agg(outcome, '' ORDER BY end_time, id) FILTER (WHERE by_any <= ${LIMIT}),
           coalesce(array_agg(seconds ORDER BY end_time, id)
             FILTER (WHERE outcome = 's' AND seconds > 0 AND by_kind <= ${LIMIT}), '{}'),
           coalesce(array_agg(seconds ORDER BY end_time, id)
             FILTER (WHERE outcome = 'f' AND seconds > 0 AND by_kind <= ${LIMIT}), '{}')
    FROM (
      SELECT keyed.*,
             row_number() OVER (PARTITION BY ${key} ORDER BY end_time DESC, id DESC) AS by_any,
             row_number() OVER (PARTITION BY ${key}, outcome, seconds > 0 ORDER BY end_time DESC, id DESC) AS by_kind
      FROM (SELECT runs.*, ${project} AS p, ${branch} AS br FROM (${runs}) runs) keyed
    ) ranked
    WHERE by_any <= ${LIMIT} OR by_kind <= ${LIMIT}
    GROUP BY tenant, p, br, job_name
    HAVING count(*) FILTER (WHERE by_any <= ${LIMIT}) > 0`);
}

/** Fill every level from the stored history (an empty table; tests compare it with what the writers kept). */
export async function fillDurationSamples(knex: Knex): Promise<void> {
  await fill(knex, 'branch', BUILD_RUNS, 'project_canonical', 'branch');
  await fill(knex, 'project', BUILD_RUNS, 'project_canonical', "''");
  await fill(knex, 'job', BUILD_RUNS, "''", "''");
  await fill(knex, 'item-project', ITEM_RUNS, 'project_canonical', "''");
  await fill(knex, 'item-pipeline', ITEM_RUNS, "''", "''");
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('duration_samples', (t) => {
    t.text('tenant').notNullable();
    t.text('level').notNullable();
    t.text('project').notNullable();
    t.text('branch').notNullable();
    t.text('name').notNullable();
    t.text('outcomes').notNullable();
    t.specificType('successes', 'float8[]').notNullable();
    t.specificType('failures', 'float8[]').notNullable();
    t.primary(['tenant', 'level', 'project', 'branch', 'name']);
  });
  await fillDurationSamples(knex);
  await knex.raw('DROP INDEX IF EXISTS builds_estimate_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX builds_estimate_idx ON builds (tenant, project_canonical, job_name, branch, end_time DESC, id DESC)
     WHERE final AND result = 'SUCCESS'`,
  );
  await knex.schema.dropTable('duration_samples');
}
