/**
 * A job's dependents (docs/gating.md#build-completion): skipped after it failed or by its `child_jobs`,
 * reset after it is retried, and the whole item canceled on a failure when it fails fast.
 */
import type { ItemState, JobState } from '../../model/pipeline-state';
import { jobsOfSameChange } from './job-changes';
import { jobFailed, jobVotes } from '../item-predicates';
import type { PassContext } from '../pass-context';
import { completeWithoutBuild } from './build-records';
import { cancelJob, cancelJobs, cancelNodeRequest } from './cancel';

/**
 * Jobs depending on any of `roots`, transitively (the roots themselves excluded); `hardOnly`
 * follows hard dependencies only.
 */
export function dependentsOf(item: ItemState, roots: readonly JobState[], hardOnly: boolean): JobState[] {
  if (roots.length === 0) {
    return [];
  }
  const names = new Set<string>(roots.map((root) => root.job.name));
  const found: JobState[] = [];
  const candidates = jobsOfSameChange(item, roots[0]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const job of candidates) {
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
export async function skipDependents(ctx: PassContext, item: ItemState, failed: JobState): Promise<void> {
  const dependents = new Set(dependentsOf(item, [failed], false));
  for (const job of item.buildset.jobs) {
    if (job !== failed && dependents.has(job) && job.build === null) {
      await cancelNodeRequest(ctx, job);
      await completeWithoutBuild(ctx, item, job, 'SKIPPED', `Skipped due to failed job ${failed.job.name}`);
    }
  }
}

/**
 * `child_jobs` returned by a build (or `zuul.child_jobs` in its data) prunes dependents
 * (docs/gating.md#build-completion step 5): an empty list skips every hard dependent, transitively; otherwise the
 * direct dependents not listed are skipped, with their hard dependents.
 */
export async function skipByChildJobs(
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
    const direct = jobsOfSameChange(item, job).filter(
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
export async function resetDependents(ctx: PassContext, item: ItemState, job: JobState): Promise<void> {
  for (const dependent of dependentsOf(item, [job], false)) {
    await cancelJob(ctx, item, dependent, 'reset');
    if (dependent.build !== null) {
      dependent.build = null;
      dependent.waitReason = null;
      dependent.waitingStatus = null;
    }
  }
}

export async function failFastIfNeeded(ctx: PassContext, item: ItemState, job: JobState): Promise<void> {
  if (!item.buildset.failFast || !jobVotes(job) || !jobFailed(job)) {
    return;
  }
  await cancelJobs(ctx, item, 'stay-current');
}
