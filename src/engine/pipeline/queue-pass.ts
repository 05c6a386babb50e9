/**
 * The queue pass (docs/gating.md#event-processing, docs/gating.md#queue-pass): each item in queue order is placed
 * behind the nearest non-failing item ahead (NNFI), activated inside the window, prepared, given its
 * jobs, and reported and dequeued once complete. Passes repeat until nothing changes.
 */
import { reportToDrivers } from './driver-reports';
import type { ItemState, QueueState } from '../../model/pipeline-state';
import {
  allItemsBehind,
  allJobsComplete,
  anyJobFailed,
  didAllJobsSucceed,
  findItem,
  isMergingIntoBranch,
} from '../item-predicates';
import { cancelJobs, holdsAnyUnusedResources, releaseUnusedResources } from '../jobs/cancel';
import { executeJobs } from '../jobs/run';
import { hasPausedBuild, resumePausedBuilds } from '../jobs/results';
import type { PassContext } from '../pass-context';
import { queueIndex } from '../queue-index';
import { checkItemChanges, untracked } from '../scheduler/item-changes';
import { insideWindow } from '../window';
import { dequeueItem, resetItem, resetItemAndBehind, resetItems } from './leaving';
import { prepareItem } from './prepare';
import { reportItem, requestMergeBehind } from './reporting';
import type { ManagedPipeline, NeededChanges } from './types';

/** Upper bound of processQueue repetitions in one pass (a safety net against oscillation). */
const MAX_QUEUE_PASSES = 50;

/** Repeat queue passes until nothing changes; true when anything did. */
export async function processQueues(pipeline: ManagedPipeline, ctx: PassContext): Promise<boolean> {
  let changedAtAll = false;
  for (let pass = 0; pass < MAX_QUEUE_PASSES; pass += 1) {
    let changed = false;
    for (const queue of [...pipeline.state.queues]) {
      changed = (await processQueue(pipeline, ctx, queue)) || changed;
    }
    changedAtAll = changedAtAll || changed;
    if (!changed) {
      break;
    }
  }
  return changedAtAll;
}

async function processQueue(pipeline: ManagedPipeline, ctx: PassContext, queue: QueueState): Promise<boolean> {
  let nnfi: ItemState | null = null;
  let changed = false;
  // Lookups by uuid and the queue position are kept incrementally: long queues (hundreds of
  // items) are walked on every pass, so per-item linear scans would make a pass quadratic. The
  // uuids are those of the items the walk begins with, in the queue's index
  // (src/engine/queue-index.ts), which the walks and enqueues of later passes share while the
  // queue keeps its array.
  const index = queueIndex(queue);
  const walk: QueueWalk = {
    find: (uuid) => {
      const position = uuid === null ? undefined : index.byUuid.get(uuid);
      const found = position === undefined ? undefined : index.items[position];
      // An item that left during the walk is no longer in the queue: its uuid is looked up again.
      return found && untracked(found).dequeueTime === null ? found : findItem(queue, uuid);
    },
    parents: new ParentsInQueue(queue),
  };
  let position = 0;
  for (const item of [...queue.items]) {
    // The plain data behind the item (`untracked`), read once: the item's writes land in it.
    const view = untracked(item);
    if (view.dequeueTime !== null) {
      continue;
    }
    // Most items wait outside the window and are answered without a promise (`waitsUnchanged`).
    const processed = processOneItem(pipeline, ctx, queue, item, view, nnfi, position, walk);
    const outcome = processed instanceof Promise ? await processed : processed;
    changed = changed || outcome.changed;
    nnfi = outcome.nnfi;
    if (view.dequeueTime === null) {
      position += 1;
    }
  }
  return changed;
}

/** What one walk of a queue keeps so that an item costs the same whatever the length of the queue. */
interface QueueWalk {
  /** The item of the queue with this uuid (`findItem`), looked up among the items the walk began with. */
  find: (uuid: string | null) => ItemState | null;
  parents: ParentsInQueue;
}

/**
 * Which uuids are the item ahead of an item of the queue, and of how many: whether a non-live
 * item still has an item behind it (docs/gating.md#queue-pass) without a scan of the queue for
 * each such item, which made a walk quadratic in queues of many non-live items (a change with a
 * long Depends-On chain in an independent pipeline, docs/gating.md#performance). Counted when
 * first asked, and again when the queue holds another array or one of another length (a dequeue
 * gives the queue a new array with the items behind re-parented, an enqueue pushes onto it, as
 * for `itemsAheadHolding` in src/engine/item-predicates.ts); a move during the walk, the only
 * change of an item ahead made in place, is told with {@link moved}.
 */
