/**
 * Queue analytics on a large history (docs/analytics.md#speed): `builds` builds (default
 * 1,000,000) over 180 days in 5 pipelines x 20 projects x 10 jobs, a quarter as many items that
 * left the queues, and a gate reset for one item in ten, bulk-inserted (the rollup triggers
 * maintain the sums as they go); then `Tenant.analytics` for the last 30 days, through the
 * repository and through GraphQL on a real server, against the same sums read from the raw rows.
 *
 *   npx tsx bench/analytics-query.ts [builds] [runs]          # embedded PGlite in memory
 *   DATABASE_URL=postgres://... npx tsx bench/analytics-query.ts
 */
import { loadavg } from 'node:os';
import { durationQuantiles, rawDurationQuantiles } from '../src/store/repositories/analytics-durations';
import { AnalyticsRepository } from '../src/store/repositories/analytics';
import type { Database } from '../src/store/database';
import { startLiveServer } from '../test/helpers/live';
import { openBenchDatabase } from './bench-database';

const DAYS = 180;
const CHUNK = 100_000;
const T_END = Date.parse('2026-06-30T00:00:00Z');

/** Insert `count` finished builds (4 per buildset) and `count / 4` dequeued items, in chunks. */
async function fill(database: Database, count: number): Promise<void> {
  const knex = database.knex;
  const span = DAYS * 86_400;
  for (let first = 0; first < count; first += CHUNK) {
    const last = Math.min(count, first + CHUNK) - 1;
    const sets = `generate_series(${Math.floor(first / 4)}, ${Math.floor(last / 4)}) AS s(n)`;
    await knex.raw(`
      INSERT INTO buildsets (uuid, tenant, pipeline, result, created, updated)
      SELECT 'bs-' || n, 'bench', 'pipeline-' || (n % 5), CASE WHEN n % 7 = 0 THEN 'FAILURE' ELSE 'SUCCESS' END,
             to_timestamp(${T_END / 1000} - ${span} + (n::bigint * 104729 % ${span})), to_timestamp(${T_END / 1000} - ${span} + (n::bigint * 104729 % ${span}) + 900)
      FROM ${sets} ON CONFLICT DO NOTHING`);
    await knex.raw(`
      INSERT INTO builds (buildset_id, tenant, uuid, job_name, result, start_time, end_time, final, pipeline, project,
                          project_canonical, branch)
      SELECT bs.id, 'bench', 'b-' || n, 'job-' || (n % 10),
             CASE WHEN n % 11 = 0 THEN 'FAILURE' WHEN n % 53 = 0 THEN 'RETRY' ELSE 'SUCCESS' END,
             bs.created, bs.created + ((120 + n % 600) * interval '1 second'), n % 53 <> 0 OR n % 11 = 0,
             bs.pipeline, 'org/project-' || (n / 4 % 20), 'git.example.com/org/project-' || (n / 4 % 20), 'master'
      FROM generate_series(${first}, ${last}) AS g(n) JOIN buildsets bs ON bs.uuid = 'bs-' || (n / 4)`);
    await knex.raw(`
      INSERT INTO queue_items (uuid, tenant, pipeline, queue_id, position, changes, enqueue_time, dequeue_time,
                               dequeue_reason, data)
      SELECT 'item-' || n, 'bench', 'pipeline-' || (n % 5), NULL, 0,
             jsonb_build_array(jsonb_build_object('project', 'git.example.com/org/project-' || (n % 20))),
             to_timestamp(${T_END / 1000} - ${span} + (n::bigint * 104729 % ${span})) - interval '5 minutes',
             to_timestamp(${T_END / 1000} - ${span} + (n::bigint * 104729 % ${span}) + 900), 'reported',
             jsonb_build_object('dequeueReason', jsonb_build_object('kind', 'reported', 'result',
               CASE WHEN n % 7 = 0 THEN 'FAILURE' ELSE 'SUCCESS' END))
      FROM ${sets} ON CONFLICT DO NOTHING`);
    await knex.raw(`
      INSERT INTO gate_resets (tenant, pipeline, project, item_uuid, cause, caused_by, reset_time)
      SELECT 'bench', 'pipeline-' || (n % 5), 'git.example.com/org/project-' || (n % 20), 'item-' || n,
             CASE WHEN n % 3 = 0 THEN 'merge-failed' ELSE 'item-ahead-failed' END, NULL,
             to_timestamp(${T_END / 1000} - ${span} + (n::bigint * 104729 % ${span}) + 300)
      FROM ${sets} WHERE n % 10 = 0`);
    process.stdout.write(`\r  ${last + 1} builds`);
  }
  process.stdout.write('\n');
}

async function timed<T>(runs: number, work: () => Promise<T>): Promise<{ p50: number; max: number; value: T }> {
  const times: number[] = [];
  let value: T | undefined;
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    value = await work();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], max: times[times.length - 1], value: value as T };
}

