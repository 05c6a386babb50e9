/** Canceling jobs (docs/gating.md#canceling-jobs): node requests, unfinished builds and semaphores. */
import type { BuildResult } from '../../model/results';
import type { ItemState, JobState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import { untracked } from '../scheduler/item-changes';
import { completeWithoutBuild, recordEnded } from './build-records';
import { releaseSemaphores } from './semaphores';

/** A job without a build that holds a node request, nodes or semaphores. */
function holdsUnusedResources(job: JobState): boolean {
  return job.build === null && (job.nodeRequestId !== null || job.nodes.length > 0 || job.semaphoresHeld.length > 0);
}

/** Cancel the job's node request and return the nodes it holds. */
export async function cancelNodeRequest(ctx: PassContext, job: JobState): Promise<void> {
  if (job.nodeRequestId !== null) {
    const requestId = job.nodeRequestId;
    ctx.after(() => ctx.gateways.nodes.cancelRequest(ctx.tenant, requestId));
    job.nodeRequestId = null;
  }
  if (job.nodes.length > 0) {
    const nodes = job.nodes;
    ctx.after(() => ctx.gateways.nodes.returnNodes(ctx.tenant, nodes));
  }
  job.nodes = [];
  job.nodesReady = false;
}

/**
 * How jobs are canceled: `reset` (the item gets a new buildset; jobs run again), `dequeue` (the
 * item leaves) or `stay-current` (fail-fast, a needed change failing: the buildset stays and
 * reports). Started builds end ABORTED unless their buildset stays current (then CANCELED, as
 * in docs/gating.md#results); builds no executor started end CANCELED; with `dequeue` and `stay-current`
 * jobs without a build get a CANCELED placeholder so they do not start.
 */
export type CancelMode = 'reset' | 'dequeue' | 'stay-current';

/** Cancel every unfinished job of an item (docs/gating.md#canceling-jobs). */
export async function cancelJobs(ctx: PassContext, item: ItemState, mode: CancelMode): Promise<void> {
  for (const job of item.buildset.jobs) {
    await cancelJob(ctx, item, job, mode);
  }
}

/** Cancel one job: its node request, its unfinished build (paused ones too) and its semaphores. */
export async function cancelJob(ctx: PassContext, item: ItemState, job: JobState, mode: CancelMode): Promise<void> {
  const final = mode !== 'reset';
  await cancelNodeRequest(ctx, job);
  const build = job.build;
  if (build && build.result === null) {
    const buildUuid = build.uuid;
    ctx.after(() => ctx.gateways.executor.cancelBuild(ctx.tenant, buildUuid));
    const result: BuildResult = build.startTime !== null && mode !== 'stay-current' ? 'ABORTED' : 'CANCELED';
    build.result = result;
    build.canceled = true;
    build.paused = false;
    build.endTime = ctx.nowIso();
    await recordEnded(ctx, item, job, build, result, null);
  } else if (!build && final && item.buildset.jobGraphFrozen) {
    await completeWithoutBuild(ctx, item, job, 'CANCELED', null);
  }
  await releaseSemaphores(ctx, item, job);
}

/**
 * Whether {@link releaseUnusedResources} has anything to give back. Looked for in the plain data,
 * and without a promise: every item outside the window is asked on every pass.
 */
export function holdsAnyUnusedResources(item: ItemState): boolean {
  return untracked(item).buildset.jobs.some(holdsUnusedResources);
}

/**
 * An item outside the window keeps no node request and no nodes it cannot use
 * (docs/gating.md#windows-and-nodes): every job without a build gives back its request, its
 * nodes and its semaphores, and asks again once the item is back in the window. Running builds
 * go on. Returns true when anything was given back.
 */
export async function releaseUnusedResources(ctx: PassContext, item: ItemState): Promise<boolean> {
  if (!holdsAnyUnusedResources(item)) {
    return false;
  }
  let released = false;
  for (const job of item.buildset.jobs) {
    if (!holdsUnusedResources(job)) {
      continue;
    }
    await cancelNodeRequest(ctx, job);
    await releaseSemaphores(ctx, item, job);
    job.waitReason = null;
    job.waitingStatus = null;
    released = true;
  }
  return released;
}