class ParentsInQueue {
  private counted: readonly ItemState[] | null = null;
  private length = 0;
  private readonly behind = new Map<string, number>();

  constructor(private readonly queue: QueueState) {}

  /** Whether any item of the queue has this one as its item ahead. */
  hasItemBehind(uuid: string): boolean {
    if (!this.current()) {
      this.behind.clear();
      for (const item of this.queue.items) {
        this.add(untracked(item).itemAhead, 1);
      }
      this.counted = this.queue.items;
      this.length = this.queue.items.length;
    }
    return this.behind.has(uuid);
  }

  /** An item of the queue now has `to` ahead of it instead of `from`. */
  moved(from: string | null, to: string | null): void {
    if (this.current()) {
      this.add(from, -1);
      this.add(to, 1);
    }
  }

  private current(): boolean {
    return this.counted === this.queue.items && this.length === this.queue.items.length;
  }

  private add(uuid: string | null, count: number): void {
    if (uuid === null) {
      return;
    }
    const total = (this.behind.get(uuid) ?? 0) + count;
    if (total > 0) {
      this.behind.set(uuid, total);
    } else {
      this.behind.delete(uuid);
    }
  }
}

/** What the walk carries on from an item: whether it changed anything, and the NNFI behind it. */
interface ItemOutcome {
  changed: boolean;
  nnfi: ItemState | null;
}

/** Whether the walk checks each answer of `waitsUnchanged` against the full look (the item change check's switch). */
const checkWaitingItems = checkItemChanges();

function processOneItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  view: ItemState,
  nnfi: ItemState | null,
  index: number,
  walk: QueueWalk,
): ItemOutcome | Promise<ItemOutcome> {
  // Reads go to the plain data, `view` (most items wait outside the window and change nothing);
  // writes, and everything handed on, to the tracked item.
  let ahead = walk.find(view.itemAhead);
  if (ahead && !untracked(ahead).live) {
    ahead = null;
  }
  if (isMergingIntoBranch(item)) {
    // Its merge is out and cannot be called back: only its outcome decides the item now
    // (docs/gating.md#items-being-merged).
    return mergingItem(pipeline, ctx, queue, item, ahead, nnfi);
  }
  // An item waiting outside the window changes nothing in most passes: what it is asked is
  // answered without a promise when there is nothing to do (docs/gating.md#performance).
  const asked = pipeline.strategy.neededChanges(pipeline, ctx, queue, item);
  if (!(asked instanceof Promise) && waitsUnchanged(queue, item, view, asked, ahead, nnfi, index)) {
    return checkWaitingItems
      ? checkWaiting(lookAtItem(pipeline, ctx, queue, item, view, nnfi, index, walk, ahead, asked), item)
      : { changed: false, nnfi: item };
  }
  return lookAtItem(pipeline, ctx, queue, item, view, nnfi, index, walk, ahead, asked);
}

/**
 * Whether the full look at an item (`lookAtItem`) would change nothing and make it the NNFI: a
 * live item outside the window, staying outside it, behind the NNFI, with its needed changes
 * met, no failed job, no failing reason, no resources to give back, no paused build and no merge
 * to ask for behind the item ahead. A walk visits every waiting item on every pass, so these are
 * answered from the plain data with no promise, reasons list or result made for each
 * (docs/gating.md#performance). Under jest (the item change check's switch) each such answer is
 * checked against the full look.
 */
function waitsUnchanged(
  queue: QueueState,
  item: ItemState,
  view: ItemState,
  needed: NeededChanges,
  ahead: ItemState | null,
  nnfi: ItemState | null,
  index: number,
): boolean {
  return (
    needed.state === 'met' &&
    view.live &&
    !view.active &&
    !insideWindow(index, queue.window) &&
    ahead !== null &&
    !movesBehindNnfi(ahead, nnfi) &&
    view.failingReasons.length === 0 &&
    !anyJobFailed(view.buildset.jobs) &&
    !holdsAnyUnusedResources(item) &&
    !hasPausedBuild(item) &&
    !(allJobsComplete(item) && isMergingIntoBranch(ahead))
  );
}

/** The full look's outcome for an item `waitsUnchanged` answered for: nothing changed, the item the NNFI. */
async function checkWaiting(full: Promise<ItemOutcome>, item: ItemState): Promise<ItemOutcome> {
  const outcome = await full;
  if (outcome.changed || outcome.nnfi !== item) {
    throw new Error(`the queue walk took item ${untracked(item).uuid} for a waiting item with nothing to do, wrongly`);
  }
  return outcome;
}

