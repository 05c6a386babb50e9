/**
 * How long successful runs took, by bucket (docs/analytics.md#duration-quantiles): the median
 * and 90th percentile of the durations of the builds that ended `SUCCESS` in each bucket.
 * `durationQuantiles` reads them from the duration histograms (migration 0029: counts of runs per
 * logarithmic bin, kept by the writers like the other sums), so its cost follows the buckets and
 * bins of the range, not the runs; `rawDurationQuantiles` sorts the raw builds (exact, and what
 * the histograms are checked against).
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

/** The ratio of a histogram bin's upper bound to its lower bound (migration 0029). */
export const BIN_RATIO = 1.05;

/** The value a run in `bin` is read as: the geometric middle of the bin (0.5 s for bin 0, below 1 s). */
export function binValue(bin: number): number {
  return bin <= 0 ? 0.5 : BIN_RATIO ** (bin - 0.5);
}

/**
 * The quantile at probability `p` of the runs counted in `bins` (bin, runs; bins ascending), as
 * PostgreSQL's `percentile_cont` reads sorted values: rank (n − 1)p + 1, linearly between its
 * neighbours, each run read as `binValue` of its bin.
 */
export function histogramQuantile(bins: Array<{ bin: number; runs: number }>, p: number): number {
  const n = bins.reduce((sum, b) => sum + b.runs, 0);
  const rank = (n - 1) * p + 1;
  const lower = Math.floor(rank);
  const at = (k: number): number => {
    let seen = 0;
    for (const b of bins) {
      seen += b.runs;
      if (seen >= k) {
        return binValue(b.bin);
      }
    }
    return binValue(bins[bins.length - 1].bin);
  };
  const low = at(lower);
  const fraction = rank - lower;
  return fraction === 0 ? low : low + fraction * (at(lower + 1) - low);
}

const BUCKET: Record<AnalyticsInterval, string> = {
  hour: `analytics_bucket('hour', end_time)`,
  day: `analytics_bucket('day', end_time)`,
  week: `date_trunc('week', end_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
};

const ROLLUP_BUCKET: Record<AnalyticsInterval, string> = {
  hour: 'bucket',
  day: 'bucket',
  week: `date_trunc('week', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
};

const BUILDS = { time: 'end_time', pipeline: 'pipeline', project: 'project_canonical', job: 'job_name' };

type Rows<T> = { rows: T[] };

/** The quantiles of each bucket of [from, to) with runs, with the analytics filter. */
export type DurationQuery = (
  knex: Knex,
  tenant: string,
  from: Date,
  to: Date,
  interval: AnalyticsInterval,
  filter: AnalyticsFilter,
) => Promise<DurationQuantiles[]>;

/**
 * The p50 and p90 of the successful runs that ended in each bucket of [from, to), buckets with runs
 * only, from the histograms: within 2.5% of the exact value plus 0.5 s (a run is read as its bin's
 * middle). Daily and weekly buckets read whole days: give day-aligned bounds.
 */
export const durationQuantiles: DurationQuery = async (knex, tenant, from, to, interval, filter) => {
  const where = conditions(tenant, { from, to, grain: interval === 'hour' ? 'hour' : 'day' }, filter, {
    pipeline: true,
    project: true,
    job: true,
  });
  // The combination of dimensions the filter names (GROUPING bits: 4 pipeline, 2 project, 1 job summed over).
  const rolled = (filter.pipelines?.length ? 0 : 4) | (filter.projects?.length ? 0 : 2) | (filter.jobs?.length ? 0 : 1);
  const result = (await knex.raw(
    `SELECT ${ROLLUP_BUCKET[interval]} AS bucket, bin, sum(runs) AS runs FROM analytics_durations
     WHERE ${where.sql} AND rolled = ? GROUP BY 1, 2 ORDER BY 1, 2`,
    [...where.bindings, rolled] as Knex.RawBinding[],
  )) as Rows<{ bucket: Date | string; bin: number; runs: string | number }>;
  const buckets = new Map<number, Array<{ bin: number; runs: number }>>();
  for (const row of result.rows) {
    const key = new Date(row.bucket).getTime();
    const bins = buckets.get(key) ?? [];
    bins.push({ bin: Number(row.bin), runs: Number(row.runs) });
    buckets.set(key, bins);
  }
  return [...buckets.entries()]
    .map(([bucket, bins]) => ({
      bucket,
      runs: bins.reduce((sum, b) => sum + b.runs, 0),
      p50: histogramQuantile(bins, 0.5),
      p90: histogramQuantile(bins, 0.9),
    }))
    .filter((bucket) => bucket.runs > 0);
};

/**
 * The exact p50 and p90 (PostgreSQL's `percentile_cont`) of the same runs, sorted from the raw
 * builds (an index-only range scan of `builds_success_end_idx`, migration 0027): what the
 * histograms are checked and benchmarked against.
 */
export const rawDurationQuantiles: DurationQuery = async (knex, tenant, from, to, interval, filter) => {
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
  )) as Rows<{ bucket: Date | string; runs: string | number; p50: string | number; p90: string | number }>;
  return result.rows.map((row) => ({
    bucket: new Date(row.bucket).getTime(),
    runs: Number(row.runs),
    p50: Number(row.p50),
    p90: Number(row.p90),
  }));
};
