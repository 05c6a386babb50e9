/**
 * Queue analytics (docs/analytics.md#queue-analytics): `Tenant.analytics` sums the hourly
 * rollups over a time range by bucket: time to merge, queue length, node waits, gate resets and
 * their causes, job durations, failure and flake rates, node-hours by label, busiest hours.
 */
import { GATE_RESET_CAUSES, type GateResetCauseKind } from '../src/model/gate-resets';
import {
  AnalyticsRepository,
  emptySums,
  type AnalyticsInterval as IntervalValue,
  type AnalyticsFilter as AnalyticsFilterValue,
  type AnalyticsResult,
  type AnalyticsSums,
} from '../src/store/repositories/analytics';
import { durationQuantiles, type DurationQuantiles } from '../src/store/repositories/analytics-durations';
import { builder } from './infra/builder';
import { perServices } from './infra/context';
import { InvalidInputError } from './infra/error-classes';
import { Tenant } from './tenant';

const analyticsStore = perServices((knex) => new AnalyticsRepository(knex));
const durationStore = perServices((knex) => ({
  read: (tenant: string, from: Date, to: Date, interval: IntervalValue, filter: AnalyticsFilterValue) =>
    durationQuantiles(knex, tenant, from, to, interval, filter),
}));

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The longest range, and the most buckets, one query may ask for. */
export const MAX_RANGE_DAYS = 400;
export const MAX_BUCKETS = 2_000;

export const AnalyticsInterval = builder.enumType('AnalyticsInterval', {
  description: 'The size of the buckets of an analytics series (UTC; weeks start on Monday).',
  values: {
    HOUR: { value: 'hour', description: 'One hour.' },
    DAY: { value: 'day', description: 'One UTC day.' },
    WEEK: { value: 'week', description: 'One ISO week, from Monday 00:00 UTC.' },
  } as const satisfies Record<string, { value: IntervalValue; description: string }>,
});

export const GateResetCause = builder.enumType('GateResetCause', {
  description: 'What made an item start over (docs/analytics.md#gate-resets).',
  values: Object.fromEntries(
    GATE_RESET_CAUSES.map((cause) => [
      cause.toUpperCase().replaceAll('-', '_'),
      { value: cause, description: `Reset cause \`${cause}\` (docs/analytics.md#gate-resets).` },
    ]),
  ) as Record<string, { value: GateResetCauseKind; description: string }>,
});

const AnalyticsFilter = builder.inputType('AnalyticsFilter', {
  description: "Which part of the tenant's history to sum (values OR'ed; absent: all).",
  fields: (t) => ({
    pipelines: t.stringList({ description: 'Pipeline names.' }),
    projects: t.stringList({ description: 'Project names or canonical names.' }),
    jobs: t.stringList({ description: 'Job names (only the job figures: runs, durations, rates, node waits).' }),
  }),
});

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

interface BucketValue {
  start: number;
  end: number;
  sums: AnalyticsSums;
  causes: Array<{ cause: string; resets: number }>;
}

const GateResetCount = builder.objectRef<{ cause: string; resets: number }>('GateResetCount').implement({
  description: 'Items reset for one cause.',
  fields: (t) => ({
    cause: t.field({
      type: GateResetCause,
      nullable: false,
      description: 'The cause.',
      resolve: (count) => count.cause as GateResetCauseKind,
    }),
    resets: t.exposeInt('resets', { nullable: false, description: 'Items reset.' }),
  }),
});

