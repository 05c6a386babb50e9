/**
 * `/t/{tenant}/analytics`: how the tenant's gate has been doing (docs/analytics.md#the-analytics-page),
 * from `Tenant.analytics` over a time range (`range`: 1d, 7d, 30d or 90d; `interval`: hour, day or
 * week) with the pipeline, project and job filters in the URL: totals, job durations (p50 and p90),
 * failure and flake rates, gate resets by cause, queue length, time to merge, node-hours by label,
 * busiest hours, each job, the quarantine list and the latest flaky retries.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useQuery, useSubscription } from '../api/hooks';
import { ErrorBox, Loading, PageTitle } from '../components/common';
import {
  AnalyticsChoicesDocument,
  AnalyticsDurationsDocument,
  AnalyticsHistoryUpdatesDocument,
  TenantAnalyticsDocument,
  type AnalyticsDurationsQuery,
  type AnalyticsInterval,
} from '../generated/graphql';
import { useUrlParams } from '../url';
import { BusiestHours, JobTable, NodeHoursBars } from './breakdowns';
import { axisSeconds, COLORS, count, percent, shortSeconds, type AnalyticsData } from './numbers';
import { FlakyRetries, QuarantineList } from './quarantine';
import { TimeChart, type ChartSeries, type TimeChartProps } from './time-chart';
import './analytics.css';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RANGES: Array<[string, string, number]> = [
  ['1d', 'last 24 hours', DAY],
  ['7d', 'last 7 days', 7 * DAY],
  ['30d', 'last 30 days', 30 * DAY],
  ['90d', 'last 90 days', 90 * DAY],
];
const INTERVALS: Array<[AnalyticsInterval, string, number]> = [
  ['HOUR', 'by hour', HOUR],
  ['DAY', 'by day', DAY],
  ['WEEK', 'by week', 7 * DAY],
];

type Bucket = AnalyticsData['series'][number];
type DurationData = Extract<
  NonNullable<Extract<AnalyticsDurationsQuery['tenant'], { __typename: 'Tenant' }>['analytics']>,
  { __typename: 'Analytics' }
>['durations'];

const CAUSES: Array<[string, string]> = [
  ['ITEM_AHEAD_FAILED', 'item ahead failed'],
  ['MERGE_FAILED', 'merge failed'],
  ['REQUIREMENTS_NOT_MET', 'requirements not met'],
  ['DEPENDENCY_DEQUEUED', 'dependency dequeued'],
  ['ITEM_AHEAD_DEQUEUED', 'item ahead dequeued'],
  ['PROMOTED', 'promoted'],
];

/** The range the URL asks for: `to` the end of the current hour. */
function useRange(): { range: string; from: string; to: string; interval: AnalyticsInterval; step: number } {
  const params = useUrlParams();
  const range = RANGES.find(([key]) => key === params.get('range')) ?? RANGES[1];
  const asked = INTERVALS.find(([key]) => key.toLowerCase() === params.get('interval'));
  const interval = asked ?? (range[2] <= DAY ? INTERVALS[0] : range[2] <= 30 * DAY ? INTERVALS[1] : INTERVALS[2]);
  // Rounded to the hour so the query (and its variables) stays the same for an hour.
  const end = Math.ceil(Date.now() / HOUR) * HOUR;
  return {
    range: range[0],
    from: new Date(end - range[2]).toISOString(),
    to: new Date(end).toISOString(),
    interval: interval[0],
    step: interval[2],
  };
}

