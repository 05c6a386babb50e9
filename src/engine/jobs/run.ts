/**
 * Running an item's jobs (docs/gating.md#jobs-inside-an-item): which jobs may request nodes and start
 * (hold-following-changes, requirements, dependencies, semaphores), node requests and build
 * submission, and why a job waits.
 */
import type { ItemState, JobState, JobWaitReason, QueueState } from '../../model/pipeline-state';
import { itemsAhead } from '../item-predicates';
import type { PassContext } from '../pass-context';
import { untracked } from '../scheduler/item-changes';
import type { EnginePipeline } from '../ports/layout';
import { buildParams, nodeRequest } from './build-params';
import { completeWithoutBuild, isPaused, newBuild } from './build-records';
import { jobsOfSameChange } from './job-changes';
import { acquireSemaphores } from './semaphores';

function setWaiting(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  reason: JobWaitReason | null,
  status: string | null,
): boolean {
  if (job.waitReason === reason && job.waitingStatus === status) {
    return false;
  }
  job.waitReason = reason;
  job.waitingStatus = status;
  if (reason !== null) {
    ctx.publish({
      type: 'job-waiting',
      pipeline: item.pipeline,
      itemUuid: item.uuid,
      job: job.job.name,
      reason,
      status,
    });
  }
  return true;
}

/** Whether a job ahead in the queue holds following changes (hold-following-changes without success). */
function heldByItemsAhead(queue: QueueState, item: ItemState): boolean {
  return itemsAhead(queue, item)
    .map((ahead) => untracked(ahead))
    .some(
      (ahead) =>
        ahead.live &&
        ahead.buildset.jobs.some((job) => job.job.holdFollowingChanges && job.build?.result !== 'SUCCESS'),
    );
}

/** Names of dependencies that have not (yet) succeeded; a failed one makes the job never runnable. */
function unmetDependencies(item: ItemState, job: JobState): string[] {
  const byName = new Map(jobsOfSameChange(item, job).map((candidate) => [candidate.job.name, candidate]));
  const unmet: string[] = [];
  for (const dependency of job.job.dependencies) {
    const found = byName.get(dependency.name);
    if (!found) {
      continue; // A soft dependency that is not in the graph.
    }
    const result = found.build?.result ?? null;
    // A paused parent has returned its data: its dependents may run (docs/gating.md#jobs-inside-an-item).
    if (result === 'SUCCESS' || (result === 'SKIPPED' && dependency.soft) || isPaused(found.build)) {
      continue;
    }
    unmet.push(dependency.name);
  }
  return unmet;
}

/**
 * Requirements (`requires`) against jobs of live items ahead that `provides` them. Returns the
 * names still awaited, or a failure text when a provider failed.
 */
function checkRequirements(
  queue: QueueState,
  item: ItemState,
  job: JobState,
): { waiting: string[]; failure: string | null } {
  if (job.job.requires.length === 0) {
    return { waiting: [], failure: null };
  }
  const waiting = new Set<string>();
  const artifacts: JobState['artifacts'] = [];
  for (const ahead of itemsAhead(queue, item)) {
    if (!ahead.live) {
      continue;
    }
    for (const provider of ahead.buildset.jobs) {
      const provided = provider.job.provides.filter((name) => job.job.requires.includes(name));
      if (provided.length === 0) {
        continue;
      }
      const result = provider.build?.result ?? null;
      if ((result === null && !isPaused(provider.build)) || result === 'RETRY') {
        provided.forEach((name) => waiting.add(name));
        continue;
      }
      if (result !== 'SUCCESS' && result !== null) {
        const change = ahead.changes[0];
        return {
          waiting: [],
          failure: `Job ${job.job.name} requires artifact(s) ${provided.join(', ')} provided by build ${provider.build?.uuid ?? ''} (triggered by change ${change.number ?? change.ref} on project ${change.project}), but that build failed with result "${result}"`,
        };
      }
      for (const artifact of provider.build?.artifacts ?? []) {
        artifacts.push({
          name: artifact.name,
          url: artifact.url,
          project: ahead.changes[0].project,
          change: ahead.changes[0].number,
          patchset: ahead.changes[0].patchset,
          job: provider.job.name,
          metadata: artifact.metadata,
        });
      }
    }
  }
  job.artifacts = artifacts;
  return { waiting: [...waiting], failure: null };
}

/**
 * Request nodes and start builds for every runnable job of an active, prepared item.
 * Returns true when anything changed.
 */
export async function executeJobs(
  ctx: PassContext,
  pipeline: EnginePipeline,
  queue: QueueState,
  item: ItemState,
): Promise<boolean> {
  if (!item.live || !item.buildset.jobGraphFrozen) {
    return false;
  }
  let changed = false;
  const held = heldByItemsAhead(queue, item);
  for (const job of item.buildset.jobs) {
    if (job.build !== null) {
      continue;
    }
    if (held) {
      changed = setWaiting(ctx, item, job, 'hold-following-changes', 'hold-following-changes') || changed;
      continue;
    }
    if (job.nodeRequestId === null && !job.nodesReady) {
      const requirements = checkRequirements(queue, item, job);
      if (requirements.failure !== null) {
        await completeWithoutBuild(ctx, item, job, 'FAILURE', requirements.failure);
        changed = true;
        continue;
      }
      if (requirements.waiting.length > 0) {
        changed =
          setWaiting(ctx, item, job, 'requirements', `requirements: ${requirements.waiting.join(', ')}`) || changed;
        continue;
      }
      const unmet = unmetDependencies(item, job);
      if (unmet.length > 0) {
        changed = setWaiting(ctx, item, job, 'dependencies', `dependencies: ${unmet.join(', ')}`) || changed;
        continue;
      }
      const unavailable = await acquireSemaphores(ctx, item, job, false);
      if (unavailable.length > 0) {
        changed = setWaiting(ctx, item, job, 'semaphores', `semaphores: ${unavailable.join(',')}`) || changed;
        continue;
      }
      changed = requestNodes(ctx, pipeline, item, job) || changed;
    }
    if (!job.nodesReady) {
      continue;
    }
    const unavailable = await acquireSemaphores(ctx, item, job, true);
    if (unavailable.length > 0) {
      changed = setWaiting(ctx, item, job, 'semaphores', `semaphores: ${unavailable.join(',')}`) || changed;
      continue;
    }
    startBuild(ctx, pipeline, item, job);
    changed = true;
  }
  return changed;
}

function requestNodes(ctx: PassContext, pipeline: EnginePipeline, item: ItemState, job: JobState): boolean {
  if (job.job.nodeset.labels.length === 0) {
    // Empty nodesets are fulfilled at once, as in the reference.
    job.nodesReady = true;
    job.nodes = [];
    return true;
  }
  const requestId = ctx.uuid();
  job.nodeRequestId = requestId;
  setWaiting(ctx, item, job, 'nodes', `node request: ${requestId}`);
  const request = nodeRequest(ctx.tenant, pipeline, item, job, requestId);
  ctx.after(() => ctx.gateways.nodes.requestNodes(request), 'request-nodes');
  return true;
}

function startBuild(ctx: PassContext, pipeline: EnginePipeline, item: ItemState, job: JobState): void {
  job.tries += 1;
  const build = newBuild(ctx, job.tries);
  build.submitted = true;
  job.build = build;
  setWaiting(ctx, item, job, 'executor', 'executor');
  const params = buildParams(ctx.tenant, pipeline, item, job);
  ctx.startBuildAfter(params);
}
