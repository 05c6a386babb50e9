/**
 * The git side of the engine's merger port: speculative merges and gate merges are done by the
 * executor's Merger, the branches containing a tag's commit are read from its mirror, and a gate merge is announced to the connection's poller so it is emitted
 * exactly once as Sluice's own `ref-updated`.
 */
import type { MergeOutcome, MergerGateway } from '../engine/ports/merger';
import { toMergerItem, ZERO_REVISION, type MergeItem } from '../model/changes';
import { branchesContaining } from '../sources/git-branches';
import type { MergerItem } from '../model/build-request';
import type { GitProjects } from '../sources/git-projects';
import type { ConfigLocations, ProposedConfig } from '../model/proposed-config';
import { readMergedConfig } from './merged-config';
import type { Merger, MergeToBranchRequest } from './merger';

/** Announces Sluice's own branch update to the poller of the connection (emitted once as ref-updated). */
export type OwnUpdateAnnouncer = (
  connection: string,
  project: string,
  branch: string,
  newrev: string,
  oldrev: string,
) => Promise<void>;

export class GitMergerGateway implements MergerGateway {
  constructor(
    private readonly merger: Merger,
    private readonly projects: GitProjects,
    private readonly announce: OwnUpdateAnnouncer,
  ) {}

  async prepare(
    items: readonly MergeItem[],
    options: { configLocations?: ConfigLocations } = {},
  ): Promise<MergeOutcome> {
    const mergerItems = items.map((item) => this.mergerItem(item));
    let config: ProposedConfig[] = [];
    const outcome = await this.merger.speculate(mergerItems, async (merged) => {
      if (merged.ok && options.configLocations !== undefined) {
        const state = { items, mergerItems, itemFiles: merged.itemFiles, projects: merged.projects };
        config = await readMergedConfig(state, options.configLocations);
      }
    });
    if (!outcome.ok) {
      return { merged: false, error: outcome.detail };
    }
    return { merged: true, files: outcome.changedFiles, repoState: outcome.repoState, config };
  }

  /**
   * The branches containing a tag's commit (docs/project-configuration.md#jobs), read from the
   * project's mirror brought up to date first. A commit the mirror lacks is on no branch, as in
   * the reference; a mirror that cannot be updated is an error.
   */
  async branchesContaining(item: MergeItem): Promise<string[]> {
    const revision = item.newrev;
    if (revision === null || revision === ZERO_REVISION) {
      return [];
    }
    const { connection, project } = this.mergerItem(item);
    const cache = this.merger.cache;
    await cache.update(connection, project);
    return cache.mirrors.withMirror(connection, project, (mirror) => branchesContaining(mirror, revision));
  }

  /** Whether the change would merge into its branch now (a merge in a scratch clone, nothing pushed). */
  async canMergeToBranch(item: MergeItem): Promise<{ mergeable: true } | { mergeable: false; error: string }> {
    const outcome = await this.merger.mergeToBranch(this.branchRequest(item, true));
    return outcome.ok ? { mergeable: true } : { mergeable: false, error: outcome.detail };
  }

  async mergeToBranch(
    item: MergeItem,
  ): Promise<{ merged: true; oldrev: string | null; newrev: string } | { merged: false; error: string }> {
    const mergerItem = this.mergerItem(item);
    const branch = item.branch ?? this.projects.locate(item.project)?.defaultBranch ?? 'master';
    const outcome = await this.merger.mergeToBranch(this.branchRequest(item, false));
    if (!outcome.ok) {
      return { merged: false, error: outcome.detail };
    }
    if (outcome.oldrev !== outcome.newrev) {
      await this.announce(mergerItem.connection, mergerItem.project, branch, outcome.newrev, outcome.oldrev);
    }
    return { merged: true, oldrev: outcome.oldrev, newrev: outcome.newrev };
  }

  private branchRequest(item: MergeItem, dryRun: boolean): MergeToBranchRequest {
    const mergerItem = this.mergerItem(item);
    return {
      connection: mergerItem.connection,
      project: mergerItem.project,
      ref: item.ref,
      targetBranch: item.branch ?? this.projects.locate(item.project)?.defaultBranch ?? 'master',
      mergeMode: mergerItem.mergeMode,
      ...(dryRun ? { dryRun } : {}),
    };
  }

  private mergerItem(item: MergeItem): MergerItem {
    const location = this.projects.locate(item.project);
    return toMergerItem(item, {
      connection: location?.connection ?? item.connection,
      project: location?.name ?? item.project,
    });
  }
}
