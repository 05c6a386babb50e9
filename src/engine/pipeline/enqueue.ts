/**
 * Enqueue (docs/gating.md#enqueue): a change enters its queue with the changes it needs ahead of
 * it, after the connection, cycle, requirement and tenant-limit checks; the zuul driver's
 * `parent-change-enqueued` and the pipeline's `supercedes` follow.
 */
import { reportToDrivers } from './driver-reports';
import { changeId, gerritMergeRefusal, sameChange, type ChangeInfo } from '../../model/changes';
import type { SerialChange } from '../../model/engine-events';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import { cycleRefusal } from '../cycles';
import { countDependencies, pipelineLimitExceeded, tooManyDependencies } from '../dependencies';
import type { PassContext } from '../pass-context';
import { describeTrigger } from '../report-text';
import { foreignConnection, unmetRequirement } from '../requirements';
import { pipelinesListen } from '../triggers';
import { newBuildset } from './buildsets';
import { changeCycle, cycleTooLarge, foreignMember, memberOutsideQueue } from './cycle-enqueue';
import { firstItemHoldingAny, itemsHolding } from '../queue-index';
import { untracked } from '../scheduler/item-changes';
import { reportNotEnqueued } from './reporting';
import type { AddChangeOptions, AddChangeResult, ManagedPipeline } from './types';

/** The live item holding this change (or ref update), if any. */
export function findLiveItem(
  pipeline: ManagedPipeline,
  change: ChangeInfo,
): { queue: QueueState; item: ItemState } | null {
  // Through the queues' indexes (src/engine/queue-index.ts): every enqueue asks, whatever the queue's length.
  for (const queue of pipeline.state.queues) {
    const item = itemsHolding(queue, change).find((candidate) => untracked(candidate).live);
    if (item) {
      return { queue, item };
    }
  }
  return null;
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
  if (history.some((seen) => sameChange(seen, change))) {
    // Reached again while its own dependencies were being enqueued: a cycle the walk of
    // findCycle did not see whole (larger than its limit).
    const cycle = history.slice(history.findIndex((seen) => sameChange(seen, change)));
    return refuse(pipeline, ctx, cycle[0], options, cycleRefusal(layout, cycle) ?? cycleTooLarge(cycle));
  }
  const cycle = await changeCycle(pipeline, ctx, change);
  if (cycle.length > 1) {
    const refusal = cycleRefusal(layout, cycle) ?? foreignMember(pipeline, cycle);
    if (refusal !== null) {
      return refuse(pipeline, ctx, change, options, refusal);
    }
  }
  const needs = await neededChanges(pipeline, ctx, cycle);
  if (!options.ignoreRequirements) {
    // Requirements apply to dependencies and every member of a cycle too (docs/gating.md#enqueue).
    for (const member of cycle) {
      const connection = layout.projects.get(member.project)?.connection ?? project.connection;
      const unmet = unmetRequirement(config, connection, member, ctx.now);
      if (unmet !== null) {
        return { enqueued: false, reason: unmet };
      }
    }
  }
  const notReady = config.manager === 'dependent' ? unmergeableMember(pipeline, cycle) : null;
  if (notReady !== null) {
    return { enqueued: false, reason: notReady };
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
  const overLimit = pipelineLimitExceeded(
    pipeline.name,
    state,
    cycle.length + history.length,
    limits.maxChangesPerPipeline,
  );
  if (overLimit !== null) {
    await reportNotEnqueued(pipeline, ctx, change, options, overLimit);
    return { enqueued: false, reason: overLimit };
  }
  const queue = options.forcedQueue ?? strategy.changeQueue(pipeline, change, project);
  const outsider = cycle.length > 1 ? memberOutsideQueue(pipeline, queue, cycle) : null;
  if (outsider !== null) {
    return refuse(pipeline, ctx, change, options, outsider);
  }
  const enqueuing = cycle.length > 1 ? [...history, ...cycle] : [...history, change];
  for (const needed of needs) {
    if (itemsHolding(queue, needed).length > 0) {
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
      history: enqueuing,
      forcedQueue: queue,
    });
    if (!added.enqueued) {
      return added;
    }
  }
  for (const member of cycle) {
    const canonical = layout.projects.get(member.project)?.canonicalName ?? member.project;
    if (!queue.projects.includes(canonical)) {
      queue.projects.push(canonical);
    }
  }
  const already = firstItemHoldingAny(queue, cycle);
  if (already) {
    if (options.live && !already.live) {
      already.live = true;
    }
    return { enqueued: true, item: already };
  }
  if (!state.queues.includes(queue)) {
    state.queues.push(queue);
  }
  const item = createItem(pipeline, ctx, queue, cycle, options);
  queue.items.push(item);
  ctx.publish({
    type: 'item-enqueued',
    pipeline: pipeline.name,
    queue: queue.name,
    itemUuid: item.uuid,
    changeIds: item.changes.map(changeId),
    live: item.live,
  });
  reportToDrivers(pipeline, ctx, item, 'enqueue', '', null);
  for (const member of cycle) {
    await strategy.enqueueChangesBehind(pipeline, ctx, member, queue, options, cycle.length > 1 ? enqueuing : history);
  }
  for (const member of cycle) {
    await announceEnqueue(pipeline, ctx, member);
  }
  return { enqueued: true, item };
}

