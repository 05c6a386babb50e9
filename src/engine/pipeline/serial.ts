/**
 * The serial manager (docs/gating.md#managers): projects share queues as in a dependent pipeline,
 * but one item at a time is active and nothing is tested speculatively on top of another.
 */
import { sharedChangeQueue, singleItemWindow } from './queues';
import { admitIntoSharedQueue, nonGating } from './shared-queue';
import type { ManagerStrategy } from './types';

export const serialManager: ManagerStrategy = {
  ...nonGating,
  changeQueue: (pipeline, change, project) =>
    sharedChangeQueue(pipeline, project, change.branch, 1, singleItemWindow(pipeline.config.window)),
  admitDependency: admitIntoSharedQueue,
  promotable: true,
  promoteReordersItems: true,
};
