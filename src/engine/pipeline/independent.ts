/**
 * The independent manager (docs/gating.md#managers): every change gets a queue of its own, all of
 * them active at once; its Depends-On changes come along as non-live items ahead of it.
 */
import { newQueue } from './queues';
import { nonGating } from './shared-queue';
import type { ManagerStrategy } from './types';

export const independentManager: ManagerStrategy = {
  ...nonGating,
  changeQueue: (pipeline, _change, project) =>
    newQueue(project.name, null, [project.canonicalName], true, 0, { ...pipeline.config.window, window: 0 }),
  admitDependency: () => ({ live: false }),
  promotable: true,
  promoteReordersItems: false,
};
