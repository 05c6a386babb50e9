/**
 * Merging: the merge items of an item's speculative state, and the merge of a successful
 * item's changes into their branches (docs/gating.md#reporting merge on success).
 */
import type { ChangeInfo, MergeItem } from '../../model/changes';
import type { ItemState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import type { EngineLayout } from '../ports/layout';
import { pipelinesListen } from '../triggers';

/** The merge item of one change, merged with its project's merge mode. */
export function mergeItemOf(layout: EngineLayout, change: ChangeInfo, buildsetUuid: string): MergeItem {
  const project = layout.projects.get(change.project);
  return {
    project: change.project,
    connection: project?.connection ?? '',
    mergeMode: project?.mergeMode ?? 'merge',
    ref: change.ref,
    branch: change.branch,
    number: change.number,
    patchset: change.patchset,
    oldrev: change.oldrev,
    newrev: change.newrev,
    buildsetUuid,
  };
}

/**
 * Merge each change of a successful item into its branch; emits `project-change-merged` when
 * listened to. Resolves with null, or the reason the first refused merge gave.
 */
export async function mergeChanges(layout: EngineLayout, ctx: PassContext, item: ItemState): Promise<string | null> {
  for (const change of item.changes) {
    if (change.kind !== 'change') {
      continue;
    }
    const outcome = await ctx.gateways.merger.mergeToBranch(mergeItemOf(layout, change, item.buildset.uuid));
    if (!outcome.merged) {
      return outcome.error;
    }
    // The branch update itself is announced once as `ref-updated` by the git connection
    // (the merger gateway tells the poller to expect Sluice's own update).
    if (pipelinesListen(layout, 'project-change-merged')) {
      await ctx.emit({ type: 'project-change-merged', project: change.project, mergedChange: change.number });
    }
  }
  return null;
}
