/**
 * The merger port: speculative merges of an item, the branches containing a tag's commit and the
 * merge of a change into its branch.
 */
import type { MergeItem } from '../../model/changes';
import type { ConfigLocations, ProposedConfig } from '../../model/proposed-config';

export type MergeOutcome =
  | {
      merged: true;
      files: string[];
      repoState: Record<string, unknown>;
      /** The configuration the merged state proposes (docs/gating.md#speculative-layouts); absent or empty: none. */
      config?: ProposedConfig[];
    }
  | { merged: false; error: string };

export interface MergerGateway {
  /** Prepare the speculative state of an item: merge every change in order. */
  prepare(items: readonly MergeItem[], options?: { configLocations?: ConfigLocations }): Promise<MergeOutcome>;
  /**
   * Whether a change would merge into its target branch now, nothing merged (absent, or null: the
   * source cannot tell beforehand). A cycle checks all its changes before merging any.
   */
  canMergeToBranch?(item: MergeItem): Promise<{ mergeable: true } | { mergeable: false; error: string } | null>;
  /**
   * The branches of the item's project that contain its new revision (a tag's commit), sorted;
   * none when no branch does or the commit is unknown (docs/project-configuration.md#jobs).
   */
  branchesContaining(item: MergeItem): Promise<string[]>;
  /** Merge a change into its target branch (idempotent: an already merged change succeeds). */
  mergeToBranch(
    item: MergeItem,
  ): Promise<{ merged: true; oldrev: string | null; newrev: string } | { merged: false; error: string }>;
}