/** The full look at an item of the walk (docs/gating.md#queue-pass). */
async function lookAtItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  view: ItemState,
  nnfi: ItemState | null,
  index: number,
  walk: QueueWalk,
  ahead: ItemState | null,
  asked: NeededChanges | Promise<NeededChanges>,
): Promise<ItemOutcome> {
  let changed = false;
  const reasons: string[] = [];
  const needed = asked instanceof Promise ? await asked : asked;
  if (needed.state === 'missing') {
    item.dequeuedNeedingChange = needed.message;
    // Items behind were tested with this one underneath (docs/gating.md#resets).
    await resetItems(ctx, allItemsBehind(queue, item), { kind: 'dependency-dequeued', by: item.uuid });
    await cancelJobs(ctx, item, 'dequeue');
    await reportItem(pipeline, ctx, queue, item);
    dequeueItem(pipeline, ctx, queue, item, { kind: 'dependency-dequeued', message: needed.message });
    return { changed: true, nnfi };
  }
  const active = insideWindow(index, queue.window);
  if (view.active !== active) {
    item.active = active;
    changed = true;
  }
  if (!active && holdsAnyUnusedResources(item) && (await releaseUnusedResources(ctx, item))) {
    changed = true;
  }
  if (needed.state === 'failing') {
    reasons.push('a needed change is failing');
    if (view.buildset.jobs.some((job) => job.build === null || job.build.result === null)) {
      await cancelJobs(ctx, item, 'stay-current');
      changed = true;
    }
  } else if (view.active || movesBehindNnfi(ahead, nnfi)) {
    changed = (await advanceItem(pipeline, ctx, queue, item, ahead, nnfi, reasons, walk)) || changed;
  }
  if (view.live && hasPausedBuild(item) && (await resumePausedBuilds(ctx, item))) {
    changed = true;
  }
  if (anyJobFailed(view.buildset.jobs)) {
    reasons.push('at least one job failed');
  }
  if (!view.live && !walk.parents.hasItemBehind(view.uuid)) {
    dequeueItem(pipeline, ctx, queue, item, { kind: 'non-live-no-items-behind' });
    return { changed: true, nnfi };
  }
  if (!sameList(view.failingReasons, reasons)) {
    item.failingReasons = reasons;
  }
  if (ahead === null && view.live && allJobsComplete(item)) {
    const reported = await reportAndDequeue(pipeline, ctx, queue, item);
    return { changed: changed || reported, nnfi: reported ? nnfi : item };
  }
  if (
    ahead !== null &&
    view.live &&
    reasons.length === 0 &&
    allJobsComplete(item) &&
    isMergingIntoBranch(ahead) &&
    (await requestMergeBehind(pipeline, ctx, item, ahead))
  ) {
    return { changed: true, nnfi: item };
  }
  if (view.failingReasons.length === 0 && view.live) {
    return { changed, nnfi: item };
  }
  return { changed, nnfi };
}

/** Whether an item whose item ahead is `ahead` moves behind the NNFI: its parent is failing (or left the chain of live items). */
function movesBehindNnfi(ahead: ItemState | null, nnfi: ItemState | null): boolean {
  if (ahead === null || ahead === nnfi) {
    return false; // most items: right behind the NNFI
  }
  const aheadUuid = ahead === null ? null : untracked(ahead).uuid;
  const nnfiUuid = nnfi === null ? null : untracked(nnfi).uuid;
  return aheadUuid !== nnfiUuid && ahead !== null && untracked(ahead).changes[0].kind === 'change';
}

/**
 * An item whose needed changes are fine: moved behind the NNFI when its parent is failing,
 * and, inside the window, prepared and given its jobs. Reasons it is failing are added.
 */
