/**
 * How long successful runs took, by bucket (docs/analytics.md#duration-quantiles): the median
 * and 90th percentile of the durations of the builds that ended `SUCCESS` in each bucket, read
 * from the raw builds with the analytics filter. Quantiles cannot be summed, so unlike the other
 * figures this one has no rollup: its cost follows the successful runs of the range (an
 * index-only range scan of `builds_success_end_idx`, migration 0027).
 */
import type { Knex } from 'knex';
import { conditions, type AnalyticsFilter, type AnalyticsInterval } from './analytics';

export interface DurationQuantiles {
  /** Bucket start, epoch ms. */
  bucket: number;
  /** Successful runs with a start time. */
  runs: number;
  /** Seconds. */
  p50: number;
  p90: number;
}

const BUCKET: Record<AnalyticsInterval, string> = {
  hour: `analytics_bucket('hour', end_time)`,
  day: `analytics_bucket('day', end_time)`,
  week: `date_trunc('week', end_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
};

const BUILDS = { time: 'end_time', pipeline: 'pipeline', project: 'project_canonical', job: 'job_name' };

/**
 * The p50 and p90 (PostgreSQL's `percentile_cont`: linear between the sorted durations at rank
 * (n − 1)p + 1) of the successful runs that ended in each bucket of [from, to), buckets with runs
 * only.
 */
export async function durationQuantiles(
  knex: Knex,
  tenant: string,
  from: Date,
  to: Date,
  interval: AnalyticsInterval,
  filter: AnalyticsFilter,
): Promise<DurationQuantiles[]> {
  const where = conditions(
    tenant,
    { from, to, grain: null },
    filter,
    { pipeline: true, project: true, job: true },
    BUILDS,
  );
  const seconds = 'EXTRACT(EPOCH FROM (end_time - start_time))';
  const result = (await knex.raw(
    `SELECT ${BUCKET[interval]} AS bucket, count(*) AS runs,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}) AS p50,
            percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds}) AS p90
     FROM builds
     WHERE ${where.sql} AND result = 'SUCCESS' AND start_time IS NOT NULL
     GROUP BY 1 ORDER BY 1`,
    where.bindings as Knex.RawBinding[],
  )) as { rows: Array<{ bucket: Date | string; runs: string | number; p50: string | number; p90: string | number }> };
  return result.rows.map((row) => ({
    bucket: new Date(row.bucket).getTime(),
    runs: Number(row.runs),
    p50: Number(row.p50),
    p90: Number(row.p90),
  }));
}
