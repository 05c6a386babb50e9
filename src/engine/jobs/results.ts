/**
 * Result events applied to their job (docs/gating.md#build-completion): nodes provisioned, builds started,
 * paused (and resumed once their dependents are done) and completed, with retries, autohold and
 * what a result means for the job's dependents.
 */
import type { BuildCompletedEvent, BuildPausedEvent, BuildResultEvent } from '../../model/engine-events';
import type { BuildState, ItemState, JobState, QueueState } from '../../model/pipeline-state';
import type { BuildResult } from '../../model/results';
import { jobFailed } from '../item-predicates';
import type { PassContext } from '../pass-context';
import { untracked } from '../scheduler/item-changes';
import type { EnginePipeline } from '../ports/layout';
import { autoholdMatch } from './autohold';
import { completeWithoutBuild, isPaused, recordBuildStart } from './build-records';
import { dependentsOf, failFastIfNeeded, resetDependents, skipByChildJobs, skipDependents } from './dependents';
import { failureHandling, recordFlakyRetry } from './flaky-gating';
import { releaseSemaphores } from './semaphores';

const RETRYABLE: ReadonlySet<BuildResult | null> = new Set<BuildResult | null>([
  null,
  'ABORTED',
  'RETRY',
  'MERGE_CONFLICT',
  'MERGER_FAILURE',
]);

const AUTOHOLD_RESULTS: ReadonlySet<BuildResult> = new Set<BuildResult>([
  'FAILURE',
  'RETRY_LIMIT',
  'POST_FAILURE',
  'TIMED_OUT',
]);

/** Locate the job of a build or node request among a tenant's live items. */
export interface JobLocation {
  pipeline: string;
  queue: QueueState;
  item: ItemState;
  job: JobState;
}

/** Apply a result event to its job. Returns true when the job was found in a current buildset. */
export async function applyResult(
  ctx: PassContext,
  pipeline: EnginePipeline,
  location: JobLocation,
  event: BuildResultEvent,
): Promise<void> {
  const { item, job } = location;
  if (event.type === 'nodes-provisioned') {
    job.nodeRequestId = null;
    if (!event.fulfilled) {
      // Failed requests are the scheduler's to delete (docs/launcher.md#nodeset-requests).
      ctx.after(() => ctx.gateways.nodes.cancelRequest(ctx.tenant, event.requestId));
      await completeWithoutBuild(ctx, item, job, 'NODE_FAILURE', `Node(set) request ${event.requestId} failed`);
      await skipDependents(ctx, item, job);
      await failFastIfNeeded(ctx, item, job);
      return;
    }
    job.nodes = event.nodes;
    job.nodesReady = true;
    return;
  }
  const build = job.build;
  if (!build) {
    return;
  }
  if (event.type === 'build-started') {
    build.startTime = event.startTime;
    build.logUrl = event.logUrl ?? build.logUrl;
    job.waitReason = null;
    job.waitingStatus = null;
    // A build re-run by an executor after a restart keeps its first history row.
    if (item.buildset.historyId !== null && build.historyId === null) {
      build.historyId = await recordBuildStart(
        ctx,
        item.buildset.historyId,
        item,
        job,
        build,
        new Date(event.startTime),
      );
    }
    item.firstJobStartTime = item.firstJobStartTime ?? event.startTime;
    ctx.publish({
      type: 'job-started',
      pipeline: item.pipeline,
      itemUuid: item.uuid,
      job: job.job.name,
      buildUuid: build.uuid,
    });
    return;
  }
  if (event.type === 'build-paused') {
    await pauseBuild(ctx, location, build, event);
    return;
  }
  await completeBuild(ctx, pipeline, location, build, event);
}

/**
 * BuildPaused (docs/gating.md#paused-builds): the build keeps its nodes and waits; its data goes to its
 * dependents, which may start now. `child_jobs` prunes them as on completion. The resume
 * happens in `resumePausedBuilds` once every dependent has a result.
 */
async function pauseBuild(
  ctx: PassContext,
  location: JobLocation,
  build: BuildState,
  event: BuildPausedEvent,
): Promise<void> {
  const { item, job } = location;
  if (build.result !== null || build.paused === true || build.resumeRequested === true) {
    return; // Repeated or late: the build already moved on.
  }
  build.paused = true;
  build.events = [
    ...(build.events ?? []),
    { eventType: 'paused', eventTime: ctx.now.toISOString(), description: null },
  ];
  build.data = event.data ?? {};
  build.artifacts = (event.artifacts ?? []).map((artifact) => ({
    name: artifact.name,
    url: artifact.url,
    metadata: artifact.metadata ?? null,
  }));
  job.waitReason = null;
  job.waitingStatus = null;
  if (item.buildset.historyId !== null) {
    const id =
      build.historyId ??
      (await recordBuildStart(
        ctx,
        item.buildset.historyId,
        item,
        job,
        build,
        build.startTime ? new Date(build.startTime) : ctx.now,
      ));
    build.historyId = id;
    await ctx.history.buildEvent(id, { eventType: 'paused', eventTime: ctx.now, resultData: build.data });
  }
  ctx.publish({
    type: 'job-paused',
    pipeline: item.pipeline,
    itemUuid: item.uuid,
    job: job.job.name,
    buildUuid: build.uuid,
  });
  await skipByChildJobs(ctx, item, job, event.childJobs);
}

