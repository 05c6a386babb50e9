/**
 * How a build's steps reach its nodes (docs/executor.md "Nodes"): the node inventory and SSH
 * files in the workspace, the variables pointing at them, and, when the steps run on an SSH
 * primary node, the remote step runner; with other SSH nodes in the build it also gets an agent
 * holding their keys, forwarded to the step sessions. `close()` stops the agent.
 */
import path from 'node:path';
import type { BuildNode, BuildRequestParams } from '../model/build-request';
import { nodeFiles, writeNodeFiles } from './node-inventory';
import { startBuildAgent, type BuildAgent } from './ssh-agent';
import { sshRemoteSteps, type RemoteSteps } from './ssh-runner';

export interface NodeAccess {
  /** Variables for the steps (`SLUICE_INVENTORY_FILE`, `SLUICE_NODE_DIR`, `SLUICE_SSH_CONFIG`, ...). */
  env: Record<string, string>;
  /** Set when the steps run on an SSH primary node. */
  remote?: RemoteSteps;
  close(): Promise<void>;
}

export interface NodeAccessInput {
  params: BuildRequestParams;
  workspaceRoot: string;
  /** The primary node when it is an SSH node (the steps run there), else null. */
  sshPrimary: BuildNode | null;
  sshKeyFor(node: BuildNode): string | undefined;
  /** Environment of the executor's own `ssh`, `ssh-agent` processes (PATH). */
  env: Record<string, string>;
  /** Where the workspace already is on the SSH primary (a paused build continuing there). */
  remoteRoot?: string;
}

/** The build cannot reach its nodes: it ends NODE_FAILURE. */
export class NodeAccessError extends Error {}

export async function openNodeAccess(input: NodeAccessInput): Promise<NodeAccess> {
  const { params, workspaceRoot, sshPrimary } = input;
  const env = writeNodeFiles({ params, workspaceRoot, sshKeyFor: input.sshKeyFor, remoteSteps: sshPrimary !== null });
  if (sshPrimary === null) {
    return { env, close: () => Promise.resolve() };
  }
  const keyFile = input.sshKeyFor(sshPrimary);
  if (keyFile === undefined) {
    throw new NodeAccessError(`Node ${sshPrimary.id} is reached over SSH but this executor has no SSH key for it`);
  }
  const otherKeys = new Set(
    (params.nodes ?? []).flatMap((node) =>
      node !== sshPrimary && node.connectionType === 'ssh' ? (input.sshKeyFor(node) ?? []) : [],
    ),
  );
  let agent: BuildAgent | undefined;
  if (otherKeys.size > 0) {
    try {
      agent = await startBuildAgent([...otherKeys], input.env);
    } catch (err) {
      throw new NodeAccessError(err instanceof Error ? err.message : String(err));
    }
  }
  const files = nodeFiles(workspaceRoot);
  const remote = sshRemoteSteps({
    node: sshPrimary,
    keyFile,
    localRoot: workspaceRoot,
    remoteRoot: input.remoteRoot,
    stateDir: path.join(workspaceRoot, '.ssh'),
    env: input.env,
    rewriteFiles: [files.inventory, files.sshConfig].map((file) => path.relative(workspaceRoot, file)),
    agentSocket: agent?.socket,
  });
  return { env, remote, close: async () => agent?.stop() };
}
