/**
 * Enqueue (docs/gating.md#enqueue): a change enters its queue with the changes it needs ahead of
 * it, after the connection, cycle, requirement and tenant-limit checks; the zuul driver's
 * `parent-change-enqueued` and the pipeline's `supercedes` follow.
 */
import { reportToDrivers } from './driver-reports';
import { changeId, sameChange, type ChangeInfo } from '../../model/changes';
import type { SerialChange } from '../../model/engine-events';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import { countDependencies, pipelineLimitExceeded, tooManyDependencies } from '../dependencies';
import type { PassContext } from '../pass-context';
import { describeTrigger } from '../report-text';
import { foreignConnection, unmetRequirement } from '../requirements';
import { pipelinesListen } from '../triggers';
import { newBuildset } from './buildsets';
import { allItems } from './queues';
import { reportNotEnqueued } from './reporting';
import type { AddChangeOptions, AddChangeResult, ManagedPipeline } from './types';

/** The live item holding this change (or ref update), if any. */
export function findLiveItem(
  pipeline: ManagedPipeline,
  change: ChangeInfo,
): { queue: QueueState; item: ItemState } | null {
  return (
    allItems(pipeline).find(
      ({ item }) => item.live && item.changes.some((candidate) => sameChange(candidate, change)),
    ) ?? null
  );
}

/** Enqueue a change and, unless ignored, the changes it needs (docs/gating.md#enqueue). */
export async function addChange(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
  options: AddChangeOptions,
): Promise<AddChangeResult> {
  const { config, layout, state, strategy } = pipeline;
  const live = options.live ? findLiveItem(pipeline, change) : null;
  // Image events for other images or uploads get their own item, even while one for the branch is queued.
  if (live && imageRequestKey(live.item) === imageRequestKey(options)) {
    return { enqueued: true, item: null };
  }
  const project = layout.projects.get(change.project);
  if (!project) {
    return { enqueued: false, reason: `Unknown project ${change.project}` };
  }
  // Applies to dependencies and admin enqueues alike (docs/gating.md#enqueue step 2).
  const foreign = foreignConnection(config, project.connection, change);
  if (foreign !== null) {
    return { enqueued: false, reason: foreign };
  }
  const history = options.history ?? [];
  const cycleStart = history.findIndex((seen) => sameChange(seen, change));
  if (cycleStart >= 0) {
    const cycle = await refuseCycle(pipeline, ctx, history.slice(cycleStart), options);
    return { enqueued: false, reason: cycle };
  }
  const needs = await neededChanges(pipeline, ctx, change);
  if (!options.ignoreRequirements) {
    // Requirements apply to dependencies too: an unready dependency blocks the change (docs/gating.md#enqueue).
    const unmet = unmetRequirement(config, project.connection, change, ctx.now);
    if (unmet !== null) {
      return { enqueued: false, reason: unmet };
    }
  }
  const limits = layout.limits;
  if (limits.maxDependencies !== null && history.length === 0 && needs.length > 0) {
    // Dependencies enqueued below see a part of this graph: counting it once at the top is enough.
    const tooMany = tooManyDependencies(
      change,
      await countDependencies(ctx.gateways.changes, change, limits.maxDependencies),
      limits.maxDependencies,
    );
    if (tooMany !== null) {
      return { enqueued: false, reason: tooMany };
    }
  }
  // The changes whose enqueue is in progress above this one count too (docs/gating.md#enqueue step 9).
  const overLimit = pipelineLimitExceeded(pipeline.name, state, 1 + history.length, limits.maxChangesPerPipeline);
  if (overLimit !== null) {
    await reportNotEnqueued(pipeline, ctx, change, options, overLimit);
    return { enqueued: false, reason: overLimit };
  }
  const queue = options.forcedQueue ?? strategy.changeQueue(pipeline, change, project);
  for (const needed of needs) {
    if (queue.items.some((item) => item.changes.some((candidate) => sameChange(candidate, needed)))) {
      continue;
    }
    const admitted = strategy.admitDependency(pipeline, queue, needed, change);
    if ('refused' in admitted) {
      return { enqueued: false, reason: admitted.refused };
    }
    const added = await addChange(pipeline, ctx, needed, {
      ...options,
      live: admitted.live,
      quiet: true,
      history: [...history, change],
      forcedQueue: queue,
    });
    if (!added.enqueued) {
      return added;
    }
  }
  if (!queue.projects.includes(project.canonicalName)) {
    queue.projects.push(project.canonicalName);
  }
  const already = queue.items.find((item) => item.changes.some((candidate) => sameChange(candidate, change)));
  if (already) {
    if (options.live && !already.live) {
      already.live = true;
      ctx.touch(already);
    }
    return { enqueued: true, item: already };
  }
  if (!state.queues.includes(queue)) {
    state.queues.push(queue);
  }
  const item = createItem(pipeline, ctx, queue, change, options);
  queue.items.push(item);
  ctx.touch(item);
  ctx.publish({
    type: 'item-enqueued',
    pipeline: pipeline.name,
    queue: queue.name,
    itemUuid: item.uuid,
    changeIds: item.changes.map(changeId),
    live: item.live,
  });
  reportToDrivers(pipeline, ctx, item, 'enqueue', '', null);
  await strategy.enqueueChangesBehind(pipeline, ctx, change, queue, options, history);
  await announceEnqueue(pipeline, ctx, change);
  return { enqueued: true, item };
}

