/**
 * Queue analytics rollups (docs/analytics.md#queue-analytics): sums per tenant, hour or day
 * (`grain`), pipeline, project and job, kept by statement triggers on the rows the writers
 * already write (as the history counts of migration 0017 are), so a 30-day query reads 30 days
 * of sums instead of every build:
 *
 * - `analytics_jobs`: finished runs of each job (successes, failures, retried attempts, flaky
 *   runs, successful seconds) from `builds`, and node waits from `nodeset_requests`;
 * - `analytics_items`: items that left each pipeline (reported, succeeded, time to report and to
 *   success), items enqueued, and item-seconds in the queue spread over the hours they covered,
 *   from `queue_items` (a dequeued item keeps its row);
 * - `analytics_resets`: gate resets by cause, from `gate_resets` (one row per item reset, written
 *   by the engine in the pass that resets it);
 * - `analytics_nodes`: node-seconds in use per label, spread over the hours, from `nodes`;
 * - `analytics_busy`: items enqueued and runs finished per hour and pipeline (busiest hours).
 *
 * Hours and days are UTC. `builds.flaky` marks a run whose result differs from an earlier reported run of
 * the job on the same change revision (set by `BuildRepository.complete`). The history already
 * stored (finished builds, dequeued items) is rolled up here.
 */
import type { Knex } from 'knex';

export const name = '0025-analytics';

const FAILED = `('FAILURE', 'POST_FAILURE', 'TIMED_OUT', 'RETRY_LIMIT')`;

/** Every sum is kept by hour and by day. */
const GRAINS = `(VALUES ('hour'), ('day')) AS g(grain)`;

/**
 * Job sums of finished builds in `rows` (a transition table, or `builds`); with `flakyRetries`
 * (migration 0026, which added the column) the failed runs retried in place too.
 */
export const jobSums = (rows: string, where: string, flakyRetries = false): string[] => [
  `
  INSERT INTO analytics_jobs AS a
    (tenant, grain, bucket, pipeline, project, job, runs, successes, failures, retries, flaky, success_seconds,
     success_count${flakyRetries ? ', flaky_retries' : ''})
  SELECT n.tenant, g.grain, analytics_bucket(g.grain, n.end_time), coalesce(n.pipeline, ''),
         coalesce(n.project_canonical, ''), n.job_name,
         count(*) FILTER (WHERE n.result = 'SUCCESS' OR n.result IN ${FAILED}),
         count(*) FILTER (WHERE n.result = 'SUCCESS'),
         count(*) FILTER (WHERE n.result IN ${FAILED}),
         count(*) FILTER (WHERE n.result = 'RETRY' AND NOT n.final),
         count(*) FILTER (WHERE n.flaky),
         coalesce(sum(EXTRACT(EPOCH FROM (n.end_time - n.start_time))) FILTER (WHERE n.result = 'SUCCESS'), 0),
         count(*) FILTER (WHERE n.result = 'SUCCESS' AND n.start_time IS NOT NULL)
         ${flakyRetries ? `, count(*) FILTER (WHERE n.result IN ${FAILED} AND NOT n.final)` : ''}
  FROM ${rows} CROSS JOIN ${GRAINS}
  WHERE n.result IS NOT NULL AND n.end_time IS NOT NULL ${where}
  GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (tenant, grain, bucket, pipeline, project, job) DO UPDATE SET
    runs = a.runs + EXCLUDED.runs, successes = a.successes + EXCLUDED.successes,
    failures = a.failures + EXCLUDED.failures, retries = a.retries + EXCLUDED.retries,
    flaky = a.flaky + EXCLUDED.flaky, success_seconds = a.success_seconds + EXCLUDED.success_seconds,
    success_count = a.success_count + EXCLUDED.success_count
    ${flakyRetries ? ', flaky_retries = a.flaky_retries + EXCLUDED.flaky_retries' : ''}`,
  `
  INSERT INTO analytics_busy AS a (tenant, hour, pipeline, runs)
  SELECT n.tenant, analytics_hour(n.end_time), coalesce(n.pipeline, ''), count(*)
  FROM ${rows}
  WHERE (n.result = 'SUCCESS' OR n.result IN ${FAILED}) AND n.end_time IS NOT NULL ${where}
  GROUP BY 1, 2, 3
  ON CONFLICT (tenant, hour, pipeline) DO UPDATE SET runs = a.runs + EXCLUDED.runs`,
];

