/**
 * Before a pass opens its transaction, the branch updates among its pending trigger events
 * (`ref-updated`, GitHub's `push`, Gerrit's `change-merged`) are handed to the configuration
 * loader, which reloads the tenant when they change its configuration (docs/gating.md#speculative-layouts,
 * "After the merge"): the pass then acts on them with the new layout. Git is read there, with no
 * transaction open.
 */
import { ZERO_REVISION } from '../../model/changes';
import type { EngineEventRecord } from '../../store/repositories/engine-events';
import type { ProposedConfig } from '../../model/proposed-config';
import type { BranchUpdated, ConfigurationGateway } from '../ports/configuration';

const BRANCH_UPDATES: readonly string[] = ['ref-updated', 'push', 'change-merged'];

export function branchUpdatesOf(pending: readonly EngineEventRecord[]): BranchUpdated[] {
  const updates: BranchUpdated[] = [];
  for (const record of pending) {
    if (!record.valid || record.category !== 'trigger' || !BRANCH_UPDATES.includes(record.event.type)) {
      continue;
    }
    const event = record.event;
    const branch =
      event.branch ?? (event.ref?.startsWith('refs/heads/') ? event.ref.slice('refs/heads/'.length) : null);
    const newrev = event.newrev ?? null;
    if (branch === null || newrev === ZERO_REVISION) {
      continue;
    }
    updates.push({ project: event.project, branch, newrev });
  }
  return updates;
}

/** True when the tenant was reloaded for the pending events. */
export async function reloadForBranchUpdates(
  gateway: ConfigurationGateway | undefined,
  tenant: string,
  pending: readonly EngineEventRecord[],
): Promise<boolean> {
  const updates = gateway === undefined ? [] : branchUpdatesOf(pending);
  return updates.length > 0 && gateway !== undefined ? gateway.branchesUpdated(tenant, updates) : false;
}

/** Hand the configuration the pending speculative merges propose to the loader (secrets keys it needs). */
export async function prepareProposals(
  gateway: ConfigurationGateway | undefined,
  tenant: string,
  pending: readonly EngineEventRecord[],
): Promise<void> {
  const proposed: ProposedConfig[] = [];
  for (const record of pending) {
    if (record.valid && record.event.type === 'merge-completed') {
      proposed.push(...(record.event.config ?? []));
    }
  }
  if (proposed.length > 0) {
    await gateway?.proposalsMerged?.(tenant, proposed);
  }
}