/**
 * A dependency cycle (the change was reached again while its own dependencies were being
 * enqueued). The reference enqueues a cycle as one item when every member's queue allows
 * circular dependencies; Sluice does not implement cycles and refuses them either way, with
 * the reference's message when the queue does not allow them. The refusal is reported like
 * any non-enqueued change.
 */
async function refuseCycle(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  cycle: ChangeInfo[],
  options: AddChangeOptions,
): Promise<string> {
  const members = cycle.map((member) => `${changeId(member)} of ${member.project}`).join(', ');
  const forbidding = cycle
    .map((member) => pipeline.layout.projects.get(member.project))
    .find((project) => project !== undefined && !project.queueAllowsCycles);
  const reason = forbidding
    ? `Dependency cycle detected and project ${forbidding.name} doesn't allow circular dependencies (cycle: ${members})`
    : `Dependency cycle detected (cycle: ${members}); Sluice does not support dependency cycles yet, although the queue allows circular dependencies`;
  // The first member is the change whose enqueue was asked for.
  await reportNotEnqueued(pipeline, ctx, cycle[0], { ...options, live: true }, reason);
  return reason;
}

function createItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  change: ChangeInfo,
  options: AddChangeOptions,
): ItemState {
  const tail = queue.items.length > 0 ? queue.items[queue.items.length - 1] : null;
  return {
    uuid: ctx.uuid(),
    pipeline: pipeline.name,
    queueName: queue.name,
    changes: [change],
    live: options.live,
    active: false,
    quiet: options.quiet,
    itemAhead: tail?.uuid ?? null,
    enqueueTime: options.enqueueTime ?? ctx.nowIso(),
    eventId: options.eventId,
    eventTimestamp: options.eventTimestamp,
    imageNames: options.imageNames ?? null,
    imageUploadUuid: options.imageUploadUuid ?? null,
    triggeredBy: `Triggered by ${describeTrigger(change)}`,
    reportedStart: false,
    reported: false,
    dequeuedNeedingChange: null,
    dequeuedMissingRequirements: null,
    ...(options.ignoreRequirements ? { requirementsIgnored: true } : {}),
    failingReasons: [],
    firstJobStartTime: null,
    buildset: newBuildset(ctx),
    dequeueTime: null,
    dequeueReason: null,
  };
}

/** Unmerged changes named by Depends-On (only numbered changes have dependencies). */
async function neededChanges(pipeline: ManagedPipeline, ctx: PassContext, change: ChangeInfo): Promise<ChangeInfo[]> {
  if (change.kind !== 'change' || pipeline.config.ignoreDependencies) {
    return [];
  }
  const needs: ChangeInfo[] = [];
  for (const dependency of change.dependsOn) {
    const needed = await ctx.gateways.changes.getChange(dependency.project, dependency.number);
    if (needed && !needed.merged) {
      needs.push(needed);
    }
  }
  return needs;
}

/** zuul-driver `parent-change-enqueued` and the `supercedes` option (docs/gating.md#enqueue steps 14–15). */
async function announceEnqueue(pipeline: ManagedPipeline, ctx: PassContext, change: ChangeInfo): Promise<void> {
  const { layout } = pipeline;
  if (change.kind === 'change' && pipelinesListen(layout, 'parent-change-enqueued')) {
    const children = await ctx.gateways.changes.changesDependingOn(change, [...layout.projects.keys()]);
    for (const child of children) {
      await ctx.emit({
        type: 'parent-change-enqueued',
        project: child.project,
        change: child.number,
        patchset: child.patchset,
        parentPipeline: pipeline.name,
      });
    }
  }
  for (const target of pipeline.config.supercedes) {
    await ctx.emit({ type: 'supercede', pipeline: target, change: serialChange(change), by: pipeline.name });
  }
}

/** The JSON form of a change used in follow-up events. */
function serialChange(change: ChangeInfo): SerialChange {
  return {
    project: change.project,
    number: change.number,
    patchset: change.patchset,
    ref: change.ref,
    oldrev: change.oldrev,
    newrev: change.newrev,
  };
}

/** What an image event asks of an item (none for other events): the images and the upload to validate. */
function imageRequestKey(source: { imageNames?: string[] | null; imageUploadUuid?: string | null }): string {
  return JSON.stringify([source.imageNames ?? null, source.imageUploadUuid ?? null]);
}
