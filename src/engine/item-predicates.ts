/**
 * Item and job predicates of docs/gating.md#build-completion (pure functions over the runtime
 * model). They only read, so they read the plain data behind tracked items
 * (src/engine/scheduler/item-changes.ts, `untracked`); those returning items return the queue's own.
 */
import type { BuildResult } from '../model/results';
import type { BuildsetState, ItemState, JobState, QueueState } from '../model/pipeline-state';
import { changeKey, queueIndex } from './queue-index';
import { untracked } from './scheduler/item-changes';

const NOT_FAILED: ReadonlySet<BuildResult> = new Set<BuildResult>(['SUCCESS', 'SKIPPED', 'RETRY']);

/** A build failed iff it has a result outside SUCCESS, SKIPPED and RETRY. */
export function jobFailed(job: JobState): boolean {
  const result = job.build?.result ?? null;
  return result !== null && !NOT_FAILED.has(result);
}

/**
 * Whether a job's result decides its item: a voting job that is not quarantined (a quarantined
 * job's failure is reported but does not fail the item, docs/analytics.md#quarantine).
 */
export function jobVotes(job: JobState): boolean {
  return job.job.voting && job.quarantined !== true;
}

export function jobComplete(job: JobState): boolean {
  return (job.build?.result ?? null) !== null;
}

/** True when the item has nothing left to run (or can never run). */
export function allJobsComplete(tracked: ItemState): boolean {
  const item = untracked(tracked);
  const buildset = item.buildset;
  if (
    buildset.configError !== null ||
    buildset.unableToMerge ||
    buildset.notInPipeline ||
    item.dequeuedNeedingChange !== null
  ) {
    return true;
  }
  return buildset.jobGraphFrozen && buildset.jobs.every(jobComplete);
}

/** Every voting job SUCCESS or SKIPPED, and not all of them skipped. */
export function didAllJobsSucceed(tracked: BuildsetState): boolean {
  const buildset = untracked(tracked);
  if (!buildset.jobGraphFrozen || buildset.jobs.length === 0) {
    return false;
  }
  const voting = buildset.jobs.filter(jobVotes);
  const ok = voting.every((job) => job.build?.result === 'SUCCESS' || job.build?.result === 'SKIPPED');
  const anyRan = buildset.jobs.some((job) => job.build?.result !== 'SKIPPED');
  return ok && anyRan;
}

export function hasAnyJobFailed(buildset: BuildsetState): boolean {
  return anyJobFailed(untracked(buildset).jobs);
}

/** {@link hasAnyJobFailed} of jobs already read from the plain data (the walk of a queue holds it). */
export function anyJobFailed(jobs: readonly JobState[]): boolean {
  return jobs.some((job) => jobVotes(job) && jobFailed(job));
}

/**
 * Its merge into its branch is out as engine work (docs/gating.md#engine-work): it cannot be
 * called back, so only that merge's outcome decides the item now. Nothing moves, resets or
 * dequeues it meanwhile (docs/gating.md#items-being-merged).
 */
export function isMergingIntoBranch(item: ItemState): boolean {
  const branchMerge = untracked(item).buildset.branchMerge;
  return branchMerge !== undefined && branchMerge !== null;
}

/** Find an item of a queue by uuid. */
export function findItem(queue: QueueState, uuid: string | null): ItemState | null {
  if (uuid === null) {
    return null;
  }
  const position = queueIndex(queue).byUuid.get(uuid);
  return position === undefined ? null : queue.items[position];
}

/**
 * The chain of items ahead, nearest first, through the queue's uuid index (src/engine/queue-index.ts),
 * so each step costs the same whatever the length of the queue; `keep` picks the items returned and
 * `done` stops the walk early.
 */
function walkAhead(
  queue: QueueState,
  item: ItemState,
  keep: (position: number) => boolean,
  done: () => boolean,
): ItemState[] {
  const index = queueIndex(queue);
  const found: ItemState[] = [];
  const seen = new Set<string>();
  let next = untracked(item).itemAhead;
  while (!done() && next !== null && !seen.has(next)) {
    const position = index.byUuid.get(next);
    if (position === undefined) {
      break;
    }
    const current = index.items[position];
    if (keep(position)) {
      found.push(current);
    }
    seen.add(next);
    next = untracked(current).itemAhead;
  }
  return found;
}

/** The chain of items ahead, nearest first. */
export function itemsAhead(queue: QueueState, item: ItemState): ItemState[] {
  return walkAhead(
    queue,
    item,
    () => true,
    () => false,
  );
}

/**
 * The items of an item's chain ahead (as {@link itemsAhead} follows it) that hold any of these
 * changes, nearest first. The walk stops once every item of the queue holding one of them was met,
 * at once when none does, so an item whose changes sit just ahead of it costs the same whatever the
 * length of the queue (the Depends-On of a dependent queue, docs/gating.md#performance).
 */
export function itemsAheadHolding(
  queue: QueueState,
  item: ItemState,
  changes: ReadonlyArray<{ project: string; number: number }>,
): ItemState[] {
  const index = queueIndex(queue);
  const holders = new Set<number>();
  for (const change of changes) {
    for (const position of index.byChange.get(changeKey(change.project, change.number)) ?? []) {
      holders.add(position);
    }
  }
  return walkAhead(
    queue,
    item,
    (position) => holders.delete(position),
    () => holders.size === 0,
  );
}

/** Every item transitively behind an item (in queue order). */
export function allItemsBehind(queue: QueueState, item: ItemState): ItemState[] {
  const result: ItemState[] = [];
  const frontier = new Set<string>([untracked(item).uuid]);
  for (const other of queue.items) {
    const { uuid, itemAhead } = untracked(other);
    if (itemAhead !== null && frontier.has(itemAhead)) {
      result.push(other);
      frontier.add(uuid);
    }
  }
  return result;
}
