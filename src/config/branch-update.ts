/**
 * Which tenants a branch update of Sluice's own merge reconfigures (docs/gating.md#speculative-layouts,
 * "After the merge"): those loading that branch whose configuration files at the new commit differ
 * from what their layout was built from. They are reloaded before the update is announced, so the
 * `ref-updated` and `change-merged` events of the merge are acted on with the new layout.
 */
import type { Layout } from './layout';
import type { BuildLayoutInput } from './layout-builder';
import type { GitConnection } from '../sources/git-connection';

export interface BranchUpdate {
  connection: string;
  /** The project's name within its connection. */
  project: string;
  branch: string;
  newrev: string;
}

export async function tenantsChangedBy(
  layouts: Iterable<Layout>,
  inputOf: (layout: Layout) => BuildLayoutInput | undefined,
  connections: ReadonlyMap<string, GitConnection>,
  update: BranchUpdate,
): Promise<string[]> {
  const connection = connections.get(update.connection);
  if (connection === undefined) {
    return [];
  }
  const tenants: string[] = [];
  let refreshed = false;
  for (const layout of layouts) {
    const loaded = inputOf(layout)?.projects.find(
      (p) => p.connectionName === update.connection && p.name === update.project,
    );
    if (loaded === undefined || loaded.tpc.include.size === 0 || !loaded.branches.includes(update.branch)) {
      continue;
    }
    if (!refreshed) {
      await connection.refresh(update.project);
      refreshed = true;
    }
    const after = await connection.readConfigFiles(update.project, update.newrev, loaded.tpc.extraConfigPaths);
    if (JSON.stringify(after.files) !== JSON.stringify(loaded.files.get(update.branch) ?? [])) {
      tenants.push(layout.tenantName);
    }
  }
  return tenants;
}