const AnalyticsBucket = builder.objectRef<BucketValue>('AnalyticsBucket').implement({
  description: 'The sums of one bucket of time (docs/analytics.md#queue-analytics).',
  fields: (t) => ({
    start: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'Start (inclusive).',
      resolve: (b) => new Date(b.start),
    }),
    end: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'End (exclusive).',
      resolve: (b) => new Date(b.end),
    }),
    itemsEnqueued: t.int({
      nullable: false,
      description: 'Items enqueued (counted once they left).',
      resolve: (b) => b.sums.enqueued,
    }),
    itemsReported: t.int({ nullable: false, description: 'Items that reported.', resolve: (b) => b.sums.reported }),
    itemsSucceeded: t.int({
      nullable: false,
      description: 'Items that reported SUCCESS (merged, in a pipeline that merges).',
      resolve: (b) => b.sums.succeeded,
    }),
    timeToMerge: t.float({
      description: 'Mean seconds from enqueue to a SUCCESS report (the merge, in a gate); null without one.',
      resolve: (b) => ratio(b.sums.succeededSeconds, b.sums.succeeded),
    }),
    timeToReport: t.float({
      description: 'Mean seconds from enqueue to any report; null without one.',
      resolve: (b) => ratio(b.sums.reportSeconds, b.sums.reported),
    }),
    queueLength: t.float({
      nullable: false,
      description: 'Mean number of items in the queues (item-seconds over the seconds of the bucket).',
      resolve: (b) => b.sums.queueSeconds / ((b.end - b.start) / 1000),
    }),
    nodeWaits: t.int({ nullable: false, description: 'Node requests fulfilled.', resolve: (b) => b.sums.nodeWaits }),
    nodeWait: t.float({
      description: 'Mean seconds from a node request to its nodes; null without one.',
      resolve: (b) => ratio(b.sums.nodeWaitSeconds, b.sums.nodeWaits),
    }),
    gateResets: t.int({ nullable: false, description: 'Items reset.', resolve: (b) => b.sums.resets }),
    runs: t.int({
      nullable: false,
      description: 'Finished runs (successes and failures).',
      resolve: (b) => b.sums.runs,
    }),
    failures: t.int({ nullable: false, description: 'Failed runs.', resolve: (b) => b.sums.failures }),
    retries: t.int({ nullable: false, description: 'Retried attempts.', resolve: (b) => b.sums.retries }),
    flaky: t.int({
      nullable: false,
      description: 'Runs whose result differs from an earlier run on the same revision.',
      resolve: (b) => b.sums.flaky,
    }),
    flakyRetries: t.int({
      nullable: false,
      description:
        'Failed runs retried in place because their job is known-flaky (docs/analytics.md#flake-aware-gating): gate resets avoided.',
      resolve: (b) => b.sums.flakyRetries,
    }),
    failureRate: t.float({
      description: 'Failed runs over runs; null without runs.',
      resolve: (b) => ratio(b.sums.failures, b.sums.runs),
    }),
    flakeRate: t.float({
      description: 'Flaky runs over runs; null without runs.',
      resolve: (b) => ratio(b.sums.flaky, b.sums.runs),
    }),
    meanDuration: t.float({
      description: 'Mean seconds of the successful runs; null without one.',
      resolve: (b) => ratio(b.sums.successSeconds, b.sums.successCount),
    }),
    nodeHours: t.float({
      nullable: false,
      description: 'Hours nodes were in use (every label).',
      resolve: (b) => b.sums.nodeSeconds / 3600,
    }),
    resetCauses: t.field({
      type: [GateResetCount],
      nullable: false,
      description: 'Items reset, by cause.',
      resolve: (b) => b.causes,
    }),
  }),
});

const JobAnalytics = builder.objectRef<AnalyticsResult['jobs'][number]>('JobAnalytics').implement({
  description: "One job's runs over the range.",
  fields: (t) => ({
    job: t.exposeString('job', { nullable: false, description: 'Job name.' }),
    runs: t.exposeInt('runs', { nullable: false, description: 'Finished runs.' }),
    failures: t.exposeInt('failures', { nullable: false, description: 'Failed runs.' }),
    retries: t.exposeInt('retries', { nullable: false, description: 'Retried attempts.' }),
    flaky: t.exposeInt('flaky', { nullable: false, description: 'Flaky runs.' }),
    failureRate: t.float({ description: 'Failed over finished runs.', resolve: (j) => ratio(j.failures, j.runs) }),
    flakeRate: t.float({ description: 'Flaky over finished runs.', resolve: (j) => ratio(j.flaky, j.runs) }),
    meanDuration: t.float({
      description: 'Mean seconds of successful runs.',
      resolve: (j) => ratio(j.successSeconds, j.successCount),
    }),
  }),
});