/**
 * Whether an item has a paused build ({@link resumePausedBuilds} may resume it). Looked for in the
 * plain data, and without a promise: every live item is asked on every pass.
 */
export function hasPausedBuild(item: ItemState): boolean {
  return untracked(item).buildset.jobs.some((job) => isPaused(job.build));
}

/**
 * Resume every paused build of an item whose dependents (transitively) all have a result
 * (docs/gating.md#build-completion step 6). Returns true when one was resumed.
 */
export async function resumePausedBuilds(ctx: PassContext, item: ItemState): Promise<boolean> {
  if (!hasPausedBuild(item)) {
    return false;
  }
  let resumed = false;
  for (const job of item.buildset.jobs) {
    const build = job.build;
    if (build === null || !isPaused(build)) {
      continue;
    }
    if (dependentsOf(item, [job], false).some((dependent) => (dependent.build?.result ?? null) === null)) {
      continue;
    }
    build.paused = false;
    build.resumeRequested = true;
    build.events = [
      ...(build.events ?? []),
      { eventType: 'resumed', eventTime: ctx.now.toISOString(), description: null },
    ];
    if (build.historyId !== null) {
      await ctx.history.buildEvent(build.historyId, { eventType: 'resumed', eventTime: ctx.now });
    }
    const buildUuid = build.uuid;
    ctx.after(() => ctx.gateways.executor.resumeBuild(ctx.tenant, buildUuid));
    ctx.publish({ type: 'job-resumed', pipeline: item.pipeline, itemUuid: item.uuid, job: job.job.name, buildUuid });
    resumed = true;
  }
  return resumed;
}

async function completeBuild(
  ctx: PassContext,
  pipeline: EnginePipeline,
  location: JobLocation,
  build: BuildState,
  event: BuildCompletedEvent,
): Promise<void> {
  const { item, job } = location;
  let result: BuildResult;
  let retry = false;
  if (build.canceled) {
    result = 'CANCELED';
  } else if (RETRYABLE.has(event.result)) {
    if (job.tries < job.job.attempts) {
      result = 'RETRY';
      retry = true;
    } else {
      result =
        event.result === 'MERGE_CONFLICT' || event.result === 'MERGER_FAILURE' ? 'MERGE_CONFLICT' : 'RETRY_LIMIT';
    }
  } else {
    result = event.result ?? 'RETRY_LIMIT';
  }
  // Quarantined or known-flaky jobs (docs/analytics.md#flake-aware-gating); nothing unless configured.
  const handling = retry || build.canceled ? null : await failureHandling(ctx, pipeline, item, job, result);
  if (handling?.kind === 'flaky-retry') {
    retry = true;
    job.flakyRetries = (job.flakyRetries ?? 0) + 1;
  }
  if (handling?.kind === 'quarantined') {
    job.quarantined = true;
  }
  if (retry) {
    build.retryReason = handling?.kind === 'flaky-retry' ? 'flaky' : 'infrastructure';
  }
  build.result = result;
  build.retry = retry;
  build.paused = false;
  build.endTime = event.endTime;
  build.errorDetail = event.errorDetail ?? null;
  build.logUrl = event.logUrl ?? build.logUrl;
  build.data = event.data ?? {};
  build.artifacts = (event.artifacts ?? []).map((artifact) => ({
    name: artifact.name,
    url: artifact.url,
    metadata: artifact.metadata ?? null,
  }));
  // Every completion's warnings, a retried build's too, as the reference keeps them (docs/gating.md#reporting).
  if (event.warnings !== undefined && event.warnings.length > 0) {
    item.buildset.warningMessages = [...(item.buildset.warningMessages ?? []), ...event.warnings];
  }
  if (!retry && AUTOHOLD_RESULTS.has(result)) {
    build.held = await autoholdMatch(ctx, item, job, build);
  }
  if (item.buildset.historyId !== null) {
    const id =
      build.historyId ??
      (await recordBuildStart(ctx, item.buildset.historyId, item, job, build, new Date(event.endTime)));
    build.historyId = id;
    await ctx.history.completeBuild(id, {
      result,
      endTime: new Date(event.endTime),
      errorDetail: build.errorDetail,
      logUrl: build.logUrl,
      final: !retry,
      held: build.held,
      artifacts: build.artifacts,
      provides: result === 'SUCCESS' ? job.job.provides : [],
      resultData: build.data,
    });
  }
  await releaseSemaphores(ctx, item, job);
  if (job.nodes.length > 0 && !build.held) {
    const nodes = job.nodes;
    ctx.after(() => ctx.gateways.nodes.returnNodes(ctx.tenant, nodes));
  }
  job.nodes = [];
  job.nodesReady = false;
  ctx.publish({
    type: 'job-completed',
    pipeline: pipeline.name,
    itemUuid: item.uuid,
    job: job.job.name,
    buildUuid: build.uuid,
    result,
  });
  if (handling?.kind === 'flaky-retry') {
    await recordFlakyRetry(ctx, item, job, build, handling.flakeRate);
  }
  if (retry) {
    job.retryBuilds.push(build);
    job.build = null;
    // Dependents may have run on the data of a build that paused: they run again after the retry.
    await resetDependents(ctx, item, job);
    return;
  }
  if (jobFailed(job)) {
    await skipDependents(ctx, item, job);
    await failFastIfNeeded(ctx, item, job);
  } else {
    await skipByChildJobs(ctx, item, job, event.childJobs);
  }
}
