/**
 * The builds of a job (docs/gating.md#jobs-inside-an-item, docs/gating.md#build-completion): new build states, their
 * history rows, and the records of builds that end without running (SKIPPED, CANCELED, NODE_FAILURE, FAILURE).
 */
import type { ChangeInfo } from '../../model/changes';
import type { BuildState, ItemState, JobState } from '../../model/pipeline-state';
import type { BuildResult } from '../../model/results';
import type { PassContext } from '../pass-context';
import type { HistoryRef } from '../ports/history';
import { projectName, type EngineLayout } from '../ports/layout';
import { releaseSemaphores } from './semaphores';

/**
 * The history ref of one change, with the project's name as well as its canonical name
 * (docs/gating.md#project-names-in-history).
 */
export function historyRefOf(change: ChangeInfo, layout: EngineLayout): HistoryRef {
  return {
    project: projectName(layout, change.project),
    projectCanonical: change.project,
    ref: change.ref,
    refUrl: change.url,
    change: change.number,
    patchset: change.patchset,
    oldrev: change.oldrev,
    newrev: change.newrev,
    branch: change.branch,
  };
}

export function newBuild(ctx: PassContext, attempt: number): BuildState {
  return {
    uuid: ctx.uuid(),
    historyId: null,
    attempt,
    executeTime: ctx.nowIso(),
    startTime: null,
    endTime: null,
    result: null,
    errorDetail: null,
    logUrl: null,
    canceled: false,
    retry: false,
    held: false,
    data: {},
    artifacts: [],
    submitted: false,
    paused: false,
    resumeRequested: false,
  };
}

/** A build that paused after its run phase and has not completed yet. */
export function isPaused(build: BuildState | null): boolean {
  return build !== null && build.paused === true && build.result === null;
}

/** Insert the history row of a build (its buildset row must exist). */
export function recordBuildStart(
  ctx: PassContext,
  buildsetId: number,
  item: ItemState,
  job: JobState,
  build: BuildState,
  startTime: Date,
): Promise<number> {
  return ctx.history.startBuild({
    buildsetId,
    uuid: build.uuid,
    jobName: job.job.name,
    startTime,
    voting: job.job.voting,
    nodeset: job.job.nodeset.name,
    // A build of a cycle's item is recorded against the change it ran for.
    refId: item.buildset.historyRefIds?.[job.change ?? 0] ?? item.buildset.historyRefId ?? null,
    refIndex: job.change ?? 0,
    attempt: build.attempt,
  });
}

/** Record a build that never ran (SKIPPED, CANCELED, NODE_FAILURE, FAILURE placeholders). */
export async function completeWithoutBuild(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  result: BuildResult,
  errorDetail: string | null,
): Promise<void> {
  const build = newBuild(ctx, Math.max(job.tries, 1));
  build.result = result;
  build.errorDetail = errorDetail;
  build.startTime = null;
  build.endTime = ctx.nowIso();
  job.build = build;
  job.waitReason = null;
  job.waitingStatus = null;
  await recordEnded(ctx, item, job, build, result, errorDetail);
  await releaseSemaphores(ctx, item, job);
}

/**
 * The history row and delta of a build that ended without output (never ran, or canceled):
 * final, nothing held, no artifacts.
 */
export async function recordEnded(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  build: BuildState,
  result: BuildResult,
  errorDetail: string | null,
): Promise<void> {
  if (item.buildset.historyId !== null) {
    const id = build.historyId ?? (await recordBuildStart(ctx, item.buildset.historyId, item, job, build, ctx.now));
    build.historyId = id;
    await ctx.history.completeBuild(id, {
      result,
      endTime: ctx.now,
      errorDetail,
      logUrl: build.logUrl,
      final: true,
      held: false,
      artifacts: [],
      provides: [],
      resultData: {},
    });
  }
  ctx.publish({
    type: 'job-completed',
    pipeline: item.pipeline,
    itemUuid: item.uuid,
    job: job.job.name,
    buildUuid: build.uuid,
    result,
  });
}
