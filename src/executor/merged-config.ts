/**
 * The configuration a speculative merge proposes (docs/gating.md#speculative-layouts): after the
 * merger applied an item's changes (those ahead first) in its scratch clones, the configuration
 * files of every project-branch a change touched configuration on are read at that branch's merged
 * head, before the clones are removed. A change to an `always-dynamic-branches` branch always
 * counts as touching configuration.
 */
import type { MergerItem } from '../model/build-request';
import type { MergeItem } from '../model/changes';
import { isConfigPath, type ConfigLocations, type ProposedConfig } from '../model/proposed-config';
import { readConfigSnapshots } from '../sources/git-connection';
import type { WorkspaceProject } from './merger';

export interface MergedState {
  /** The engine's merge items and the merger's items made of them, in the same order. */
  items: readonly MergeItem[];
  mergerItems: readonly MergerItem[];
  /** Files changed by each item (same order). */
  itemFiles: readonly string[][];
  projects: readonly WorkspaceProject[];
}

/** The proposed configuration of the merged state; empty when no item touched configuration. */
export async function readMergedConfig(state: MergedState, locations: ConfigLocations): Promise<ProposedConfig[]> {
  const touched = new Map<string, { item: MergeItem; merger: MergerItem; branch: string }>();
  state.items.forEach((item, index) => {
    const location = locations[item.project];
    const branch = item.branch;
    if (location === undefined || branch === null) {
      return;
    }
    const files = state.itemFiles[index] ?? [];
    if (
      location.dynamicBranches.includes(branch) ||
      files.some((file) => isConfigPath(file, location.extraConfigPaths))
    ) {
      touched.set(`${item.project}\0${branch}`, { item, merger: state.mergerItems[index], branch });
    }
  });
  const proposed: ProposedConfig[] = [];
  for (const { item, merger, branch } of touched.values()) {
    const workspace = state.projects.find((p) => p.connection === merger.connection && p.project === merger.project);
    const head = workspace?.speculativeBranches[branch];
    if (workspace === undefined || head === undefined) {
      continue;
    }
    const [snapshot] = await readConfigSnapshots(workspace.path, [head], locations[item.project].extraConfigPaths);
    proposed.push({
      project: item.project,
      branch,
      files: snapshot.files,
      ignoredLocations: snapshot.ignoredLocations,
    });
  }
  return proposed;
}