async function advanceItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  ahead: ItemState | null,
  nnfi: ItemState | null,
  reasons: string[],
  walk: QueueWalk,
): Promise<boolean> {
  let changed = false;
  if (ahead !== null && movesBehindNnfi(ahead, nnfi)) {
    const nnfiUuid = nnfi === null ? null : untracked(nnfi).uuid;
    // Everything behind this item was tested on its old base too, finished builds included:
    // a reset of this item alone would let their results count (docs/gating.md#resets).
    walk.parents.moved(untracked(item).itemAhead, nnfiUuid);
    item.itemAhead = nnfiUuid;
    await resetItemAndBehind(ctx, queue, item, { kind: 'item-ahead-failed', by: ahead.uuid });
    ctx.publish({
      type: 'item-moved',
      pipeline: pipeline.name,
      queue: queue.name,
      itemUuid: item.uuid,
      itemAhead: nnfiUuid,
    });
    changed = true;
  }
  if (!untracked(item).active) {
    return changed;
  }
  const prepared = await prepareItem(pipeline, ctx, queue, item, walk.find);
  changed = prepared.changed || changed;
  if (item.buildset.unableToMerge) {
    reasons.push('it has a merge conflict');
  }
  if (item.buildset.configError !== null) {
    reasons.push('it has an invalid configuration');
  }
  if (prepared.ready) {
    if (
      !item.reportedStart &&
      !item.quiet &&
      item.buildset.jobs.length > 0 &&
      pipeline.config.reporters.start.connections.length > 0
    ) {
      item.reportedStart = true;
      reportToDrivers(pipeline, ctx, item, 'start', '', null);
    }
    changed = (await executeJobs(ctx, pipeline.config, queue, item)) || changed;
  }
  return changed;
}

/**
 * An item whose merge into its branch is out: at the head it reports and leaves once the merge
 * came back; behind an item it waits for that one to leave (docs/gating.md#merges-in-a-row). A
 * merge the runner skipped, because the merge it was to follow was not made, is tested again
 * with what is now ahead of it, and so is every item behind it.
 */
async function mergingItem(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  ahead: ItemState | null,
  nnfi: ItemState | null,
): Promise<ItemOutcome> {
  if (item.buildset.branchMerge?.skipped === true && item.buildset.branchMerge.done) {
    const behind = allItemsBehind(queue, item);
    await resetItem(ctx, item, { kind: 'merge-failed', by: null });
    await resetItems(ctx, behind, { kind: 'merge-failed', by: null }, { mergeAheadFailed: true });
    return { changed: true, nnfi };
  }
  if (ahead !== null) {
    return { changed: false, nnfi: item };
  }
  const reported = await reportAndDequeue(pipeline, ctx, queue, item);
  return { changed: reported, nnfi: reported ? nnfi : item };
}

/**
 * A complete item at the head reports and leaves; false while its merge (engine work,
 * docs/gating.md#engine-work) has not come back. Unless it merged, the items behind start
 * over: they were tested assuming it would merge (docs/gating.md#resets; a failing item can
 * report in the same pass its failure is seen, before the walk reaches the items behind it).
 */
async function reportAndDequeue(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
): Promise<boolean> {
  if (didAllJobsSucceed(item.buildset) && !item.buildset.branchMerge) {
    // The last look before merging: the change may have moved on since it was enqueued.
    const refusal = await pipeline.strategy.refusalBeforeMerge(pipeline, ctx, item);
    if (refusal !== null) {
      await dequeueMissingRequirements(pipeline, ctx, queue, item, refusal);
      return true;
    }
  }
  const outcome = await reportItem(pipeline, ctx, queue, item);
  if (outcome === null) {
    return false;
  }
  const resets = outcome.result !== 'SUCCESS' || outcome.mergeFailed;
  // Taken before the dequeue moves them up, and only when they start over: a scan of the queue
  // (docs/gating.md#performance). Reporting moves no item.
  const behind = resets ? allItemsBehind(queue, item) : [];
  dequeueItem(pipeline, ctx, queue, item, { kind: 'reported', result: outcome.result });
  if (resets) {
    const kind = outcome.mergeFailed ? 'merge-failed' : 'item-ahead-failed';
    // The merges asked for behind it are not made either (docs/gating.md#merges-in-a-row).
    await resetItems(ctx, behind, { kind, by: item.uuid }, { mergeAheadFailed: outcome.mergeFailed });
  }
  return true;
}

/** Report an item that no longer meets the requirements as failed and take it out; items behind were tested with it. */
export async function dequeueMissingRequirements(
  pipeline: ManagedPipeline,
  ctx: PassContext,
  queue: QueueState,
  item: ItemState,
  reason: string,
): Promise<void> {
  item.dequeuedMissingRequirements = reason;
  const behind = allItemsBehind(queue, item);
  await reportItem(pipeline, ctx, queue, item);
  dequeueItem(pipeline, ctx, queue, item, { kind: 'requirements-not-met', message: reason });
  await resetItems(ctx, behind, { kind: 'requirements-not-met', by: item.uuid });
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
