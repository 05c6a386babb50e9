/**
 * Build-time estimates of the started builds in a tenant's queues (docs/rest.md#status-document,
 * `estimated_time`), read in one query for a whole status: by `Engine.status` for each status
 * it computes, and by the scheduler for the status deltas of a pass (docs/live.md#times).
 */
import type { ItemState, PipelineState } from '../model/pipeline-state';
import { estimateKeyText, type BuildTimeRepository, type EstimateKey } from '../store/repositories/build-times';

/** The estimate in seconds of a job of an item, null when its history has none. */
export type EstimateLookup = (item: ItemState, jobName: string) => number | null;

/** The estimate a job of an item needs: the job on the project and branch of the item's first change. */
function estimateKey(item: ItemState, jobName: string): EstimateKey {
  const change = item.changes[0];
  return { projectCanonical: change.project, branch: change.branch, jobName };
}

/** The estimates of every started build of `states` (a build gets its estimate when it starts). */
export async function loadEstimates(
  repository: BuildTimeRepository,
  tenant: string,
  states: Iterable<PipelineState>,
): Promise<EstimateLookup> {
  const keys: EstimateKey[] = [];
  for (const state of states) {
    for (const queue of state.queues) {
      for (const item of queue.items) {
        if (item.live) {
          for (const job of item.buildset.jobs) {
            if (job.build?.startTime) {
              keys.push(estimateKey(item, job.job.name));
            }
          }
        }
      }
    }
  }
  return estimateLookup(keys.length === 0 ? [] : await repository.estimates(tenant, keys));
}

/** The lookup of the estimates read from history. */
export function estimateLookup(rows: ReadonlyArray<EstimateKey & { seconds: number }>): EstimateLookup {
  const estimates = new Map(rows.map((row) => [estimateKeyText(row), row.seconds]));
  return (item, jobName) => estimates.get(estimateKeyText(estimateKey(item, jobName))) ?? null;
}
