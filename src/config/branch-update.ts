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
  /** Absent: `project` is a canonical or short name, else the project's name within this connection. */
  connection?: string;
  project: string;
  branch: string;
  /** Null: the branch's tip. */
  newrev: string | null;
}

export async function tenantsChangedBy(
  layouts: Iterable<Layout>,
  inputOf: (layout: Layout) => BuildLayoutInput | undefined,
  connections: ReadonlyMap<string, GitConnection>,
  update: BranchUpdate,
): Promise<string[]> {
  const tenants: string[] = [];
  const refreshed = new Set<GitConnection>();
  for (const layout of layouts) {
    const loaded = inputOf(layout)?.projects.find((p) =>
      update.connection === undefined
        ? p.canonicalName === update.project || p.name === update.project
        : p.connectionName === update.connection && p.name === update.project,
    );
    const connection = loaded === undefined ? undefined : connections.get(loaded.connectionName);
    if (
      loaded === undefined ||
      connection === undefined ||
      loaded.tpc.include.size === 0 ||
      !loaded.branches.includes(update.branch)
    ) {
      continue;
    }
    if (!refreshed.has(connection)) {
      await connection.refresh(loaded.name);
      refreshed.add(connection);
    }
    const newrev =
      update.newrev ?? (await connection.refs(loaded.name)).branches.find((b) => b.name === update.branch)?.sha;
    if (newrev === undefined || newrev === loaded.branchShas[update.branch]) {
      continue;
    }
    const after = await connection.readConfigFiles(loaded.name, newrev, loaded.tpc.extraConfigPaths);
    if (JSON.stringify(after.files) !== JSON.stringify(loaded.files.get(update.branch) ?? [])) {
      tenants.push(layout.tenantName);
    }
  }
  return tenants;
}
