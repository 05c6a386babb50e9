/**
 * Which of an item's changes a job runs for (docs/gating.md#dependency-cycles): an item of a
 * cycle holds several changes, each with its own jobs, and a job deduplicated across the cycle
 * runs for several of them. Job dependencies are looked up among the jobs of the same change.
 */
import type { ChangeInfo } from '../../model/changes';
import type { ItemState, JobState } from '../../model/pipeline-state';

/** Indexes into `item.changes` of the changes the job runs for (the first is its own). */
export function jobChangeIndexes(job: JobState): number[] {
  return [job.change ?? 0, ...(job.otherChanges ?? [])];
}

/** The change a job runs for (its own, when it was deduplicated for others too). */
export function changeOfJob(item: ItemState, job: JobState): ChangeInfo {
  return item.changes[job.change ?? 0] ?? item.changes[0];
}

/** The item's jobs that run for a change `job` runs for: where its dependencies and dependents are. */
export function jobsOfSameChange(item: ItemState, job: JobState): JobState[] {
  if (item.changes.length < 2) {
    return item.buildset.jobs;
  }
  const mine = jobChangeIndexes(job);
  return item.buildset.jobs.filter((candidate) => jobChangeIndexes(candidate).some((index) => mine.includes(index)));
}
