/**
 * What the manager kinds with shared queues (dependent, serial, supercedent) have in common,
 * and the behaviour of every kind that does not gate (no windows, no waiting for Depends-On).
 */
import { changeId, type ChangeInfo } from '../../model/changes';
import type { QueueState } from '../../model/pipeline-state';
import { heldInAnotherQueue } from '../queue-index';
import { wouldShareQueue } from './queues';
import { NEEDS_MET, type ManagedPipeline, type ManagerStrategy } from './types';

/** A dependency enters live, ahead of the change in its queue, which it must be able to share. */
export function admitIntoSharedQueue(
  pipeline: ManagedPipeline,
  queue: QueueState,
  needed: ChangeInfo,
  change: ChangeInfo,
): { live: boolean } | { refused: string } {
  const neededProject = pipeline.layout.projects.get(needed.project);
  const elsewhere = heldInAnotherQueue(pipeline.state.queues, queue, needed);
  if (!neededProject || elsewhere || !wouldShareQueue(queue, neededProject, needed.branch)) {
    return {
      refused: `Change ${changeId(needed)} in project ${needed.project} does not share a change queue with ${changeId(change)} in project ${change.project}`,
    };
  }
  return { live: true };
}

/** Items do not wait for each other's Depends-On, windows stay as they are, nothing is re-checked. */
export const nonGating: Pick<
  ManagerStrategy,
  'enqueueChangesBehind' | 'neededChanges' | 'refusalBeforeMerge' | 'windowAfterReport' | 'reconfigureQueue'
> = {
  enqueueChangesBehind: () => Promise.resolve(),
  neededChanges: () => NEEDS_MET,
  refusalBeforeMerge: () => Promise.resolve(null),
  windowAfterReport: (queue) => queue.window,
  reconfigureQueue: () => undefined,
};