const QUERY = /* GraphQL */ `
  query ($from: DateTime!, $to: DateTime!, $filter: AnalyticsFilter) {
    tenant(name: "bench") {
      ... on Tenant {
        analytics(from: $from, to: $to, interval: DAY, filter: $filter) {
          ... on Analytics {
            series {
              start
              itemsReported
              timeToMerge
              queueLength
              gateResets
              runs
              failureRate
              flakeRate
              meanDuration
              nodeWait
            }
            totals {
              runs
              failures
              gateResets
              resetCauses {
                cause
                resets
              }
            }
            jobs {
              job
              runs
              failureRate
              meanDuration
            }
            durations {
              start
              runs
              p50
              p90
            }
            busiestHours {
              weekday
              hour
              itemsEnqueued
            }
          }
        }
      }
    }
  }
`;

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1_000_000);
  const runs = Number(process.argv[3] ?? 20);
  const { database, cleanup } = await openBenchDatabase();
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  try {
    const filling = Date.now();
    await fill(database, count);
    console.log(`filled in ${((Date.now() - filling) / 1000).toFixed(0)} s`);
    const to = new Date(T_END);
    const from = new Date(T_END - 30 * 86_400_000);
    const repository = new AnalyticsRepository(database.knex);
    const cases: Array<[string, Record<string, string[]>]> = [
      ['everything', {}],
      ['one pipeline', { pipelines: ['pipeline-1'] }],
      ['one project, one job', { projects: ['org/project-3'], jobs: ['job-4'] }],
    ];
    for (const [name, filter] of cases) {
      const result = await timed(runs, () => repository.query('bench', from, to, 'day', filter));
      const total = [...result.value.buckets.values()].reduce((sum, b) => sum + b.runs, 0);
      console.log(
        `repository, ${name}: p50 ${result.p50.toFixed(1)} ms, max ${result.max.toFixed(1)} ms (${total} runs)`,
      );
    }
    for (const [name, filter] of cases) {
      const histogram = await timed(runs, () => durationQuantiles(database.knex, 'bench', from, to, 'day', filter));
      const exact = await timed(Math.min(runs, 3), () =>
        rawDurationQuantiles(database.knex, 'bench', from, to, 'day', filter),
      );
      const byBucket = new Map(exact.value.map((bucket) => [bucket.bucket, bucket]));
      let worst = 0;
      for (const bucket of histogram.value) {
        const want = byBucket.get(bucket.bucket);
        if (want === undefined || want.runs !== bucket.runs) {
          throw new Error(`histogram runs differ from the raw builds at ${new Date(bucket.bucket).toISOString()}`);
        }
        worst = Math.max(worst, Math.abs(bucket.p50 - want.p50) / want.p50, Math.abs(bucket.p90 - want.p90) / want.p90);
      }
      const total = histogram.value.reduce((sum, bucket) => sum + bucket.runs, 0);
      console.log(
        `duration quantiles, ${name} (${total} successful runs): histograms p50 ${histogram.p50.toFixed(1)} ms, max ${histogram.max.toFixed(1)} ms; raw builds p50 ${exact.p50.toFixed(1)} ms, max ${exact.max.toFixed(1)} ms; largest difference ${(worst * 100).toFixed(2)}%`,
      );
    }
    const raw = await timed(Math.min(runs, 5), () =>
      database.knex.raw(
        `SELECT date_trunc('day', end_time) AS day, count(*) FILTER (WHERE final) AS runs,
                count(*) FILTER (WHERE result = 'FAILURE') AS failures
         FROM builds WHERE tenant = 'bench' AND end_time >= ? AND end_time < ? GROUP BY 1`,
        [from, to],
      ),
    );
    console.log(
      `the same runs and failures from the raw builds: p50 ${raw.p50.toFixed(1)} ms, max ${raw.max.toFixed(1)} ms`,
    );
    const server = await startLiveServer(database, {
      tenants: { tenantNames: () => ['bench'], layout: () => undefined },
    });
    try {
      for (const [name, filter] of cases) {
        const result = await timed(runs, () =>
          server.graphql(QUERY, { from: from.toISOString(), to: to.toISOString(), filter }),
        );
        const analytics = (result.value.data as { tenant?: { analytics?: { totals?: { runs: number } } } } | undefined)
          ?.tenant?.analytics;
        if (result.value.errors || analytics?.totals === undefined) {
          throw new Error(JSON.stringify(result.value));
        }
        console.log(
          `GraphQL over HTTP, ${name}: p50 ${result.p50.toFixed(1)} ms, max ${result.max.toFixed(1)} ms (${analytics.totals.runs} runs)`,
        );
      }
    } finally {
      await server.stop();
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await cleanup();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
