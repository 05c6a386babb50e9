/**
 * The ways an item leaves its pipeline or starts over (docs/gating.md#leaving-a-pipeline): dequeue, removal
 * with cancel, reset with a new buildset, and the rules that take items out (new patchsets,
 * the tenant's dependency limit).
 */
import { reportToDrivers } from './driver-reports';
import type { ChangeInfo } from '../../model/changes';
import type { GateResetCause } from '../../model/gate-resets';
import { recordGateReset } from '../analytics/gate-resets';
import type { DequeueReason, ItemState, QueueState } from '../../model/pipeline-state';
import { countDependencies, tooManyDependencies } from '../dependencies';
import { allItemsBehind, isMergingIntoBranch } from '../item-predicates';
import { cancelJobs } from '../jobs/cancel';
import type { PassContext } from '../pass-context';
import { formatReport } from '../report-text';
import { ensureHistoryBuildset, newBuildset } from './buildsets';
import { itemsHoldingNumber } from '../queue-index';
import { allItems } from './queues';
import { untracked } from '../scheduler/item-changes';
import type { ManagedPipeline } from './types';

/** Take an item out of its queue; items behind move up to its parent (docs/gating.md#leaving-a-pipeline). */
export function dequeueItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  reason: DequeueReason,
): void {
  // One look at each item (read from the plain data): the items behind move up, the others stay.
  const uuid = untracked(item).uuid;
  const itemAhead = untracked(item).itemAhead;
  const remaining: ItemState[] = [];
  for (const other of queue.items) {
    if (other === item) {
      continue;
    }
    if (untracked(other).itemAhead === uuid) {
      other.itemAhead = itemAhead;
    }
    remaining.push(other);
  }
  queue.items = remaining;
  item.dequeueTime = ctx.nowIso();
  item.dequeueReason = reason;
  ctx.withdrawMerge(item.buildset);
  ctx.dequeued.push({ item, queueId: queue.id });
  ctx.publish({ type: 'item-dequeued', pipeline: pipeline.name, queue: queue.name, itemUuid: item.uuid, reason });
  if (queue.items.length === 0 && queue.dynamic) {
    pipeline.state.queues = pipeline.state.queues.filter((candidate) => candidate !== queue);
    if (queue.id !== 0) {
      ctx.deletedQueueIds.push(queue.id);
    }
  }
}

/**
 * Cancel the jobs of one item and give it a new buildset (docs/gating.md#canceling-jobs). Only
 * for an item nothing is tested on top of; otherwise {@link resetItemAndBehind}.
 */
export async function resetItem(ctx: PassContext, item: ItemState, cause: GateResetCause): Promise<void> {
  await recordGateReset(ctx, item, cause);
  await cancelJobs(ctx, item, 'reset');
  if (item.buildset.historyId !== null && item.buildset.result === null) {
    await ctx.history.finishBuildset(item.buildset.historyId, { result: 'DEQUEUED', message: null, at: ctx.now });
  }
  ctx.withdrawMerge(item.buildset);
  item.buildset = newBuildset(ctx);
  item.failingReasons = [];
}

/**
 * Reset an item and every item behind it, at any depth: they were all tested on top of it
 * (docs/gating.md#canceling-jobs, docs/gating.md#resets).
 */
export async function resetItemAndBehind(
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  cause: GateResetCause,
): Promise<void> {
  const behind = allItemsBehind(queue, item);
  await resetItem(ctx, item, cause);
  await resetItems(ctx, behind, cause);
}

/**
 * Reset items that were tested on top of an item that leaves without merging (or that was
 * reset), finished builds included. Items never prepared (outside the window) hold nothing
 * computed on that state and keep their buildset. An item whose merge into its branch is out
 * keeps it too, since that merge may still be made (docs/gating.md#merges-in-a-row), unless
 * `mergeAheadFailed`: the merge it was to follow failed, so the runner will not make it.
 */
export async function resetItems(
  ctx: PassContext,
  items: readonly ItemState[],
  cause: GateResetCause,
  options: { mergeAheadFailed?: boolean } = {},
): Promise<void> {
  for (const item of items) {
    if (item.buildset.configured && (options.mergeAheadFailed === true || !isMergingIntoBranch(item))) {
      await resetItem(ctx, item, cause);
    }
  }
}

/**
 * Cancel an item's jobs, record DEQUEUED and take it out (docs/gating.md#leaving-a-pipeline). Items
 * behind it were tested with it merged underneath, so they are reset (docs/gating.md#canceling-jobs).
 * False, changing nothing, for an item whose merge into its branch is out: that merge decides it
 * (docs/gating.md#items-being-merged); only a reconfiguration that drops its pipeline or project
 * takes it out at once.
 */