const LabelNodeHours = builder.objectRef<{ label: string; seconds: number }>('LabelNodeHours').implement({
  description: 'Node-hours of one label.',
  fields: (t) => ({
    label: t.exposeString('label', { nullable: false, description: 'Node label.' }),
    hours: t.float({ nullable: false, description: 'Hours in use.', resolve: (l) => l.seconds / 3600 }),
  }),
});

const BusyHour = builder.objectRef<AnalyticsResult['busiestHours'][number]>('BusyHour').implement({
  description: 'One hour of the week (UTC) over the range.',
  fields: (t) => ({
    weekday: t.exposeInt('weekday', { nullable: false, description: 'Day of the week, 0 = Sunday (UTC).' }),
    hour: t.exposeInt('hour', { nullable: false, description: 'Hour of the day (UTC).' }),
    itemsEnqueued: t.int({ nullable: false, description: 'Items enqueued.', resolve: (h) => h.enqueued }),
    runs: t.exposeInt('runs', { nullable: false, description: 'Runs finished.' }),
  }),
});

interface AnalyticsValue {
  tenant: string;
  from: number;
  to: number;
  interval: IntervalValue;
  filter: AnalyticsFilterValue;
  result: AnalyticsResult;
}

interface DurationBucketValue {
  start: number;
  end: number;
  quantiles: DurationQuantiles | undefined;
}

const DurationBucket = builder.objectRef<DurationBucketValue>('DurationBucket').implement({
  description:
    'How long the successful runs that ended in one bucket took (docs/analytics.md#duration-quantiles), in seconds.',
  fields: (t) => ({
    start: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'Start (inclusive).',
      resolve: (b) => new Date(b.start),
    }),
    end: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'End (exclusive).',
      resolve: (b) => new Date(b.end),
    }),
    runs: t.int({
      nullable: false,
      description: 'Successful runs (with a start time).',
      resolve: (b) => b.quantiles?.runs ?? 0,
    }),
    p50: t.float({ description: 'Median duration; null without runs.', resolve: (b) => b.quantiles?.p50 ?? null }),
    p90: t.float({
      description: '90th percentile of the durations; null without runs.',
      resolve: (b) => b.quantiles?.p90 ?? null,
    }),
  }),
});

function stepOf(interval: IntervalValue): number {
  return interval === 'hour' ? HOUR_MS : interval === 'day' ? DAY_MS : 7 * DAY_MS;
}

/** Every bucket start in [from, to) (the first may start before `from`). */
function bucketStarts(from: number, to: number, interval: IntervalValue): number[] {
  const start = new Date(from);
  if (interval !== 'hour') {
    start.setUTCHours(0, 0, 0, 0);
  } else {
    start.setUTCMinutes(0, 0, 0);
  }
  if (interval === 'week') {
    start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  }
  const step = stepOf(interval);
  const starts: number[] = [];
  for (let at = start.getTime(); at < to; at += step) {
    starts.push(at);
  }
  return starts;
}

function series(value: AnalyticsValue): BucketValue[] {
  const step = stepOf(value.interval);
  return bucketStarts(value.from, value.to, value.interval).map((start) => ({
    start,
    end: start + step,
    sums: value.result.buckets.get(start) ?? emptySums(),
    causes: value.result.resetCauses.filter((count) => count.bucket === start),
  }));
}

function totals(value: AnalyticsValue): BucketValue {
  const sums = emptySums();
  for (const bucket of value.result.buckets.values()) {
    for (const key of Object.keys(sums) as Array<keyof AnalyticsSums>) {
      sums[key] += bucket[key];
    }
  }
  const causes = new Map<string, number>();
  for (const count of value.result.resetCauses) {
    causes.set(count.cause, (causes.get(count.cause) ?? 0) + count.resets);
  }
  return {
    start: value.from,
    end: value.to,
    sums,
    causes: [...causes.entries()].map(([cause, resets]) => ({ cause, resets })),
  };
}

