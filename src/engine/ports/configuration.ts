/**
 * The configuration loader as the engine asks it before a pass (docs/gating.md#speculative-layouts,
 * "After the merge"): a branch update that changes a tenant's configuration reloads that tenant
 * before the update's events are acted on, so they run with the new layout; proposed
 * configuration gets what its speculative layout needs.
 */

import type { ProposedConfig } from '../../model/proposed-config';

/** A branch that moved, as a pending trigger event names it. */
export interface BranchUpdated {
  /** Short or canonical project name. */
  project: string;
  branch: string;
  /** The branch's new commit; null when the event does not say (the branch's tip is read). */
  newrev: string | null;
}

export interface ConfigurationGateway {
  /** Reload the tenant when the updates change its configuration; true when it was reloaded. */
  branchesUpdated(tenant: string, updates: readonly BranchUpdated[]): Promise<boolean>;
  /**
   * Speculative merges the pass is about to act on proposed this configuration: what building
   * their layouts needs is loaded first (the secrets key of a project whose first secret a
   * proposal adds; the build itself, inside the pass, reads nothing).
   */
  proposalsMerged?(tenant: string, proposed: readonly ProposedConfig[]): Promise<void>;
}
