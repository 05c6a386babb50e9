/**
 * Queue analytics (docs/analytics.md#queue-analytics): the gate resets the engine records, and
 * the sums of the rollups (migration 0025) over a time range, by bucket, with the tenant's
 * pipeline, project and job filters. Hourly buckets read the hourly sums, daily and weekly ones
 * the daily sums; every read is a range scan of a rollup's primary key (tenant, grain, bucket,
 * ...), so its cost follows the buckets asked for, not the history's size.
 */
import type { Knex } from 'knex';
import type { GateResetCauseKind } from '../../model/gate-resets';

export type AnalyticsInterval = 'hour' | 'day' | 'week';

export interface AnalyticsFilter {
  pipelines?: readonly string[];
  /** Canonical names or short names (`org/project`). */
  projects?: readonly string[];
  /** Only the job sums (runs, durations, node waits) are filtered by job. */
  jobs?: readonly string[];
}

/** The sums of one bucket (or of the whole range). */
export interface AnalyticsSums {
  runs: number;
  successes: number;
  failures: number;
  retries: number;
  flaky: number;
  /** Failed runs retried in place because their job is known-flaky: gate resets avoided. */
  flakyRetries: number;
  successSeconds: number;
  successCount: number;
  nodeWaits: number;
  nodeWaitSeconds: number;
  leftItems: number;
  reported: number;
  succeeded: number;
  reportSeconds: number;
  succeededSeconds: number;
  enqueued: number;
  queueSeconds: number;
  resets: number;
  nodeSeconds: number;
}

export interface AnalyticsResult {
  /** Sums by bucket start (epoch ms), only buckets with any. */
  buckets: Map<number, AnalyticsSums>;
  /** Resets by bucket start and cause. */
  resetCauses: Array<{ bucket: number; cause: string; resets: number }>;
  nodeSecondsByLabel: Array<{ label: string; seconds: number }>;
  /** Items enqueued and runs finished by UTC weekday (0 = Sunday) and hour. */
  busiestHours: Array<{ weekday: number; hour: number; enqueued: number; runs: number }>;
  jobs: Array<{
    job: string;
    runs: number;
    successes: number;
    failures: number;
    retries: number;
    flaky: number;
    successSeconds: number;
    successCount: number;
  }>;
}

export function emptySums(): AnalyticsSums {
  return {
    runs: 0,
    successes: 0,
    failures: 0,
    retries: 0,
    flaky: 0,
    flakyRetries: 0,
    successSeconds: 0,
    successCount: 0,
    nodeWaits: 0,
    nodeWaitSeconds: 0,
    leftItems: 0,
    reported: 0,
    succeeded: 0,
    reportSeconds: 0,
    succeededSeconds: 0,
    enqueued: 0,
    queueSeconds: 0,
    resets: 0,
    nodeSeconds: 0,
  };
}

