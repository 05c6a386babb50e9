/**
 * Queue analytics (docs/analytics.md#queue-analytics) on both stores with a fake clock: a gate
 * run through the engine (a failure resets the two items behind it, which then merge), then the
 * launcher's records (a node request and a node in use) and flaky runs written through the
 * repositories. Every figure the rollups give, through the repository and through GraphQL, is
 * checked against sums computed here from the raw rows (builds, queue items, gate resets).
 */
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { startLiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { canonical, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { AnalyticsRepository, type AnalyticsSums } from '../../../src/store/repositories/analytics';
import { BuildRepository } from '../../../src/store/repositories/builds';
import { BuildsetRepository } from '../../../src/store/repositories/buildsets';
import { NodeRepository } from '../../../src/store/repositories/nodes';
import { NodesetRequestRepository } from '../../../src/store/repositories/nodeset-requests';
import type { BuildResult } from '../../../src/model/results';
import { durationQuantiles, rawDurationQuantiles } from '../../../src/store/repositories/analytics-durations';
import { histogramCounts } from '../../../src/store/migrations/0029-duration-histograms';

/** The quantile at p of sorted values, at rank (n − 1)p + 1 between neighbours (percentile_cont). */
function type7(sorted: number[], p: number): number {
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (rank - low);
}

const PROJECT = canonical('org/project');
const MINUTE = 60_000;

describe.each(backends())('queue analytics (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;
  let start: Date;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { gate: [job('unit'), job('lint')] } },
      }),
    );
    await h.start();
    start = h.clock.now();
  });

  afterAll(async () => {
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  /** The day's sums of the tenant through the repository. */
  async function daySums(filter = {}): Promise<{ total: AnalyticsSums; causes: Map<string, number> }> {
    const from = new Date(start.getTime() - 24 * 60 * MINUTE);
    const to = new Date(start.getTime() + 24 * 60 * MINUTE);
    const result = await new AnalyticsRepository(db.knex).query(h.tenant, from, to, 'day', filter);
    const total = [...result.buckets.values()].reduce((sum, bucket) => {
      for (const key of Object.keys(sum) as Array<keyof AnalyticsSums>) {
        sum[key] += bucket[key];
      }
      return sum;
    });
    const causes = new Map<string, number>();
    for (const count of result.resetCauses) {
      causes.set(count.cause, (causes.get(count.cause) ?? 0) + count.resets);
    }
    return { total, causes };
  }

  it('counts a gate run as its raw rows do: resets and their cause, time to merge, queue time, runs', async () => {
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      expect(await h.enqueue('gate', 'org/project', `${number},1`)).toBe('ok');
      h.clock.advance(MINUTE);
    }
    // The head fails after 10 minutes: the two items tested on top of it start over.
    h.clock.advance(10 * MINUTE);
    await h.executor.finish('unit', 1, { result: 'FAILURE', durationMs: 0 });
    await h.executor.finish('lint', 1, { result: 'SUCCESS', durationMs: 0 });
    await h.settle();
    h.clock.advance(15 * MINUTE);
    await h.executor.finishAll({ result: 'SUCCESS', durationMs: 0 });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);

    const resets: Array<{ cause: string; caused_by: string; item_uuid: string }> = await db
      .knex('gate_resets')
      .where('tenant', h.tenant);
    const items: Array<{
      uuid: string;
      enqueue_time: Date;
      dequeue_time: Date;
      data: { dequeueReason: { result: string } };
    }> = await db.knex('queue_items').where('tenant', h.tenant).whereNotNull('dequeue_time');
    const head = items.find((item) => item.data.dequeueReason.result === 'FAILURE');
    expect(resets.map((reset) => [reset.cause, reset.caused_by]).sort()).toEqual([
      ['item-ahead-failed', head?.uuid],
      ['item-ahead-failed', head?.uuid],
    ]);
    const builds: Array<{ result: BuildResult; final: boolean; start_time: Date; end_time: Date }> = await db
      .knex('builds')
      .where('tenant', h.tenant)
      .whereNotNull('result');
    const seconds = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;
    const merged = items.filter((item) => item.data.dequeueReason.result === 'SUCCESS');
    const successes = builds.filter((build) => build.result === 'SUCCESS');

    const { total, causes } = await daySums();
    expect(causes).toEqual(new Map([['item-ahead-failed', 2]]));
    expect(total).toMatchObject({
      resets: 2,
      enqueued: 3,
      leftItems: 3,
      reported: 3,
      succeeded: 2,
      runs: builds.filter((build) => ['SUCCESS', 'FAILURE'].includes(build.result) && build.final).length,
      successes: successes.length,
      failures: builds.filter((build) => build.result === 'FAILURE').length,
      flaky: 0,
    });
    expect(total.succeededSeconds).toBeCloseTo(
      merged.reduce((sum, item) => sum + seconds(item.enqueue_time, item.dequeue_time), 0),
      3,
    );
    expect(total.queueSeconds).toBeCloseTo(
      items.reduce((sum, item) => sum + seconds(item.enqueue_time, item.dequeue_time), 0),
      3,
    );
    expect(total.successSeconds).toBeCloseTo(
      successes.reduce((sum, build) => sum + seconds(build.start_time, build.end_time), 0),
      3,
    );
    // By job: only lint's runs.
    const lint = await daySums({ jobs: ['lint'] });
    expect(lint.total.runs).toBe(3);
    expect(lint.total.resets).toBe(2);
  });

  it('counts node waits, node-hours by label and flaky runs', async () => {
    const requests = new NodesetRequestRepository(db.knex);
    const at = h.clock.now();
    await requests.create({
      uuid: `${h.tenant}-request`,
      tenant: h.tenant,
      pipelineName: 'gate',
      buildsetUuid: null,
      jobName: 'unit',
      project: PROJECT,
      alternatives: [['small']],
      priority: 200,
      relativePriority: 0,
      zuulEventId: null,
      imageNames: null,
      imageUploadUuid: null,
      preferredProvider: null,
      requestTime: at,
    });
    await requests.update(`${h.tenant}-request`, { state: 'fulfilled' }, new Date(at.getTime() + 90_000));
    const nodes = new NodeRepository(db.knex);
    const node = {
      uuid: `${h.tenant}-node`,
      tenant: h.tenant,
      provider: 'local',
      connection: null,
      label: 'small',
      labelConfigHash: null,
      requestUuid: null,
      maxReadyAge: null,
      created: at,
    };
    await nodes.create(node, at);
    await nodes.update(node.uuid, { state: 'in-use' }, at);
    await nodes.update(node.uuid, { state: 'used' }, new Date(at.getTime() + 150 * MINUTE));

    // The same revision fails in one reported buildset and passes in the next: flaky. A failure in
    // a reset buildset (its item ahead may have caused it) does not count.
    const ref = {
      project: 'org/project',
      projectCanonical: PROJECT,
      ref: 'refs/changes/9/1',
      change: 9,
      patchset: '1',
      branch: 'master',
    };
    const buildsets = new BuildsetRepository(db.knex);
    const builds = new BuildRepository(db.knex);
    const run = async (result: BuildResult, buildsetResult: 'FAILURE' | 'SUCCESS' | 'DEQUEUED', n: number) => {
      const { buildset, refs } = await buildsets.create({
        uuid: `${h.tenant}-flaky-${n}`,
        tenant: h.tenant,
        pipeline: 'check',
        refs: [ref],
        triggeredBy: 'test',
        at,
      });
      const build = await builds.start({
        buildsetId: buildset.id,
        uuid: `${h.tenant}-b${n}`,
        jobName: 'unit',
        startTime: at,
        refId: refs[0].id,
      });
      const done = await builds.complete(build.id, { result, endTime: new Date(at.getTime() + 60_000) });
      await buildsets.finish(buildset.id, { result: buildsetResult, message: null, at });
      return done;
    };
    await run('FAILURE', 'DEQUEUED', 1);
    expect((await run('SUCCESS', 'SUCCESS', 2)).id).toBeGreaterThan(0);
    await run('FAILURE', 'FAILURE', 3);
    await run('SUCCESS', 'SUCCESS', 4);
    const flags: Array<{ uuid: string; flaky: boolean }> = await db
      .knex('builds')
      .where('tenant', h.tenant)
      .where('uuid', 'like', `${h.tenant}-b%`)
      .orderBy('id')
      .select('uuid', 'flaky');
    // Run 2 passes after a failure in a reset buildset; run 3 fails after run 2 passed; run 4 passes after run 3 failed.
    expect(flags.map((flag) => flag.flaky)).toEqual([false, false, true, true]);

    const { total } = await daySums();
    expect(total).toMatchObject({ nodeWaits: 1, nodeWaitSeconds: 90, flaky: 2 });
    expect(total.nodeSeconds).toBeCloseTo(150 * 60, 3);
    const check = await daySums({ pipelines: ['check'] });
    expect(check.total).toMatchObject({ runs: 4, failures: 2, flaky: 2, resets: 0, leftItems: 0 });
  });

  it('gives the p50 and p90 of the successful runs of each bucket from the histograms, as the raw builds do', async () => {
    const hour = (at: Date) => Math.floor(at.getTime() / 3_600_000) * 3_600_000;
    const expected = async (job?: string, pipeline?: string) => {
      const rows: Array<{ start_time: Date; end_time: Date }> = await db
        .knex('builds')
        .where({ tenant: h.tenant, result: 'SUCCESS' })
        .whereNotNull('start_time')
        .modify((query) => (job === undefined ? query : query.where('job_name', job)))
        .modify((query) => (pipeline === undefined ? query : query.where({ pipeline })));
      const byHour = new Map<number, number[]>();
      for (const row of rows) {
        const list = byHour.get(hour(row.end_time)) ?? [];
        list.push((row.end_time.getTime() - row.start_time.getTime()) / 1000);
        byHour.set(hour(row.end_time), list);
      }
      return [...byHour.entries()]
        .sort(([a], [b]) => a - b)
        .map(([bucket, list]) => {
          const sorted = list.sort((a, b) => a - b);
          return { bucket, runs: sorted.length, p50: type7(sorted, 0.5), p90: type7(sorted, 0.9) };
        });
    };
    const ms = (buckets: Array<{ bucket: number; runs: number; p50: number; p90: number }>) =>
      buckets.map((b) => ({ ...b, p50: Math.round(b.p50 * 1000), p90: Math.round(b.p90 * 1000) }));
    // The histograms give the same runs, and quantiles within 2.5% plus 0.5 s of the exact ones.
    const close = (
      got: Array<{ bucket: number; runs: number; p50: number; p90: number }>,
      want: Array<{ bucket: number; runs: number; p50: number; p90: number }>,
    ) => {
      expect(got.map((b) => [b.bucket, b.runs])).toEqual(want.map((b) => [b.bucket, b.runs]));
      got.forEach((b, i) => {
        expect(Math.abs(b.p50 - want[i].p50)).toBeLessThanOrEqual(0.025 * want[i].p50 + 0.5);
        expect(Math.abs(b.p90 - want[i].p90)).toBeLessThanOrEqual(0.025 * want[i].p90 + 0.5);
      });
    };
    const from = new Date(hour(start) - 3_600_000);
    const to = new Date(hour(start) + 24 * 3_600_000);
    const want = await expected();
    expect(want.reduce((sum, bucket) => sum + bucket.runs, 0)).toBeGreaterThan(4);
    expect(ms(await rawDurationQuantiles(db.knex, h.tenant, from, to, 'hour', {}))).toEqual(ms(want));
    const all = await durationQuantiles(db.knex, h.tenant, from, to, 'hour', {});
    close(all, want);
    const lint = await expected('lint');
    const gateLint = await expected('lint', 'gate');
    close(
      await durationQuantiles(db.knex, h.tenant, from, to, 'hour', { jobs: ['lint'], pipelines: ['gate'] }),
      gateLint,
    );
    close(await durationQuantiles(db.knex, h.tenant, from, to, 'hour', { jobs: ['lint'] }), lint);
    close(await durationQuantiles(db.knex, h.tenant, from, to, 'hour', { projects: ['org/project'] }), want);
    const everyFilter = { pipelines: ['gate'], projects: [PROJECT], jobs: ['lint', 'unit'] };
    close(await durationQuantiles(db.knex, h.tenant, from, to, 'hour', everyFilter), await expected(undefined, 'gate'));
    // Another pipeline's filter leaves nothing.
    expect(await durationQuantiles(db.knex, h.tenant, from, to, 'day', { pipelines: ['post'] })).toEqual([]);
    // Every combination of dimensions counts every run, by hour and by day.
    const levels = (
      (await db.knex.raw(
        `SELECT grain, rolled, sum(runs) AS runs FROM analytics_durations WHERE tenant = ?
         GROUP BY 1, 2 ORDER BY 1, 2`,
        [h.tenant],
      )) as { rows: Array<{ grain: string; rolled: number; runs: string | number }> }
    ).rows;
    const total = want.reduce((sum, bucket) => sum + bucket.runs, 0);
    expect(levels.map((l) => [l.grain, l.rolled, Number(l.runs)])).toEqual(
      ['day', 'hour'].flatMap((grain) => [0, 1, 2, 3, 4, 5, 6, 7].map((rolled) => [grain, rolled, total])),
    );
    // The migration counts the history already stored as the triggers do.
    const kept = await db
      .knex('analytics_durations')
      .where({ tenant: h.tenant })
      .orderBy(['grain', 'rolled', 'bucket', 'pipeline', 'project', 'job', 'bin']);
    await db.knex('analytics_durations').where({ tenant: h.tenant }).delete();
    await db.knex.raw(histogramCounts('builds n', 'AND n.tenant = ?'), [h.tenant]);
    expect(
      await db
        .knex('analytics_durations')
        .where({ tenant: h.tenant })
        .orderBy(['grain', 'rolled', 'bucket', 'pipeline', 'project', 'job', 'bin']),
    ).toEqual(kept);
  });

  it('serves the series, rates and totals over GraphQL', async () => {
    const server = await startLiveServer(db, { harness: h });
    try {
      const query = /* GraphQL */ `
        query (
          $tenant: String!
          $from: DateTime!
          $to: DateTime!
          $interval: AnalyticsInterval
          $filter: AnalyticsFilter
        ) {
          tenant(name: $tenant) {
            ... on Tenant {
              analytics(from: $from, to: $to, interval: $interval, filter: $filter) {
                __typename
                ... on Analytics {
                  from
                  to
                  interval
                  series {
                    start
                    gateResets
                    runs
                    nodeHours
                  }
                  durations {
                    start
                    runs
                    p50
                    p90
                  }
                  totals {
                    itemsEnqueued
                    itemsReported
                    itemsSucceeded
                    timeToMerge
                    timeToReport
                    queueLength
                    nodeWaits
                    nodeWait
                    gateResets
                    resetCauses {
                      cause
                      resets
                    }
                    runs
                    failures
                    flaky
                    failureRate
                    flakeRate
                    meanDuration
                    nodeHours
                  }
                  jobs {
                    job
                    runs
                    failures
                    flaky
                    failureRate
                    flakeRate
                  }
                  nodeHours {
                    label
                    hours
                  }
                  busiestHours {
                    weekday
                    hour
                    itemsEnqueued
                    runs
                  }
                }
                ... on InvalidInputError {
                  message
                  field
                }
              }
            }
          }
        }
      `;
      const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
      const variables = {
        tenant: h.tenant,
        from: day.toISOString(),
        to: new Date(day.getTime() + 3 * 3_600_000).toISOString(),
      };
      const hourly = await server.graphql<{ tenant: { analytics: Record<string, unknown> } }>(query, {
        ...variables,
        interval: 'HOUR',
      });
      expect(hourly.errors).toBeUndefined();
      const analytics = hourly.data?.tenant.analytics as {
        series: Array<{ nodeHours: number }>;
        totals: Record<string, unknown>;
        jobs: Array<{ job: string; runs: number; flaky: number }>;
        nodeHours: unknown;
      };
      expect(analytics.series).toHaveLength(3);
      const durations = (hourly.data?.tenant.analytics as { durations: Array<{ runs: number; p50: number | null }> })
        .durations;
      expect(durations).toHaveLength(3);
      expect(durations.reduce((sum, bucket) => sum + bucket.runs, 0)).toBe(
        (
          await rawDurationQuantiles(db.knex, h.tenant, new Date(variables.from), new Date(variables.to), 'hour', {})
        ).reduce((sum, bucket) => sum + bucket.runs, 0),
      );
      expect(durations.filter((bucket) => bucket.runs === 0).every((bucket) => bucket.p50 === null)).toBe(true);
      expect(analytics.series.reduce((sum, bucket) => sum + bucket.nodeHours, 0)).toBeCloseTo(2.5, 5);
      expect(analytics.nodeHours).toEqual([{ label: 'small', hours: 2.5 }]);
      const totals = analytics.totals;
      expect(totals).toMatchObject({
        itemsEnqueued: 3,
        itemsReported: 3,
        itemsSucceeded: 2,
        gateResets: 2,
        resetCauses: [{ cause: 'ITEM_AHEAD_FAILED', resets: 2 }],
        nodeWaits: 1,
        nodeWait: 90,
        flaky: 2,
      });
      expect(totals.flakeRate).toBeCloseTo(2 / (totals.runs as number), 5);
      expect(totals.failureRate).toBeCloseTo((totals.failures as number) / (totals.runs as number), 5);
      // Items stayed 28, 27 and 12 minutes on average over the three hours: (items-seconds) / 10,800 s.
      expect(totals.queueLength).toBeGreaterThan(0);
      expect(analytics.jobs.find((entry) => entry.job === 'unit')).toMatchObject({ flaky: 2 });

      const backwards = await server.graphql<{ tenant: { analytics: unknown } }>(query, {
        ...variables,
        from: variables.to,
        to: variables.from,
      });
      expect(backwards.data?.tenant.analytics).toEqual({
        __typename: 'InvalidInputError',
        message: '`to` must be after `from`',
        field: 'to',
      });
      const tooFine = await server.graphql<{ tenant: { analytics: unknown } }>(query, {
        ...variables,
        from: new Date(day.getTime() - 200 * 24 * 3_600_000).toISOString(),
        interval: 'HOUR',
      });
      expect(tooFine.data?.tenant.analytics).toMatchObject({ __typename: 'InvalidInputError', field: 'interval' });
    } finally {
      await server.stop();
    }
  });
});