/**
 * A dependent pipeline takes only changes their source would merge, as the reference's
 * `areChangesReadyToBeEnqueued`: for a Gerrit change, its work-in-progress flag, missing labels and
 * submit requirements, with the labels the pipeline's success reporters vote allowed to be
 * missing (docs/gerrit.md#submit-requirements). The refusal of the first that would not; null.
 */
function unmergeableMember(pipeline: ManagedPipeline, cycle: readonly ChangeInfo[]): string | null {
  const allowNeeds = pipeline.config.reporters.success.allowNeeds ?? [];
  for (const member of cycle) {
    const refusal = member.gerrit && !member.merged ? gerritMergeRefusal(member.gerrit, allowNeeds) : null;
    if (refusal !== null) {
      return `Change ${changeId(member)} in project ${member.project} can not be merged due to: ${refusal}`;
    }
  }
  return null;
}

/** A refusal reported like any non-enqueued change (docs/gating.md#enqueue). */
async function refuse(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
  options: AddChangeOptions,
  reason: string,
): Promise<AddChangeResult> {
  await reportNotEnqueued(pipeline, ctx, change, { ...options, live: true }, reason);
  return { enqueued: false, reason };
}

function createItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  changes: ChangeInfo[],
  options: AddChangeOptions,
): ItemState {
  const tail = queue.items.length > 0 ? queue.items[queue.items.length - 1] : null;
  return {
    uuid: ctx.uuid(),
    pipeline: pipeline.name,
    queueName: queue.name,
    changes,
    live: options.live,
    active: false,
    quiet: options.quiet,
    itemAhead: tail?.uuid ?? null,
    enqueueTime: options.enqueueTime ?? ctx.nowIso(),
    eventId: options.eventId,
    eventTimestamp: options.eventTimestamp,
    imageNames: options.imageNames ?? null,
    imageUploadUuid: options.imageUploadUuid ?? null,
    triggeredBy: `Triggered by ${describeTrigger(changes[0])}`,
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

/** Unmerged changes named by Depends-On of any member, the members themselves left out (only numbered changes have dependencies). */
async function neededChanges(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  members: readonly ChangeInfo[],
): Promise<ChangeInfo[]> {
  const needs: ChangeInfo[] = [];
  for (const change of members) {
    if (change.kind !== 'change' || pipeline.config.ignoreDependencies) {
      continue;
    }
    for (const dependency of change.dependsOn) {
      const needed = await ctx.gateways.changes.getChange(dependency.project, dependency.number);
      if (needed && !needed.merged && ![...members, ...needs].some((known) => sameChange(known, needed))) {
        needs.push(needed);
      }
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