const BUCKET: Record<AnalyticsInterval, string> = {
  hour: 'bucket',
  day: 'bucket',
  week: `date_trunc('week', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
};

const GRAIN: Record<AnalyticsInterval, 'hour' | 'day'> = { hour: 'hour', day: 'day', week: 'day' };

/** Column names of a table that is not a rollup (the raw builds). */
export interface FilterColumns {
  time: string;
  pipeline: string;
  project: string;
  job: string;
}

const ROLLUP: FilterColumns = { time: 'bucket', pipeline: 'pipeline', project: 'project', job: 'job' };

/** Conditions of the filter on a rollup's columns (or `names`' columns), with their bindings. */
export function conditions(
  tenant: string,
  range: { from: Date; to: Date; grain: 'hour' | 'day' | null },
  filter: AnalyticsFilter,
  columns: { pipeline?: boolean; project?: boolean; job?: boolean },
  names: FilterColumns = ROLLUP,
): { sql: string; bindings: unknown[] } {
  const time = names !== ROLLUP ? names.time : range.grain === null ? 'hour' : 'bucket';
  const parts = ['tenant = ?', `${time} >= ?`, `${time} < ?`];
  const bindings: unknown[] = [tenant, range.from, range.to];
  if (range.grain !== null && names === ROLLUP) {
    parts.push('grain = ?');
    bindings.push(range.grain);
  }
  if (columns.pipeline && filter.pipelines?.length) {
    parts.push(`${names.pipeline} IN (${filter.pipelines.map(() => '?').join(', ')})`);
    bindings.push(...filter.pipelines);
  }
  if (columns.project && filter.projects?.length) {
    const list = filter.projects.map(() => '?').join(', ');
    const project = names.project;
    parts.push(`(${project} IN (${list}) OR substr(${project}, strpos(${project}, '/') + 1) IN (${list}))`);
    bindings.push(...filter.projects, ...filter.projects);
  }
  if (columns.job && filter.jobs?.length) {
    parts.push(`${names.job} IN (${filter.jobs.map(() => '?').join(', ')})`);
    bindings.push(...filter.jobs);
  }
  return { sql: parts.join(' AND '), bindings };
}

type Row = Record<string, string | number | Date | null>;

const number = (value: unknown): number => Number(value ?? 0);

export class AnalyticsRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * A job's finished and flaky runs on a project since `since` (whole days), and tenant-wide:
   * what flake-aware gating reads (docs/analytics.md#flake-aware-gating).
   */
  async flakeCounts(
    tenant: string,
    project: string,
    job: string,
    since: Date,
  ): Promise<{ project: { runs: number; flaky: number }; tenant: { runs: number; flaky: number } }> {
    const rows: Array<{ own: boolean; runs: string | number; flaky: string | number }> = (
      (await this.knex.raw(
        `SELECT project = ? AS own, sum(runs) AS runs, sum(flaky) AS flaky FROM analytics_jobs
         WHERE tenant = ? AND grain = 'day' AND bucket >= ? AND job = ? GROUP BY 1`,
        [project, tenant, since, job],
      )) as { rows: Array<{ own: boolean; runs: string | number; flaky: string | number }> }
    ).rows;
    const own = rows.find((row) => row.own);
    const all = rows.reduce(
      (sum, row) => ({ runs: sum.runs + number(row.runs), flaky: sum.flaky + number(row.flaky) }),
      { runs: 0, flaky: 0 },
    );
    return { project: { runs: number(own?.runs), flaky: number(own?.flaky) }, tenant: all };
  }

  /** One item reset (docs/analytics.md#gate-resets); the rollup follows by trigger. */
  async recordGateReset(input: {
    tenant: string;
    pipeline: string;
    project: string;
    itemUuid: string;
    cause: GateResetCauseKind;
    causedBy: string | null;
    at: Date;
  }): Promise<void> {
    await this.knex('gate_resets').insert({
      tenant: input.tenant,
      pipeline: input.pipeline,
      project: input.project,
      item_uuid: input.itemUuid,
      cause: input.cause,
      caused_by: input.causedBy,
      reset_time: input.at,
    });
  }

  /**
   * The sums of [from, to) by `interval`, with the totals by cause, label, hour of the week (by
   * pipeline only) and job. Daily and weekly buckets read whole days: give day-aligned bounds.
   */
  async query(
    tenant: string,
    from: Date,
    to: Date,
    interval: AnalyticsInterval,
    filter: AnalyticsFilter,
  ): Promise<AnalyticsResult> {
    const bucket = BUCKET[interval];
    const range = { from, to, grain: GRAIN[interval] };
    const jobs = conditions(tenant, range, filter, { pipeline: true, project: true, job: true });
    const items = conditions(tenant, range, filter, { pipeline: true, project: true });
    const nodes = conditions(tenant, range, filter, {});
    const busy = conditions(tenant, { from, to, grain: null }, filter, { pipeline: true });
    const raw = async (sql: string, bindings: unknown[]): Promise<Row[]> =>
      ((await this.knex.raw(sql, bindings as Knex.RawBinding[])) as { rows: Row[] }).rows;
    const [jobRows, itemRows, resetRows, nodeRows, jobTotals, busyRows] = await Promise.all([
      raw(
        `SELECT ${bucket} AS bucket, sum(runs) AS runs, sum(successes) AS successes, sum(failures) AS failures, sum(retries) AS retries,
                sum(flaky) AS flaky, sum(flaky_retries) AS flaky_retries, sum(success_seconds) AS success_seconds,
                sum(success_count) AS success_count, sum(node_waits) AS node_waits, sum(node_wait_seconds) AS node_wait_seconds
         FROM analytics_jobs WHERE ${jobs.sql} GROUP BY 1`,
        jobs.bindings,
      ),
      raw(
        `SELECT ${bucket} AS bucket, sum(left_items) AS left_items, sum(reported) AS reported, sum(succeeded) AS succeeded,
                sum(report_seconds) AS report_seconds, sum(success_seconds) AS success_seconds,
                sum(enqueued) AS enqueued, sum(queue_seconds) AS queue_seconds
         FROM analytics_items WHERE ${items.sql} GROUP BY 1`,
        items.bindings,
      ),
      raw(
        `SELECT ${bucket} AS bucket, cause, sum(resets) AS resets FROM analytics_resets
         WHERE ${items.sql} GROUP BY 1, 2 ORDER BY 1, 2`,
        items.bindings,
      ),
      raw(
        `SELECT ${bucket} AS bucket, label, sum(node_seconds) AS node_seconds FROM analytics_nodes
         WHERE ${nodes.sql} GROUP BY 1, 2`,
        nodes.bindings,
      ),
      raw(
        `SELECT job, sum(runs) AS runs, sum(successes) AS successes, sum(failures) AS failures,
                sum(retries) AS retries, sum(flaky) AS flaky, sum(success_seconds) AS success_seconds,
                sum(success_count) AS success_count
         FROM analytics_jobs WHERE ${jobs.sql} AND job <> '' GROUP BY job ORDER BY job`,
        jobs.bindings,
      ),
      raw(
        `SELECT extract(dow FROM hour AT TIME ZONE 'UTC') AS weekday, extract(hour FROM hour AT TIME ZONE 'UTC') AS hour,
                sum(enqueued) AS enqueued, sum(runs) AS runs
         FROM analytics_busy WHERE ${busy.sql} GROUP BY 1, 2`,
        busy.bindings,
      ),
    ]);
    const buckets = new Map<number, AnalyticsSums>();
    const sumsOf = (row: Row): AnalyticsSums => {
      const key = new Date(row.bucket as Date).getTime();
      let sums = buckets.get(key);
      if (sums === undefined) {
        sums = emptySums();
        buckets.set(key, sums);
      }
      return sums;
    };
    for (const row of jobRows) {
      const sums = sumsOf(row);
      sums.runs += number(row.runs);
      sums.successes += number(row.successes);
      sums.failures += number(row.failures);
      sums.retries += number(row.retries);
      sums.flaky += number(row.flaky);
      sums.flakyRetries += number(row.flaky_retries);
      sums.successSeconds += number(row.success_seconds);
      sums.successCount += number(row.success_count);
      sums.nodeWaits += number(row.node_waits);
      sums.nodeWaitSeconds += number(row.node_wait_seconds);
    }
    for (const row of itemRows) {
      const sums = sumsOf(row);
      sums.leftItems += number(row.left_items);
      sums.reported += number(row.reported);
      sums.succeeded += number(row.succeeded);
      sums.reportSeconds += number(row.report_seconds);
      sums.succeededSeconds += number(row.success_seconds);
      sums.enqueued += number(row.enqueued);
      sums.queueSeconds += number(row.queue_seconds);
    }
    for (const row of resetRows) {
      sumsOf(row).resets += number(row.resets);
    }
    const labels = new Map<string, number>();
    for (const row of nodeRows) {
      sumsOf(row).nodeSeconds += number(row.node_seconds);
      labels.set(String(row.label), (labels.get(String(row.label)) ?? 0) + number(row.node_seconds));
    }
    return {
      buckets,
      resetCauses: resetRows.map((row) => ({
        bucket: new Date(row.bucket as Date).getTime(),
        cause: String(row.cause),
        resets: number(row.resets),
      })),
      nodeSecondsByLabel: [...labels.entries()]
        .map(([label, seconds]) => ({ label, seconds }))
        .sort((a, b) => b.seconds - a.seconds || a.label.localeCompare(b.label)),
      busiestHours: busyRows.map((row) => ({
        weekday: number(row.weekday),
        hour: number(row.hour),
        enqueued: number(row.enqueued),
        runs: number(row.runs),
      })),
      jobs: jobTotals.map((row) => ({
        job: String(row.job),
        runs: number(row.runs),
        successes: number(row.successes),
        failures: number(row.failures),
        retries: number(row.retries),
        flaky: number(row.flaky),
        successSeconds: number(row.success_seconds),
        successCount: number(row.success_count),
      })),
    };
  }
}