/** Item sums of dequeued items in `rows`: at the hour they left, the hour they came, and every hour they waited. */
const itemSums = (rows: string, where: string): string[] => [
  `
  WITH left_items AS (
    SELECT n.tenant, n.pipeline, coalesce(n.changes->0->>'project', '') AS project, n.enqueue_time, n.dequeue_time,
           n.dequeue_reason = 'reported' AS reported,
           n.dequeue_reason = 'reported' AND n.data->'dequeueReason'->>'result' = 'SUCCESS' AS succeeded,
           EXTRACT(EPOCH FROM (n.dequeue_time - n.enqueue_time)) AS seconds
    FROM ${rows}
    WHERE n.dequeue_time IS NOT NULL ${where}
  ), sums AS (
    SELECT tenant, analytics_hour(dequeue_time) AS hour, pipeline, project, 1 AS left_items,
           CASE WHEN reported THEN 1 ELSE 0 END AS reported, CASE WHEN succeeded THEN 1 ELSE 0 END AS succeeded,
           CASE WHEN reported THEN seconds ELSE 0 END AS report_seconds,
           CASE WHEN succeeded THEN seconds ELSE 0 END AS success_seconds, 0 AS enqueued, 0::float8 AS queue_seconds
    FROM left_items
    UNION ALL
    SELECT tenant, analytics_hour(enqueue_time), pipeline, project, 0, 0, 0, 0, 0, 1, 0 FROM left_items
    UNION ALL
    SELECT l.tenant, h.hour, l.pipeline, l.project, 0, 0, 0, 0, 0, 0, h.seconds
    FROM left_items l CROSS JOIN LATERAL analytics_spread(l.enqueue_time, l.dequeue_time) h
  )
  INSERT INTO analytics_items AS a
    (tenant, grain, bucket, pipeline, project, left_items, reported, succeeded, report_seconds, success_seconds,
     enqueued, queue_seconds)
  SELECT tenant, g.grain, analytics_bucket(g.grain, hour), pipeline, project, sum(left_items), sum(reported),
         sum(succeeded), sum(report_seconds), sum(success_seconds), sum(enqueued), sum(queue_seconds)
  FROM sums CROSS JOIN ${GRAINS} GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant, grain, bucket, pipeline, project) DO UPDATE SET
    left_items = a.left_items + EXCLUDED.left_items, reported = a.reported + EXCLUDED.reported,
    succeeded = a.succeeded + EXCLUDED.succeeded, report_seconds = a.report_seconds + EXCLUDED.report_seconds,
    success_seconds = a.success_seconds + EXCLUDED.success_seconds, enqueued = a.enqueued + EXCLUDED.enqueued,
    queue_seconds = a.queue_seconds + EXCLUDED.queue_seconds`,
  `
  INSERT INTO analytics_busy AS a (tenant, hour, pipeline, enqueued)
  SELECT n.tenant, analytics_hour(n.enqueue_time), n.pipeline, count(*)
  FROM ${rows}
  WHERE n.dequeue_time IS NOT NULL ${where}
  GROUP BY 1, 2, 3
  ON CONFLICT (tenant, hour, pipeline) DO UPDATE SET enqueued = a.enqueued + EXCLUDED.enqueued`,
];

