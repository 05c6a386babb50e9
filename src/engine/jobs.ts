/**
 * Running the jobs of one item (spec/engine.md §2.9–§2.10): which jobs may request nodes and
 * start, semaphores, node requests, build submission, cancel, and build results (retries,
 * skipping dependents, fail-fast, autohold).
 */
import type { BuildResult } from '../model/results';
import type { BuildParams } from './ports/executor';
import type { ChangeInfo } from '../model/changes';
import type { EnginePipeline } from './ports/layout';
import type { HistoryRef } from './ports/history';
import type { NodeInfo } from '../model/pipeline-state';
import type { NodeRequest } from './ports/nodes';
import type { ResultEvent } from '../model/engine-events';
import { itemsAhead, jobFailed } from './item-predicates';
import type { BuildState, ItemState, JobState, JobWaitReason, QueueState } from '../model/pipeline-state';
import type { PassContext } from './pass-context';

const PRECEDENCE: Record<EnginePipeline['precedence'], number> = { high: 100, normal: 200, low: 300 };
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

/** The precedence number of a pipeline (lower runs sooner). */
export function precedenceOf(pipeline: EnginePipeline): number {
  return PRECEDENCE[pipeline.precedence];
}

/** The history ref of an item's (first) change. */
export function historyRef(item: ItemState): HistoryRef {
  return historyRefOf(item.changes[0]);
}

/** The history ref of one change. */
export function historyRefOf(change: ChangeInfo): HistoryRef {
  return {
    project: change.project,
    ref: change.ref,
    refUrl: change.url,
    change: change.number,
    patchset: change.patchset,
    oldrev: change.oldrev,
    newrev: change.newrev,
    branch: change.branch,
  };
}

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
  ctx.touch(item);
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

