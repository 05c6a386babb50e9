/** Item and job predicates of docs/gating.md#build-completion (pure functions over the runtime model). */
import type { BuildResult } from '../model/results';
import type { BuildsetState, ItemState, JobState, QueueState } from '../model/pipeline-state';

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
export function allJobsComplete(item: ItemState): boolean {
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
export function didAllJobsSucceed(buildset: BuildsetState): boolean {
  if (!buildset.jobGraphFrozen || buildset.jobs.length === 0) {
    return false;
  }
  const voting = buildset.jobs.filter(jobVotes);
  const ok = voting.every((job) => job.build?.result === 'SUCCESS' || job.build?.result === 'SKIPPED');
  const anyRan = buildset.jobs.some((job) => job.build?.result !== 'SKIPPED');
  return ok && anyRan;
}

export function hasAnyJobFailed(buildset: BuildsetState): boolean {
  return buildset.jobs.some((job) => jobVotes(job) && jobFailed(job));
}

/**
 * Its merge into its branch is out as engine work (docs/gating.md#engine-work): it cannot be
 * called back, so only that merge's outcome decides the item now. Nothing moves, resets or
 * dequeues it meanwhile (docs/gating.md#items-being-merged).
 */
export function isMergingIntoBranch(item: ItemState): boolean {
  return item.buildset.branchMerge !== undefined && item.buildset.branchMerge !== null;
}

/** Find an item of a queue by uuid. */
export function findItem(queue: QueueState, uuid: string | null): ItemState | null {
  if (uuid === null) {
    return null;
  }
  return queue.items.find((item) => item.uuid === uuid) ?? null;
}

/** Items directly behind an item. */
export function itemsBehind(queue: QueueState, item: ItemState): ItemState[] {
  return queue.items.filter((other) => other.itemAhead === item.uuid);
}

/** The chain of items ahead, nearest first. */
export function itemsAhead(queue: QueueState, item: ItemState): ItemState[] {
  const chain: ItemState[] = [];
  if (item.itemAhead === null) {
    return chain;
  }
  const byUuid = new Map(queue.items.map((candidate) => [candidate.uuid, candidate]));
  const seen = new Set<string>();
  let current = byUuid.get(item.itemAhead);
  while (current && !seen.has(current.uuid)) {
    chain.push(current);
    seen.add(current.uuid);
    current = current.itemAhead === null ? undefined : byUuid.get(current.itemAhead);
  }
  return chain;
}

/** Every item transitively behind an item (in queue order). */
export function allItemsBehind(queue: QueueState, item: ItemState): ItemState[] {
  const result: ItemState[] = [];
  const frontier = new Set<string>([item.uuid]);
  for (const other of queue.items) {
    if (other.itemAhead !== null && frontier.has(other.itemAhead)) {
      result.push(other);
      frontier.add(other.uuid);
    }
  }
  return result;
}