/** A trigger function running `body` (statements over the transition tables). */
async function triggerFunction(knex: Knex, name: string, body: string | string[]): Promise<void> {
  await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${[body].flat().join(';\n')};
      RETURN NULL;
    END $$`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION analytics_hour(t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
    SELECT date_trunc('hour', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`);
  await knex.raw(`CREATE FUNCTION analytics_bucket(grain text, t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
    SELECT date_trunc(grain, t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`);
  await knex.raw(`CREATE FUNCTION analytics_spread(start_time timestamptz, end_time timestamptz)
    RETURNS TABLE (hour timestamptz, seconds float8) LANGUAGE sql IMMUTABLE AS $$
    SELECT h, EXTRACT(EPOCH FROM (least(end_time, h + interval '1 hour') - greatest(start_time, h)))::float8
    FROM generate_series(analytics_hour(start_time), analytics_hour(end_time), interval '1 hour') h
    WHERE end_time > start_time $$`);
  await knex.schema.alterTable('builds', (t) => {
    t.boolean('flaky').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('gate_resets', (t) => {
    t.bigIncrements('id');
    t.text('tenant').notNullable();
    t.text('pipeline').notNullable();
    t.text('project').notNullable();
    t.text('item_uuid').notNullable();
    t.text('cause').notNullable();
    /** The item ahead whose failure or departure caused it, when there is one. */
    t.text('caused_by');
    t.timestamp('reset_time', { useTz: true }).notNullable();
    t.index(['tenant', 'reset_time'], 'gate_resets_tenant_time_idx');
  });
  const key = (table: Knex.CreateTableBuilder, extra: string[]) => {
    table.text('tenant').notNullable();
    /** `hour` or `day`: the size of `bucket`. */
    table.text('grain').notNullable();
    table.timestamp('bucket', { useTz: true }).notNullable();
    for (const column of extra) {
      table.text(column).notNullable();
    }
    table.primary(['tenant', 'grain', 'bucket', ...extra]);
  };
  await knex.schema.createTable('analytics_jobs', (t) => {
    key(t, ['pipeline', 'project', 'job']);
    for (const column of ['runs', 'successes', 'failures', 'retries', 'flaky', 'success_count', 'node_waits']) {
      t.bigInteger(column).notNullable().defaultTo(0);
    }
    t.double('success_seconds').notNullable().defaultTo(0);
    t.double('node_wait_seconds').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('analytics_items', (t) => {
    key(t, ['pipeline', 'project']);
    for (const column of ['left_items', 'reported', 'succeeded', 'enqueued']) {
      t.bigInteger(column).notNullable().defaultTo(0);
    }
    for (const column of ['report_seconds', 'success_seconds', 'queue_seconds']) {
      t.double(column).notNullable().defaultTo(0);
    }
  });
  await knex.schema.createTable('analytics_resets', (t) => {
    key(t, ['pipeline', 'project', 'cause']);
    t.bigInteger('resets').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('analytics_nodes', (t) => {
    key(t, ['label']);
    t.double('node_seconds').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('analytics_busy', (t) => {
    t.text('tenant').notNullable();
    t.timestamp('hour', { useTz: true }).notNullable();
    t.text('pipeline').notNullable();
    t.bigInteger('enqueued').notNullable().defaultTo(0);
    t.bigInteger('runs').notNullable().defaultTo(0);
    t.primary(['tenant', 'hour', 'pipeline']);
  });

  await triggerFunction(knex, 'analytics_builds_inserted', jobSums('inserted_rows n', ''));
  await triggerFunction(
    knex,
    'analytics_builds_updated',
    jobSums('updated_rows n JOIN previous_rows o ON o.id = n.id', 'AND o.result IS NULL'),
  );
  await knex.raw(`CREATE TRIGGER builds_analytics_insert AFTER INSERT ON builds
    REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_builds_inserted()`);
  await knex.raw(`CREATE TRIGGER builds_analytics_update AFTER UPDATE ON builds
    REFERENCING OLD TABLE AS previous_rows NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_builds_updated()`);

  await triggerFunction(knex, 'analytics_items_inserted', itemSums('inserted_rows n', ''));
  await triggerFunction(
    knex,
    'analytics_items_updated',
    itemSums('updated_rows n JOIN previous_rows o ON o.id = n.id', 'AND o.dequeue_time IS NULL'),
  );
  await knex.raw(`CREATE TRIGGER queue_items_analytics_insert AFTER INSERT ON queue_items
    REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_items_inserted()`);
  await knex.raw(`CREATE TRIGGER queue_items_analytics_update AFTER UPDATE ON queue_items
    REFERENCING OLD TABLE AS previous_rows NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_items_updated()`);

  await triggerFunction(
    knex,
    'analytics_resets_inserted',
    `INSERT INTO analytics_resets AS a (tenant, grain, bucket, pipeline, project, cause, resets)
     SELECT tenant, g.grain, analytics_bucket(g.grain, reset_time), pipeline, project, cause, count(*)
     FROM inserted_rows CROSS JOIN ${GRAINS} GROUP BY 1, 2, 3, 4, 5, 6
     ON CONFLICT (tenant, grain, bucket, pipeline, project, cause) DO UPDATE SET resets = a.resets + EXCLUDED.resets`,
  );
  await knex.raw(`CREATE TRIGGER gate_resets_analytics_insert AFTER INSERT ON gate_resets
    REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_resets_inserted()`);

  await triggerFunction(
    knex,
    'analytics_requests_updated',
    `INSERT INTO analytics_jobs AS a (tenant, grain, bucket, pipeline, project, job, node_waits, node_wait_seconds)
     SELECT n.tenant, g.grain, analytics_bucket(g.grain, n.state_time), coalesce(n.pipeline_name, ''),
            coalesce(n.project, ''), coalesce(n.job_name, ''), count(*),
            sum(EXTRACT(EPOCH FROM (n.state_time - n.request_time)))
     FROM updated_rows n JOIN previous_rows o ON o.id = n.id CROSS JOIN ${GRAINS}
     WHERE n.state = 'fulfilled' AND o.state <> 'fulfilled'
     GROUP BY 1, 2, 3, 4, 5, 6
     ON CONFLICT (tenant, grain, bucket, pipeline, project, job) DO UPDATE SET
       node_waits = a.node_waits + EXCLUDED.node_waits,
       node_wait_seconds = a.node_wait_seconds + EXCLUDED.node_wait_seconds`,
  );
  await knex.raw(`CREATE TRIGGER nodeset_requests_analytics_update AFTER UPDATE ON nodeset_requests
    REFERENCING OLD TABLE AS previous_rows NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_requests_updated()`);

  await triggerFunction(
    knex,
    'analytics_nodes_updated',
    `INSERT INTO analytics_nodes AS a (tenant, grain, bucket, label, node_seconds)
     SELECT o.tenant, g.grain, analytics_bucket(g.grain, h.hour), o.label, sum(h.seconds)
     FROM updated_rows n JOIN previous_rows o ON o.id = n.id
     CROSS JOIN LATERAL analytics_spread(o.state_time, n.state_time) h CROSS JOIN ${GRAINS}
     WHERE o.state = 'in-use' AND n.state <> 'in-use' AND o.tenant IS NOT NULL
     GROUP BY 1, 2, 3, 4
     ON CONFLICT (tenant, grain, bucket, label) DO UPDATE SET node_seconds = a.node_seconds + EXCLUDED.node_seconds`,
  );
  await knex.raw(`CREATE TRIGGER nodes_analytics_update AFTER UPDATE ON nodes
    REFERENCING OLD TABLE AS previous_rows NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_nodes_updated()`);

  // The history already stored.
  for (const statement of [...jobSums('builds n', ''), ...itemSums('queue_items n', '')]) {
    await knex.raw(statement);
  }
}

const TRIGGERS: ReadonlyArray<[string, string]> = [
  ['builds_analytics_insert', 'builds'],
  ['builds_analytics_update', 'builds'],
  ['queue_items_analytics_insert', 'queue_items'],
  ['queue_items_analytics_update', 'queue_items'],
  ['gate_resets_analytics_insert', 'gate_resets'],
  ['nodeset_requests_analytics_update', 'nodeset_requests'],
  ['nodes_analytics_update', 'nodes'],
];

export async function down(knex: Knex): Promise<void> {
  for (const [trigger, table] of TRIGGERS) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
  }
  for (const fn of [
    'analytics_builds_inserted',
    'analytics_builds_updated',
    'analytics_items_inserted',
    'analytics_items_updated',
    'analytics_resets_inserted',
    'analytics_requests_updated',
    'analytics_nodes_updated',
  ]) {
    await knex.raw(`DROP FUNCTION IF EXISTS ${fn}()`);
  }
  for (const table of [
    'analytics_busy',
    'analytics_nodes',
    'analytics_resets',
    'analytics_items',
    'analytics_jobs',
    'gate_resets',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('builds', (t) => {
    t.dropColumn('flaky');
  });
  await knex.raw('DROP FUNCTION IF EXISTS analytics_spread(timestamptz, timestamptz)');
  await knex.raw('DROP FUNCTION IF EXISTS analytics_bucket(text, timestamptz)');
  await knex.raw('DROP FUNCTION IF EXISTS analytics_hour(timestamptz)');
}
