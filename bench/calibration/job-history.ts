/**
 * Job calibration (docs/analytics.md#calibration): a generated history of builds (two projects,
 * two branches, the job mix of random.ts, a 30% slowdown of `integration` half way through)
 * replayed in time order through the store's writers; at each build's start the estimate is read
 * as `Engine.status` reads it (the samples, then the level chosen), and when it ends its real
 * duration is compared with the estimate it started with.
 */
import { estimatesFrom } from '../../src/engine/build-estimates';
import { curveP50, curveP90, jobSampleKeys, recentMean, sampleKeyText } from '../../src/model/estimates';
import type { Database } from '../../src/store/database';
import { BuildRepository } from '../../src/store/repositories/builds';
import { BuildsetRepository } from '../../src/store/repositories/buildsets';
import { DurationSampleRepository } from '../../src/store/repositories/duration-samples';
import { JOB_MIX, drawRun, percentOf, seeded, type JobProfile } from './random';

interface PlannedRun {
  item: number;
  project: string;
  branch: string;
  profile: JobProfile;
  start: number;
  seconds: number;
  outcome: 'SUCCESS' | 'FAILURE' | 'RETRY';
}

/** Every run of `items` items (every job of the mix, retried attempts followed by another), by start time. */
function plan(items: number, seed: number): PlannedRun[] {
  const random = seeded(seed);
  const runs: PlannedRun[] = [];
  let at = Date.parse('2026-01-01T00:00:00Z') / 1000;
  for (let item = 0; item < items; item += 1) {
    at += 60 + random() * 240;
    const project = random() < 0.6 ? 'git.example.com/org/app' : 'git.example.com/org/lib';
    const branch = random() < 0.8 ? 'master' : 'stable';
    for (const profile of JOB_MIX) {
      const slowdown = (branch === 'stable' ? 1.3 : 1) * (profile.name === 'integration' && item > items / 2 ? 1.3 : 1);
      let start = at;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const run = drawRun(random, profile, slowdown);
        runs.push({ item, project, branch, profile, start, ...run });
        if (run.outcome !== 'RETRY') {
          break;
        }
        start += run.seconds;
      }
    }
  }
  return runs;
}

export interface JobCalibration {
  builds: number;
  measured: number;
  successes: number;
  withinP90: number;
  withinRange: number;
  belowP50: number;
  overMean: number;
  p50Error: number;
  meanError: number;
  failures: number;
  failuresWithinP90: number;
  predictedFailure: number;
  observedFailure: number;
}

