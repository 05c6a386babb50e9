/**
 * Merging: the merge items of an item's speculative state and of the merge of a successful
 * item's changes into their branches (both done as engine work, docs/gating.md#engine-work).
 */
import type { ChangeInfo, MergeItem } from '../../model/changes';
import type { EngineLayout } from '../ports/layout';

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