const Analytics = builder.objectRef<AnalyticsValue>('Analytics').implement({
  description: "Sums of the tenant's queues over a time range (docs/analytics.md#queue-analytics).",
  fields: (t) => ({
    from: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'Range start: `from` rounded down to the start of its bucket.',
      resolve: (v) => new Date(v.from),
    }),
    to: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'Range end (exclusive): `to` rounded up to the end of its bucket.',
      resolve: (v) => new Date(v.to),
    }),
    interval: t.field({
      type: AnalyticsInterval,
      nullable: false,
      description: 'Bucket size.',
      resolve: (v) => v.interval,
    }),
    series: t.field({
      type: [AnalyticsBucket],
      nullable: false,
      description: 'Every bucket of the range in order, empty ones included.',
      resolve: series,
    }),
    totals: t.field({
      type: AnalyticsBucket,
      nullable: false,
      description: 'The whole range as one bucket.',
      resolve: totals,
    }),
    durations: t.field({
      type: [DurationBucket],
      nullable: false,
      description:
        'Every bucket with the p50 and p90 duration of its successful runs, read from the duration histograms (within 2.5% plus 0.5 s of the exact value).',
      resolve: async (v, _args, ctx) => {
        const step = stepOf(v.interval);
        const rows = await durationStore(ctx).read(v.tenant, new Date(v.from), new Date(v.to), v.interval, v.filter);
        const byStart = new Map(rows.map((row) => [row.bucket, row]));
        return bucketStarts(v.from, v.to, v.interval).map((start) => ({
          start,
          end: start + step,
          quantiles: byStart.get(start),
        }));
      },
    }),
    jobs: t.field({
      type: [JobAnalytics],
      nullable: false,
      description: 'Each job with runs in the range, by name.',
      resolve: (v) => v.result.jobs,
    }),
    nodeHours: t.field({
      type: [LabelNodeHours],
      nullable: false,
      description: 'Node-hours by label, most first (not filtered by pipeline, project or job).',
      resolve: (v) => v.result.nodeSecondsByLabel,
    }),
    busiestHours: t.field({
      type: [BusyHour],
      nullable: false,
      description: 'Hours of the week with items enqueued or runs finished, busiest (most items enqueued) first.',
      resolve: (v) =>
        [...v.result.busiestHours].sort(
          (a, b) => b.enqueued - a.enqueued || b.runs - a.runs || a.weekday - b.weekday || a.hour - b.hour,
        ),
    }),
  }),
});

builder.objectField(Tenant, 'analytics', (t) =>
  t.field({
    type: Analytics,
    description: `Queue analytics over [from, to) (at most ${MAX_RANGE_DAYS} days and ${MAX_BUCKETS} buckets, else an InvalidInputError).`,
    args: {
      from: t.arg({ type: 'DateTime', required: true, description: 'Range start.' }),
      to: t.arg({ type: 'DateTime', required: true, description: 'Range end (exclusive).' }),
      interval: t.arg({ type: AnalyticsInterval, description: 'Bucket size; DAY when absent.' }),
      filter: t.arg({ type: AnalyticsFilter, description: 'What to sum; everything when absent.' }),
    },
    errors: {
      types: [InvalidInputError],
      directResult: true,
      union: { name: 'TenantAnalyticsResult', description: 'The analytics, or an InvalidInputError for a bad range.' },
    },
    resolve: async (tenant, args, ctx) => {
      const from = args.from.getTime();
      const to = args.to.getTime();
      const interval = args.interval ?? 'day';
      if (!(to > from)) {
        throw new InvalidInputError('`to` must be after `from`', 'to');
      }
      if (to - from > MAX_RANGE_DAYS * DAY_MS) {
        throw new InvalidInputError(`At most ${MAX_RANGE_DAYS} days`, 'from');
      }
      if (bucketStarts(from, to, interval).length > MAX_BUCKETS) {
        throw new InvalidInputError(`At most ${MAX_BUCKETS} buckets: use a larger interval`, 'interval');
      }
      // Whole buckets: `from` down to its bucket's start, `to` up to its bucket's end.
      const starts = bucketStarts(from, to, interval);
      const first = starts[0];
      const last = starts[starts.length - 1] + stepOf(interval);
      const filter = {
        pipelines: args.filter?.pipelines ?? undefined,
        projects: args.filter?.projects ?? undefined,
        jobs: args.filter?.jobs ?? undefined,
      };
      const result = await analyticsStore(ctx).query(tenant.name, new Date(first), new Date(last), interval, filter);
      return { tenant: tenant.name, from: first, to: last, interval, filter, result };
    },
  }),
);