export async function removeItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  reason: DequeueReason,
): Promise<boolean> {
  if (isMergingIntoBranch(item) && reason.kind !== 'reconfiguration') {
    return false;
  }
  await resetItems(ctx, allItemsBehind(queue, item), { kind: 'item-ahead-dequeued', by: item.uuid });
  await cancelJobs(ctx, item, 'dequeue');
  if (item.live && item.buildset.result === null) {
    item.buildset.result = 'DEQUEUED';
    const message = item.reportedStart ? formatReport(pipeline.config, item, 'dequeue') : null;
    if (recordsDequeue(item)) {
      const historyId = await ensureHistoryBuildset(pipeline, ctx, item);
      await ctx.history.finishBuildset(historyId, { result: 'DEQUEUED', message, at: ctx.now });
    }
    // The pipeline's `dequeue` reporters of code-review drivers (docs/github.md#reporters).
    reportToDrivers(pipeline, ctx, item, 'dequeue', message ?? '', 'DEQUEUED');
  }
  dequeueItem(pipeline, ctx, queue, item, reason);
  return true;
}

/**
 * Whether a dequeued item's buildset is recorded, as the reference decides it: once it has jobs
 * (its row exists from the freeze on), a configuration error or a failed merge (the row is
 * written now). An item taken out before its job graph was frozen leaves no buildset: nothing
 * was known to run for it (docs/gating.md#leaving-a-pipeline).
 */
function recordsDequeue(item: ItemState): boolean {
  const buildset = item.buildset;
  return (
    buildset.historyId !== null ||
    (!buildset.notInPipeline && (buildset.configError !== null || buildset.unableToMerge))
  );
}

/**
 * After a new layout: live items whose dependencies now exceed the tenant's `max-dependencies`
 * leave the pipeline (docs/gating.md#queue-pass step 2; the reference re-counts on every pass, Sluice when the
 * limit can have changed).
 */
export async function enforceDependencyLimit(pipeline: ManagedPipeline, ctx: PassContext): Promise<void> {
  const limit = pipeline.layout.limits.maxDependencies;
  if (limit === null || pipeline.config.ignoreDependencies) {
    return;
  }
  for (const { queue, item } of allItems(pipeline)) {
    const change = item.changes[0];
    if (!item.live || item.dequeueTime !== null || change.kind !== 'change' || change.dependsOn.length === 0) {
      continue;
    }
    const tooMany = tooManyDependencies(change, await countDependencies(ctx.gateways.changes, change, limit), limit);
    if (tooMany !== null) {
      await removeItem(pipeline, ctx, queue, item, { kind: 'too-many-dependencies', message: tooMany });
    }
  }
}

/**
 * Remove live items holding an older patchset of the change (dequeue-on-new-patchset). Returns
 * the other changes of the removed items (members of a dependency cycle), which the reference
 * enqueues again (docs/gating.md#dependency-cycles).
 */
export async function removeOldPatchsets(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  change: ChangeInfo,
): Promise<ChangeInfo[]> {
  if (!pipeline.config.dequeueOnNewPatchset || change.kind !== 'change') {
    return [];
  }
  const others: ChangeInfo[] = [];
  for (const { queue, item } of holdingNumber(pipeline, change)) {
    const old = item.changes.find(
      (candidate) =>
        candidate.project === change.project &&
        candidate.number === change.number &&
        candidate.patchset !== change.patchset,
    );
    if (
      item.live &&
      old &&
      isOlderPatchset(old, change) &&
      (await removeItem(pipeline, ctx, queue, item, { kind: 'new-patchset', patchset: change.patchset ?? '' }))
    ) {
      others.push(...item.changes.filter((member) => member !== old));
    }
  }
  return others;
}

/**
 * The items of the pipeline that may hold the change (any patchset), in the order of `allItems`:
 * those its queues' indexes name (src/engine/queue-index.ts), so that a trigger event of a change
 * costs the same whatever the length of the queues (docs/gating.md#performance); every item for a
 * change without a number.
 */
export function holdingNumber(
  pipeline: ManagedPipeline,
  change: ChangeInfo,
): Array<{ queue: QueueState; item: ItemState }> {
  return change.number === null
    ? allItems(pipeline)
    : itemsHoldingNumber(pipeline.state.queues, change.project, change.number);
}

/**
 * Numbered patchsets (git change refs) compare by number; patchsets named by their commit
 * (GitHub pull requests, docs/github.md#changes) are older when the new one is the head.
 */
function isOlderPatchset(old: ChangeInfo, change: ChangeInfo): boolean {
  const before = Number(old.patchset);
  const after = Number(change.patchset);
  if (Number.isFinite(before) && Number.isFinite(after)) {
    return before < after;
  }
  return change.currentPatchset !== false;
}
