/**
 * The supercedent manager (docs/gating.md#managers): one queue per project and branch (or ref) with
 * one active item; a newer change of the same branch joins the queue behind the running one.
 * Its queues cannot be reordered.
 */
import type { ChangeInfo } from '../../model/changes';
import { newQueue, singleItemWindow } from './queues';
import { admitIntoSharedQueue, nonGating } from './shared-queue';
import type { ManagerStrategy } from './types';

/** What a supercedent queue is kept by: the branch of changes and branch updates, the ref of other refs. */
function queueKey(change: ChangeInfo): string | null {
  return change.kind === 'branch' || change.kind === 'change' ? change.branch : change.ref;
}

export const supercedentManager: ManagerStrategy = {
  ...nonGating,
  changeQueue(pipeline, change, project) {
    const key = queueKey(change);
    const found = pipeline.state.queues.find((queue) => {
      const last = queue.items[queue.items.length - 1];
      if (!last) {
        return false;
      }
      const lastChange = last.changes[0];
      return lastChange.project === change.project && queueKey(lastChange) === key;
    });
    return (
      found ??
      newQueue(project.name, change.branch, [project.canonicalName], true, 1, singleItemWindow(pipeline.config.window))
    );
  },
  admitDependency: admitIntoSharedQueue,
  promotable: false,
  promoteReordersItems: true,
};
