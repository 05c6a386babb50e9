/**
 * Where a build runs (docs/executor.md "Nodes"): on its primary node, the first node of the
 * nodeset. A primary `local` node's directory is the workspace root (kept afterwards: the
 * launcher removes it with the node, and a held node keeps it for inspection); with a primary
 * `ssh` node the steps run on that host over SSH from the executor's own per-build workspace;
 * without launcher nodes they run in that workspace. Every local node must have its directory on
 * this executor and every SSH node a key, or the build cannot use its nodes (NODE_FAILURE).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BuildNode, BuildRequestParams } from '../model/build-request';

export type Placement =
  { ok: true; root: string; owned: boolean; sshNode: BuildNode | null } | { ok: false; detail: string };

export function placeBuild(
  params: BuildRequestParams,
  workRoot: string,
  sshKeyFor: (node: BuildNode) => string | undefined,
): Placement {
  const nodes = params.nodes ?? [];
  for (const node of nodes) {
    if (
      node.connectionType === 'local' &&
      (node.path === null || !path.isAbsolute(node.path) || !existsSync(node.path))
    ) {
      return { ok: false, detail: `Node ${node.id} has no workspace directory on this executor` };
    }
    if (node.connectionType === 'ssh' && sshKeyFor(node) === undefined) {
      return { ok: false, detail: `Node ${node.id} is reached over SSH but this executor has no SSH key for it` };
    }
  }
  const primary = nodes[0];
  if (primary?.connectionType === 'local' && primary.path !== null) {
    return { ok: true, root: primary.path, owned: false, sshNode: null };
  }
  return {
    ok: true,
    root: path.join(workRoot, params.buildUuid),
    owned: true,
    sshNode: primary?.connectionType === 'ssh' ? primary : null,
  };
}
