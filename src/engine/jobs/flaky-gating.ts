/**
 * Flake-aware gating (docs/analytics.md#flake-aware-gating): what a failed build of a voting job
 * means when its job is quarantined (the failure is reported but does not fail the item), or
 * known to be flaky in a pipeline or job that asks for it (the build is retried in place before
 * its item fails and resets the items behind it). Nothing changes unless configured: without a
 * quarantine entry and `flaky-retries`, a failed build costs one key lookup and nothing else.
 */
import type { ItemState, JobState } from '../../model/pipeline-state';
import type { BuildResult } from '../../model/results';
import { AnalyticsRepository } from '../../store/repositories/analytics';
import { QuarantineRepository } from '../../store/repositories/quarantine';
import { FAILED_RUN } from '../../store/repositories/run-outcomes';
import type { PassContext } from '../pass-context';
import type { EnginePipeline } from '../ports/layout';

/** The flake rate from which a job is known-flaky when the pipeline sets no `flaky-threshold`. */
export const DEFAULT_FLAKY_THRESHOLD = 0.05;
/** Runs a job needs on the project (else tenant-wide) before its flake rate counts. */
export const MIN_FLAKE_RUNS = 10;
/** How far back the flake rate looks. */
export const FLAKE_WINDOW_DAYS = 30;

export type FailureHandling = { kind: 'quarantined' } | { kind: 'flaky-retry'; flakeRate: number } | null;

/** The flake rate of a job of an item's project over the window (tenant-wide when the project has too few runs); null when unknown. */
async function flakeRate(ctx: PassContext, project: string, job: string): Promise<number | null> {
  const since = new Date(ctx.now.getTime() - FLAKE_WINDOW_DAYS * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  // The rollup counts the builds this pass completed so far (docs/gating.md#performance).
  await ctx.history.flush();
  const counts = await new AnalyticsRepository(ctx.trx).flakeCounts(ctx.tenant, project, job, since);
  const basis = counts.project.runs >= MIN_FLAKE_RUNS ? counts.project : counts.tenant;
  return basis.runs >= MIN_FLAKE_RUNS ? basis.flaky / basis.runs : null;
}

/** What a build of a job that ended with `result` does to its item (null: what it always did). */
export async function failureHandling(
  ctx: PassContext,
  pipeline: EnginePipeline,
  item: ItemState,
  job: JobState,
  result: BuildResult,
): Promise<FailureHandling> {
  if (!job.job.voting || !FAILED_RUN.includes(result)) {
    return null;
  }
  const project = item.changes[0]?.project ?? '';
  if (await new QuarantineRepository(ctx.trx).isQuarantined(ctx.tenant, project, job.job.name, ctx.trx)) {
    return { kind: 'quarantined' };
  }
  const retries = job.job.flakyRetries ?? pipeline.flakyRetries;
  if (retries <= (job.flakyRetries ?? 0)) {
    return null;
  }
  const rate = await flakeRate(ctx, project, job.job.name);
  const threshold = pipeline.flakyThreshold ?? DEFAULT_FLAKY_THRESHOLD;
  return rate !== null && rate >= threshold ? { kind: 'flaky-retry', flakeRate: rate } : null;
}

/** Record a flaky retry: the build's history event and the tenant's system event. */
export async function recordFlakyRetry(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  build: { uuid: string; historyId: number | null },
  flakeRate: number,
): Promise<void> {
  const percent = `${(flakeRate * 100).toFixed(1)}%`;
  if (build.historyId !== null) {
    await ctx.history.buildEvent(build.historyId, { eventType: 'flaky-retry', eventTime: ctx.now });
  }
  await ctx.systemEvent({
    eventType: 'flaky-retry',
    description: `Job ${job.job.name} of ${item.changes.map((change) => change.project).join(', ')} failed; its flake rate is ${percent}, so it is retried in place (flaky retry ${job.flakyRetries ?? 0})`,
    data: {
      pipeline: item.pipeline,
      itemUuid: item.uuid,
      job: job.job.name,
      buildUuid: build.uuid,
      flakeRate,
      retry: job.flakyRetries ?? 0,
    },
  });
}
