/**
 * Merge modes (docs/executor.md#merge-modes-and-workspace-schemes): how a project's changes are
 * merged for testing and submission. docs/executor.md#merge-modes says which git command each one
 * runs. The one home of the list: the configuration, the GraphQL enum, the build-request schema
 * and the merger all read it from here.
 */

export const MERGE_MODES = [
  'merge',
  'merge-resolve',
  'merge-recursive',
  'merge-ort',
  'cherry-pick',
  'squash-merge',
  'rebase',
] as const;
export type MergeMode = (typeof MERGE_MODES)[number];

/**
 * The modes a project's `merge-mode` accepts (docs/project-configuration.md#projects-and-templates): every mode but
 * `merge-recursive` and `merge-ort`, which only drivers use as their defaults.
 */
export const PROJECT_MERGE_MODES = [
  'merge',
  'merge-resolve',
  'cherry-pick',
  'squash-merge',
  'rebase',
] as const satisfies readonly MergeMode[];