function newBuild(ctx: PassContext, attempt: number): BuildState {
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
    estimatedTime: null,
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
function isPaused(build: BuildState | null): boolean {
  return build !== null && build.paused === true && build.result === null;
}

/** Whether a job ahead in the queue holds following changes (hold-following-changes without success). */
function heldByItemsAhead(queue: QueueState, item: ItemState): boolean {
  return itemsAhead(queue, item).some(
    (ahead) =>
      ahead.live && ahead.buildset.jobs.some((job) => job.job.holdFollowingChanges && job.build?.result !== 'SUCCESS'),
  );
}

function transitiveDependencies(item: ItemState, job: JobState): JobState[] {
  const byName = new Map(item.buildset.jobs.map((candidate) => [candidate.job.name, candidate]));
  const result: JobState[] = [];
  const seen = new Set<string>();
  const stack = [...job.job.dependencies];
  while (stack.length > 0) {
    const dependency = stack.pop();
    if (!dependency || seen.has(dependency.name)) {
      continue;
    }
    seen.add(dependency.name);
    const found = byName.get(dependency.name);
    if (found) {
      result.push(found);
      stack.push(...found.job.dependencies);
    }
  }
  return result;
}

/** Names of dependencies that have not (yet) succeeded; a failed one makes the job never runnable. */
function unmetDependencies(item: ItemState, job: JobState): string[] {
  const byName = new Map(item.buildset.jobs.map((candidate) => [candidate.job.name, candidate]));
  const unmet: string[] = [];
  for (const dependency of job.job.dependencies) {
    const found = byName.get(dependency.name);
    if (!found) {
      continue; // A soft dependency that is not in the graph.
    }
    const result = found.build?.result ?? null;
    // A paused parent has returned its data: its dependents may run (spec §2.9 step 2).
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

function semaphoreClaims(
  ctx: PassContext,
  job: JobState,
  resourcesFirst: boolean,
): Array<{ name: string; max: number; global: boolean }> {
  return job.job.semaphores
    .filter((semaphore) => semaphore.resourcesFirst === resourcesFirst)
    .map((semaphore) => {
      const defined = ctx.layout.semaphores.get(semaphore.name);
      return { name: semaphore.name, max: defined?.max ?? 1, global: defined?.global ?? false };
    });
}

async function acquireSemaphores(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  resourcesFirst: boolean,
): Promise<string[]> {
  const claims = semaphoreClaims(ctx, job, resourcesFirst);
  if (claims.length === 0) {
    return [];
  }
  const unavailable = await ctx.semaphores.acquireAll(
    ctx.tenant,
    { buildsetUuid: item.buildset.uuid, jobName: job.job.name },
    claims,
    ctx.now,
    ctx.trx,
  );
  if (unavailable.length === 0) {
    const names = claims.map((claim) => claim.name);
    job.semaphoresHeld = [...new Set([...job.semaphoresHeld, ...names])];
  }
  return unavailable;
}

async function releaseSemaphores(ctx: PassContext, item: ItemState, job: JobState): Promise<void> {
  if (job.semaphoresHeld.length === 0) {
    return;
  }
  await ctx.semaphores.releaseAll(ctx.tenant, { buildsetUuid: item.buildset.uuid, jobName: job.job.name }, ctx.trx);
  job.semaphoresHeld = [];
  ctx.semaphoreReleased = true;
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
    ctx.touch(item);
    return true;
  }
  const requestId = ctx.uuid();
  job.nodeRequestId = requestId;
  ctx.touch(item);
  setWaiting(ctx, item, job, 'nodes', `node request: ${requestId}`);
  const request = nodeRequest(ctx.tenant, pipeline, item, job, requestId);
  ctx.after(() => ctx.gateways.nodes.requestNodes(request));
  return true;
}

/**
 * A job's node request (engine.md §2.10): its nodeset alternatives in order, the pipeline
 * precedence as priority, and the item's project, by which the launcher ranks requests of one
 * project behind each other (relative priority).
 */
export function nodeRequest(
  tenant: string,
  pipeline: EnginePipeline,
  item: ItemState,
  job: JobState,
  requestId: string,
): NodeRequest {
  const labels = job.job.nodeset.labels;
  const alternatives = job.job.nodeset.alternatives;
  // Children of a paused parent go first: the parent holds its nodes until they are done.
  const parentPaused = job.job.dependencies.some((dependency) =>
    isPaused(item.buildset.jobs.find((candidate) => candidate.job.name === dependency.name)?.build ?? null),
  );
  return {
    id: requestId,
    tenant,
    pipeline: pipeline.name,
    buildsetUuid: item.buildset.uuid,
    jobName: job.job.name,
    labels,
    priority: Math.max(precedenceOf(pipeline) - (parentPaused ? 1 : 0), 0),
    alternatives: alternatives && alternatives.length > 0 ? alternatives : [labels],
    project: item.changes[0]?.project ?? null,
    eventId: item.eventId,
    imageNames: item.imageNames ?? null,
    imageUploadUuid: item.imageUploadUuid ?? null,
  };
}

function startBuild(ctx: PassContext, pipeline: EnginePipeline, item: ItemState, job: JobState): void {
  job.tries += 1;
  const build = newBuild(ctx, job.tries);
  build.submitted = true;
  job.build = build;
  setWaiting(ctx, item, job, 'executor', 'executor');
  ctx.touch(item);
  const params = buildParams(ctx.tenant, pipeline, item, job);
  ctx.after(() => ctx.gateways.executor.startBuild(params));
}

/** Everything the executor needs for a job's current build. */
export function buildParams(tenant: string, pipeline: EnginePipeline, item: ItemState, job: JobState): BuildParams {
  const parentData: Record<string, unknown> = {};
  const artifacts = [...job.artifacts];
  for (const dependency of transitiveDependencies(item, job).reverse()) {
    const data = { ...(dependency.build?.data ?? {}) };
    delete data.zuul;
    Object.assign(parentData, data);
    for (const artifact of dependency.build?.artifacts ?? []) {
      const change = item.changes[0];
      artifacts.push({
        name: artifact.name,
        url: artifact.url,
        project: change.project,
        change: change.number,
        patchset: change.patchset,
        job: dependency.job.name,
        metadata: artifact.metadata,
      });
    }
  }
  return {
    tenant,
    pipeline: pipeline.name,
    buildUuid: job.build?.uuid ?? '',
    buildsetUuid: item.buildset.uuid,
    itemUuid: item.uuid,
    job: job.job,
    attempt: job.tries,
    precedence: precedenceOf(pipeline),
    changes: item.changes,
    mergeItems: item.buildset.mergeItems,
    parentData,
    artifacts,
    nodes: job.nodes,
    timeout: job.job.timeout,
  };
}

/** Insert the history row of a build (its buildset row must exist). */
function recordBuildStart(
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
    refId: item.buildset.historyRefId ?? null,
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
  ctx.touch(item);
  if (item.buildset.historyId !== null) {
    const id = await recordBuildStart(ctx, item.buildset.historyId, item, job, build, ctx.now);
    build.historyId = id;
    await ctx.history.completeBuild(id, {
      result,
      endTime: ctx.now,
      errorDetail,
      logUrl: null,
      final: true,
      held: false,
      artifacts: [],
      provides: [],
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
  await releaseSemaphores(ctx, item, job);
}

/**
 * Jobs depending on any of `roots`, transitively (the roots themselves excluded); `hardOnly`
 * follows hard dependencies only.
 */
function dependentsOf(item: ItemState, roots: readonly JobState[], hardOnly: boolean): JobState[] {
  const names = new Set<string>(roots.map((root) => root.job.name));
  const found: JobState[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const job of item.buildset.jobs) {
      if (
        !names.has(job.job.name) &&
        job.job.dependencies.some((dependency) => names.has(dependency.name) && !(hardOnly && dependency.soft))
      ) {
        names.add(job.job.name);
        found.push(job);
        grew = true;
      }
    }
  }
  return found;
}

/** Skip every dependent (soft or hard, transitively) of a failed job that has no build yet. */
async function skipDependents(ctx: PassContext, item: ItemState, failed: JobState): Promise<void> {
  const names = new Set(dependentsOf(item, [failed], false).map((job) => job.job.name));
  for (const job of item.buildset.jobs) {
    if (job !== failed && names.has(job.job.name) && job.build === null) {
      await cancelNodeRequest(ctx, job);
      await completeWithoutBuild(ctx, item, job, 'SKIPPED', `Skipped due to failed job ${failed.job.name}`);
    }
  }
}

async function cancelNodeRequest(ctx: PassContext, job: JobState): Promise<void> {
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
 * in spec §3.1); builds no executor started end CANCELED; with `dequeue` and `stay-current`
 * jobs without a build get a CANCELED placeholder so they do not start.
 */
export type CancelMode = 'reset' | 'dequeue' | 'stay-current';

/** Cancel every unfinished job of an item (spec §2.9.6). */
export async function cancelJobs(ctx: PassContext, item: ItemState, mode: CancelMode): Promise<void> {
  for (const job of item.buildset.jobs) {
    await cancelJob(ctx, item, job, mode);
  }
  ctx.touch(item);
}

/** Cancel one job: its node request, its unfinished build (paused ones too) and its semaphores. */
async function cancelJob(ctx: PassContext, item: ItemState, job: JobState, mode: CancelMode): Promise<void> {
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
    if (item.buildset.historyId !== null) {
      const id = build.historyId ?? (await recordBuildStart(ctx, item.buildset.historyId, item, job, build, ctx.now));
      build.historyId = id;
      await ctx.history.completeBuild(id, {
        result,
        endTime: ctx.now,
        errorDetail: null,
        logUrl: build.logUrl,
        final: true,
        held: false,
        artifacts: [],
        provides: [],
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
  } else if (!build && final && item.buildset.jobGraphFrozen) {
    await completeWithoutBuild(ctx, item, job, 'CANCELED', null);
  }
  await releaseSemaphores(ctx, item, job);
}

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
  event: ResultEvent,
): Promise<void> {
  const { item, job } = location;
  ctx.touch(item);
  if (event.type === 'nodes-provisioned') {
    job.nodeRequestId = null;
    if (!event.fulfilled) {
      // Failed requests are the scheduler's to delete (engine.md §6.2).
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
    const change = item.changes[0];
    build.estimatedTime = await ctx.estimatedTime(change.project, change.branch, job.job.name);
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
 * BuildPaused (spec §2.2.2): the build keeps its nodes and waits; its data goes to its
 * dependents, which may start now. `child_jobs` prunes them as on completion. The resume
 * happens in `resumePausedBuilds` once every dependent has a result.
 */
async function pauseBuild(
  ctx: PassContext,
  location: JobLocation,
  build: BuildState,
  event: Extract<ResultEvent, { type: 'build-paused' }>,
): Promise<void> {
  const { item, job } = location;
  if (build.result !== null || build.paused === true || build.resumeRequested === true) {
    return; // Repeated or late: the build already moved on.
  }
  build.paused = true;
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
    await ctx.history.buildEvent(id, { eventType: 'paused', eventTime: ctx.now });
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
 * Resume every paused build of an item whose dependents (transitively) all have a result
 * (spec §2.10 step 6). Returns true when one was resumed.
 */
export async function resumePausedBuilds(ctx: PassContext, item: ItemState): Promise<boolean> {
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
    if (build.historyId !== null) {
      await ctx.history.buildEvent(build.historyId, { eventType: 'resumed', eventTime: ctx.now });
    }
    const buildUuid = build.uuid;
    ctx.after(() => ctx.gateways.executor.resumeBuild(ctx.tenant, buildUuid));
    ctx.publish({ type: 'job-resumed', pipeline: item.pipeline, itemUuid: item.uuid, job: job.job.name, buildUuid });
    ctx.touch(item);
    resumed = true;
  }
  return resumed;
}

async function completeBuild(
  ctx: PassContext,
  pipeline: EnginePipeline,
  location: JobLocation,
  build: BuildState,
  event: Extract<ResultEvent, { type: 'build-completed' }>,
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

/**
 * `child_jobs` returned by a build (or `zuul.child_jobs` in its data) prunes dependents (spec
 * §2.10 step 5): an empty list skips every hard dependent, transitively; otherwise the direct
 * dependents not listed are skipped, with their hard dependents.
 */
async function skipByChildJobs(
  ctx: PassContext,
  item: ItemState,
  job: JobState,
  returned: string[] | null | undefined,
): Promise<void> {
  const zuul = job.build?.data.zuul;
  const fromData =
    typeof zuul === 'object' && zuul !== null && 'child_jobs' in zuul
      ? (zuul as { child_jobs: unknown }).child_jobs
      : undefined;
  const childJobs: unknown = returned ?? fromData;
  if (!Array.isArray(childJobs)) {
    return;
  }
  const keep = new Set(childJobs.filter((name): name is string => typeof name === 'string'));
  let skipped: JobState[];
  if (keep.size === 0) {
    skipped = dependentsOf(item, [job], true);
  } else {
    const direct = item.buildset.jobs.filter(
      (candidate) =>
        !keep.has(candidate.job.name) &&
        candidate.job.dependencies.some((dependency) => dependency.name === job.job.name),
    );
    skipped = [...direct, ...dependentsOf(item, direct, true)];
  }
  for (const candidate of new Set(skipped)) {
    if (candidate.build === null) {
      await cancelNodeRequest(ctx, candidate);
      await completeWithoutBuild(
        ctx,
        item,
        candidate,
        'SKIPPED',
        `Skipped due to child_jobs return value in job ${job.job.name}`,
      );
    }
  }
}

/** A retried job's dependents lose their builds (unfinished ones are canceled) and run again later. */
async function resetDependents(ctx: PassContext, item: ItemState, job: JobState): Promise<void> {
  for (const dependent of dependentsOf(item, [job], false)) {
    await cancelJob(ctx, item, dependent, 'reset');
    if (dependent.build !== null) {
      dependent.build = null;
      dependent.waitReason = null;
      dependent.waitingStatus = null;
    }
  }
}

async function failFastIfNeeded(ctx: PassContext, item: ItemState, job: JobState): Promise<void> {
  if (!item.buildset.failFast || !job.job.voting || !jobFailed(job)) {
    return;
  }
  await cancelJobs(ctx, item, 'stay-current');
}

/** Autohold (spec §3.8): the most specific matching request holds the build's nodes. */
async function autoholdMatch(ctx: PassContext, item: ItemState, job: JobState, build: BuildState): Promise<boolean> {
  const change = item.changes[0];
  const candidates = await ctx.autohold.candidates(ctx.tenant, change.project, job.job.name, ctx.trx);
  let best: { id: string; rank: number; reason: string; nodeExpiration: number } | null = null;
  for (const request of candidates) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(request.refFilter);
    } catch {
      continue;
    }
    if (!pattern.test(change.ref)) {
      continue;
    }
    const rank = request.refFilter === change.ref ? 3 : request.refFilter === '.*' ? 1 : 2;
    if (!best || rank >= best.rank) {
      best = { id: request.id, rank, reason: request.reason, nodeExpiration: request.nodeExpiration };
    }
  }
  if (!best) {
    return false;
  }
  const nodes: NodeInfo[] = job.nodes;
  const updated = await ctx.autohold.recordHold(
    Number(best.id),
    { build: build.uuid, nodes: nodes.map((node) => node.id) },
    ctx.now,
    ctx.trx,
  );
  if (nodes.length > 0) {
    const { reason, nodeExpiration } = best;
    ctx.after(() => ctx.gateways.nodes.holdNodes(ctx.tenant, nodes, reason, nodeExpiration));
  }
  if (updated.expired !== null) {
    await ctx.systemEvent({
      eventType: 'autohold-exhausted',
      description: `Autohold request ${updated.id} for ${updated.project} ${updated.job} held ${updated.currentCount} build(s) and is exhausted`,
      data: { requestId: updated.id },
    });
  }
  return true;
}