function Filters({ tenant, range, interval }: { tenant: string; range: string; interval: AnalyticsInterval }) {
  const params = useUrlParams();
  const { data } = useQuery(AnalyticsChoicesDocument, { tenant });
  const choices = data?.tenant?.__typename === 'Tenant' ? data.tenant : undefined;
  const select = (name: string, label: string, value: string, options: Array<[string, string]>, any?: string) => (
    <label>
      {label}
      <select value={value} onChange={(e) => params.set({ [name]: e.target.value })}>
        {any !== undefined && <option value="">{any}</option>}
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
  const names = (list: Array<{ name: string }> | undefined, current: string): Array<[string, string]> => {
    const all = new Set((list ?? []).map((entry) => entry.name));
    if (current !== '') {
      all.add(current);
    }
    return [...all].sort().map((name) => [name, name]);
  };
  return (
    <form className="filters" role="search" aria-label="Which history" onSubmit={(e) => e.preventDefault()}>
      {select(
        'range',
        'Range',
        range,
        RANGES.map(([key, text]) => [key, text]),
      )}
      {select(
        'interval',
        'Buckets',
        interval.toLowerCase(),
        INTERVALS.map(([key, text]) => [key.toLowerCase(), text]),
      )}
      {select(
        'pipeline',
        'Pipeline',
        params.get('pipeline') ?? '',
        names(choices?.pipelines, params.get('pipeline') ?? ''),
        'any',
      )}
      {select(
        'project',
        'Project',
        params.get('project') ?? '',
        names(choices?.projects, params.get('project') ?? ''),
        'any',
      )}
      {select('job', 'Job', params.get('job') ?? '', names(choices?.jobs, params.get('job') ?? ''), 'any')}
    </form>
  );
}

function Totals({ totals }: { totals: Bucket }) {
  const tiles: Array<[string, string, string]> = [
    ['merged', 'Items merged', String(totals.itemsSucceeded)],
    ['time-to-merge', 'Time to merge', totals.timeToMerge === null ? '–' : shortSeconds(totals.timeToMerge)],
    ['queue-length', 'Queue length', count(totals.queueLength)],
    ['runs', 'Runs', String(totals.runs)],
    ['failure-rate', 'Failure rate', totals.failureRate === null ? '–' : percent(totals.failureRate)],
    ['flake-rate', 'Flake rate', totals.flakeRate === null ? '–' : percent(totals.flakeRate)],
    ['gate-resets', 'Gate resets', String(totals.gateResets)],
    ['flaky-retries', 'Resets avoided (flaky retries)', String(totals.flakyRetries)],
    ['node-wait', 'Node wait', totals.nodeWait === null ? '–' : shortSeconds(totals.nodeWait)],
    ['node-hours', 'Node-hours', count(totals.nodeHours)],
  ];
  return (
    <dl className="analytics-totals" aria-label="Totals over the range">
      {tiles.map(([key, label, value]) => (
        <div key={key} data-total={key}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The time series charts of one answer. */
function Charts({
  analytics,
  durations: quantiles,
  step,
}: {
  analytics: AnalyticsData;
  /** Undefined while they load. */
  durations: DurationData | undefined;
  step: number;
}) {
  const charts = useMemo(() => {
    const starts = analytics.series.map((bucket) => new Date(bucket.start).getTime());
    const pick = (f: (bucket: Bucket) => number | null) => analytics.series.map(f);
    const durations = new Map((quantiles ?? []).map((d) => [new Date(d.start).getTime(), d]));
    const causes = CAUSES.filter(([cause]) => analytics.totals.resetCauses.some((c) => c.cause === cause));
    const line = (label: string, values: Array<number | null>, color: string, dash = false): ChartSeries => ({
      label,
      values,
      color,
      dash,
    });
    return {
      starts,
      durations: [
        line(
          'p50',
          starts.map((s) => durations.get(s)?.p50 ?? null),
          COLORS[0],
        ),
        line(
          'p90',
          starts.map((s) => durations.get(s)?.p90 ?? null),
          COLORS[1],
        ),
        line(
          'mean',
          pick((b) => b.meanDuration),
          COLORS[6],
          true,
        ),
      ],
      rates: [
        line(
          'failure rate',
          pick((b) => b.failureRate),
          COLORS[1],
        ),
        line(
          'flake rate',
          pick((b) => b.flakeRate),
          COLORS[2],
        ),
      ],
      resets: (causes.length > 0 ? causes : [['', 'resets']]).map(([cause, label], i): ChartSeries => ({
        label,
        values: analytics.series.map((b) => b.resetCauses.find((c) => c.cause === cause)?.resets ?? 0),
        color: COLORS[i % COLORS.length],
        kind: 'bar',
      })),
      queue: [
        line(
          'mean items',
          pick((b) => b.queueLength),
          COLORS[3],
        ),
      ],
      merge: [
        line(
          'to merge',
          pick((b) => b.timeToMerge),
          COLORS[4],
        ),
        line(
          'to report',
          pick((b) => b.timeToReport),
          COLORS[0],
          true,
        ),
        line(
          'node wait',
          pick((b) => b.nodeWait),
          COLORS[5],
          true,
        ),
      ],
    };
  }, [analytics, quantiles]);
  const seconds = { format: shortSeconds, axisFormat: axisSeconds };
  const shown: Array<Omit<TimeChartProps, 'starts' | 'step'>> = [
    {
      title: 'Job durations',
      series: charts.durations,
      ...seconds,
      note: `Successful runs that ended in each bucket: median (p50), 9 in 10 (p90) and mean.${quantiles === undefined ? ' Reading the p50 and p90 from the builds…' : ''}`,
    },
    {
      title: 'Failure and flake rates',
      series: charts.rates,
      format: percent,
      note: 'Failed runs, and runs whose result differs from an earlier run of the same revision, over finished runs.',
    },
    {
      title: 'Gate resets by cause',
      series: charts.resets,
      format: count,
      stacked: true,
      note: 'Items that started over, by what happened ahead of them.',
    },
    {
      title: 'Queue length',
      series: charts.queue,
      format: count,
      note: 'Mean number of items in the queues (items count once they left).',
    },
    {
      title: 'Time to merge',
      series: charts.merge,
      ...seconds,
      note: 'Mean time from enqueue to a successful report (the merge, in a gate), to any report, and from a node request to its nodes.',
    },
  ];
  return (
    <div className="analytics-charts">
      {shown.map((chart) => (
        <TimeChart key={chart.title} starts={charts.starts} step={step} {...chart} />
      ))}
    </div>
  );
}

/** The shortest time between two readings caused by new history. */
const REFRESH_MS = 10_000;

/**
 * Call `refresh` when the tenant's history changes (a buildset recorded, one of its builds
 * completing, its result), at most once per REFRESH_MS: the page follows new history live.
 */
function useHistoryRefresh(tenant: string, refresh: () => void): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const timer = useRef<{ handle?: ReturnType<typeof setTimeout>; last: number }>({ last: 0 });
  useEffect(() => () => clearTimeout(timer.current.handle), []);
  useSubscription(AnalyticsHistoryUpdatesDocument, { tenant }, () => {
    const state = timer.current;
    if (state.handle !== undefined) {
      return;
    }
    state.handle = setTimeout(
      () => {
        state.handle = undefined;
        state.last = Date.now();
        latest.current();
      },
      Math.max(0, state.last + REFRESH_MS - Date.now()),
    );
  });
}

export default function AnalyticsPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { range, from, to, interval, step } = useRange();
  const list = (name: string) => (params.all(name).length > 0 ? params.all(name) : undefined);
  const filter = { pipelines: list('pipeline'), projects: list('project'), jobs: list('job') };
  const variables = { tenant, from, to, interval, filter };
  const { data, error, refetch } = useQuery(TenantAnalyticsDocument, variables);
  const quantiles = useQuery(AnalyticsDurationsDocument, variables);
  useHistoryRefresh(tenant, () => {
    refetch();
    quantiles.refetch();
  });
  // While a refresh of the same view is read, the last reading stays; a new view waits for its own.
  const durations =
    quantiles.dataKey === JSON.stringify(variables) &&
    quantiles.data?.tenant?.__typename === 'Tenant' &&
    quantiles.data.tenant.analytics?.__typename === 'Analytics'
      ? quantiles.data.tenant.analytics.durations
      : undefined;
  const answer = data?.tenant?.__typename === 'Tenant' ? data.tenant.analytics : undefined;
  return (
    <section className="analytics-page">
      <PageTitle>Analytics</PageTitle>
      <Filters tenant={tenant} range={range} interval={interval} />
      {error !== undefined && <ErrorBox error={error} />}
      {data === undefined && error === undefined && <Loading what="the analytics" />}
      {data?.tenant !== undefined && data.tenant !== null && data.tenant.__typename !== 'Tenant' && (
        <ErrorBox error={data.tenant.message} />
      )}
      {answer?.__typename === 'InvalidInputError' && <ErrorBox error={answer.message} />}
      {answer?.__typename === 'Analytics' && (
        <>
          <p className="muted small" data-range={`${answer.from}/${answer.to}`}>
            {answer.from.slice(0, 16).replace('T', ' ')} to {answer.to.slice(0, 16).replace('T', ' ')} UTC
            {filter.jobs ? '; the job filter narrows the job figures only (runs, durations, rates, node waits)' : ''}.
          </p>
          <Totals totals={answer.totals} />
          <Charts analytics={answer} durations={durations} step={step} />
          <div className="analytics-breakdowns">
            <NodeHoursBars labels={answer.nodeHours} />
            <BusiestHours hours={answer.busiestHours} />
          </div>
          <JobTable jobs={answer.jobs} onPick={(job) => params.set({ job })} />
        </>
      )}
      <QuarantineList tenant={tenant} />
      <FlakyRetries tenant={tenant} />
    </section>
  );
}