/** Replay `items` generated items through the store; estimates are read at each start. */
export async function calibrateJobs(database: Database, items: number, seed = 7): Promise<JobCalibration> {
  const tenant = `calibration-${seed}`;
  const runs = plan(items, seed);
  type Event = { at: number; kind: 'start' | 'end'; run: PlannedRun; index: number };
  const events: Event[] = runs.flatMap((run, index) => [
    { at: run.start, kind: 'start' as const, run, index },
    { at: run.start + run.seconds, kind: 'end' as const, run, index },
  ]);
  events.sort((a, b) => a.at - b.at || (a.kind === 'end' ? -1 : 1));
  const buildsets = new BuildsetRepository(database.knex);
  const builds = new BuildRepository(database.knex);
  const samples = new DurationSampleRepository(database.knex);
  const itemRows = new Map<number, { buildsetId: number; refId: number }>();
  const started = new Map<number, { id: number; estimate: ReturnType<typeof estimateOf> }>();
  const result: JobCalibration = {
    builds: runs.length,
    measured: 0,
    successes: 0,
    withinP90: 0,
    withinRange: 0,
    belowP50: 0,
    overMean: 0,
    p50Error: 0,
    meanError: 0,
    failures: 0,
    failuresWithinP90: 0,
    predictedFailure: 0,
    observedFailure: 0,
  };
  function estimateOf(found: Awaited<ReturnType<DurationSampleRepository['read']>>, run: PlannedRun) {
    const estimate = estimatesFrom(found).job(run.project, run.branch, run.profile.name);
    // What `estimatedTime` (the reference's estimate) says: the branch's newest ten successful runs.
    const mean = recentMean(found.get(sampleKeyText(jobSampleKeys(run.project, run.branch, run.profile.name)[0])));
    return { estimate, mean };
  }
  for (const event of events) {
    const { run } = event;
    if (event.kind === 'start') {
      let rows = itemRows.get(run.item);
      if (rows === undefined) {
        const created = await buildsets.create({
          uuid: `${tenant}-${run.item}`,
          tenant,
          pipeline: 'gate',
          refs: [
            {
              project: run.project.split('/').slice(1).join('/'),
              projectCanonical: run.project,
              ref: `refs/changes/${run.item}`,
              branch: run.branch,
            },
          ],
          triggeredBy: 'calibration',
          at: new Date(run.start * 1000),
        });
        rows = { buildsetId: created.buildset.id, refId: created.refs[0].id };
        itemRows.set(run.item, rows);
      }
      const build = await builds.start({
        buildsetId: rows.buildsetId,
        uuid: `${tenant}-${event.index}`,
        jobName: run.profile.name,
        startTime: new Date(run.start * 1000),
        refId: rows.refId,
      });
      const found = await samples.read(tenant, jobSampleKeys(run.project, run.branch, run.profile.name));
      started.set(event.index, { id: build.id, estimate: estimateOf(found, run) });
      continue;
    }
    const build = started.get(event.index);
    if (build === undefined) {
      continue;
    }
    await builds.complete(build.id, {
      result: run.outcome,
      endTime: new Date((run.start + run.seconds) * 1000),
      final: run.outcome !== 'RETRY',
    });
    const { estimate, mean } = build.estimate;
    // The first tenth is warm-up: estimates need history to be measured.
    if (estimate === null || estimate.success === null || run.item < items / 10 || run.outcome === 'RETRY') {
      continue;
    }
    result.measured += 1;
    result.predictedFailure += estimate.failureProbability;
    result.observedFailure += run.outcome === 'FAILURE' ? 1 : 0;
    if (run.outcome === 'SUCCESS') {
      const p50 = curveP50(estimate.success);
      const p90 = curveP90(estimate.success);
      result.successes += 1;
      result.withinP90 += run.seconds <= p90 ? 1 : 0;
      result.withinRange += run.seconds >= p50 && run.seconds <= p90 ? 1 : 0;
      result.belowP50 += run.seconds <= p50 ? 1 : 0;
      result.p50Error += Math.abs(run.seconds - p50);
      if (mean !== null) {
        result.overMean += run.seconds > mean ? 1 : 0;
        result.meanError += Math.abs(run.seconds - mean);
      }
    } else if (estimate.failure !== null) {
      result.failures += 1;
      result.failuresWithinP90 += run.seconds <= curveP90(estimate.failure) ? 1 : 0;
    }
  }
  return result;
}

/** The figures of a job calibration as table rows. */
export function jobCalibrationRows(c: JobCalibration): string[] {
  return [
    `builds replayed: ${c.builds}; measured after warm-up: ${c.measured} (${c.successes} successful, ${c.failures} failed)`,
    `successful builds within their p90: ${percentOf(c.withinP90, c.successes)} (target >= 85%)`,
    `successful builds within p50-p90: ${percentOf(c.withinRange, c.successes)}; at or below p50: ${percentOf(c.belowP50, c.successes)}`,
    `failed builds within the p90 of failed runs: ${percentOf(c.failuresWithinP90, c.failures)}`,
    `mean absolute error: p50 ${(c.p50Error / Math.max(1, c.successes)).toFixed(1)} s, reference mean of 10 ${(c.meanError / Math.max(1, c.successes)).toFixed(1)} s`,
    `successful builds longer than the reference mean (a frozen 99 % before): ${percentOf(c.overMean, c.successes)}; overdue now (over p90): ${percentOf(c.successes - c.withinP90, c.successes)}`,
    `failure probability: predicted ${percentOf(c.predictedFailure, c.measured)}, observed ${percentOf(c.observedFailure, c.measured)}`,
  ];
}
