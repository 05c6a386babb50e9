/**
 * Duration estimates of a tenant's queues (docs/analytics.md#job-estimates), read in one query of
 * the recent-run samples for a whole status: by `Engine.status` for each status it computes
 * (every job of every live item, and every live item), and by the scheduler for the status
 * deltas of a pass (only the reference-style `estimatedTime` of started builds,
 * docs/live.md#times).
 */
import {
  ITEM_LEVELS,
  JOB_LEVELS,
  chooseEstimate,
  itemSampleKeys,
  jobSampleKeys,
  recentMean,
  sampleKeyText,
  type DurationEstimate,
  type DurationSamples,
  type SampleKey,
} from '../model/estimates';
import type { ItemState, PipelineState } from '../model/pipeline-state';
import type { DurationSampleRepository } from '../store/repositories/duration-samples';
import type { EstimateEntry, EstimateSource } from './status';
import { untracked } from './scheduler/item-changes';

/** The reference-style estimate in seconds of a job of an item, null when its history has none. */
export type EstimateLookup = (item: ItemState, jobName: string) => number | null;

/** What a status reads: the reference-style lookup and the calibrated estimates. */
export interface StatusEstimates extends EstimateSource {
  estimatedTime: EstimateLookup;
}

/** The project and branch of an item's first change: what its jobs are estimated for. */
function itemTarget(item: ItemState): { project: string; branch: string | null } {
  const change = item.changes[0];
  return { project: change.project, branch: change.branch };
}

/**
 * The estimates of `states` in one query. `scope` 'started': only the reference-style estimate of
 * started builds (what the scheduler's deltas carry); 'all': every job and item estimate too.
 */
export async function loadEstimates(
  repository: DurationSampleRepository,
  tenant: string,
  states: Iterable<PipelineState>,
  scope: 'started' | 'all' = 'all',
): Promise<StatusEstimates> {
  const keys = estimateKeys(states, scope);
  return estimatesFrom(keys.length === 0 ? new Map() : await repository.read(tenant, keys));
}

/** The sample keys the estimates of `states` read (`loadEstimates`). */
export function estimateKeys(states: Iterable<PipelineState>, scope: 'started' | 'all'): SampleKey[] {
  const keys: SampleKey[] = [];
  for (const state of states) {
    for (const queue of state.queues) {
      for (const tracked of queue.items) {
        // Only read: the plain data behind tracked items (src/engine/scheduler/item-changes.ts).
        const item = untracked(tracked);
        if (!item.live) {
          continue;
        }
        if (scope === 'all') {
          const { project, branch } = itemTarget(item);
          keys.push(...itemSampleKeys(item.pipeline, project));
          for (const job of item.buildset.jobs) {
            keys.push(...jobSampleKeys(project, branch, job.job.name));
          }
          continue;
        }
        // 'started': most items wait with no build started (outside the window); their target is not needed.
        for (const job of item.buildset.jobs) {
          if (job.build?.startTime) {
            const { project, branch } = itemTarget(item);
            keys.push(jobSampleKeys(project, branch, job.job.name)[0]);
          }
        }
      }
    }
  }
  return keys;
}

/** The estimates of the samples read (by `sampleKeyText`). */
export function estimatesFrom(samples: ReadonlyMap<string, DurationSamples>): StatusEstimates {
  const jobs = new Map<string, EstimateEntry>();
  const items = new Map<string, EstimateEntry>();
  const job = (project: string, branch: string | null, name: string): DurationEstimate | null => {
    const keys = jobSampleKeys(project, branch, name);
    const text = sampleKeyText(keys[0]);
    let entry = jobs.get(text);
    if (entry === undefined) {
      const levels = keys.map((key, index) => ({ level: JOB_LEVELS[index], samples: samples.get(sampleKeyText(key)) }));
      entry = { kind: 'job', project, branch, name, estimate: chooseEstimate(levels) };
      jobs.set(text, entry);
    }
    return entry.estimate;
  };
  const item = (pipeline: string, project: string): DurationEstimate | null => {
    const keys = itemSampleKeys(pipeline, project);
    const text = sampleKeyText(keys[0]);
    let entry = items.get(text);
    if (entry === undefined) {
      const levels = keys.map((key, index) => ({
        level: ITEM_LEVELS[index],
        samples: samples.get(sampleKeyText(key)),
      }));
      entry = { kind: 'item', project, branch: null, name: pipeline, estimate: chooseEstimate(levels) };
      items.set(text, entry);
    }
    return entry.estimate;
  };
  return {
    estimatedTime: (state, jobName) => {
      const { project, branch } = itemTarget(state);
      return recentMean(samples.get(sampleKeyText(jobSampleKeys(project, branch, jobName)[0])));
    },
    job,
    item,
    entries: () => [...jobs.values(), ...items.values()].filter((entry) => entry.estimate !== null),
  };
}
