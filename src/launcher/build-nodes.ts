/** Nodes as the executor needs them: the `nodes` of build request params from nodes-provisioned node infos. */
import type { NodeInfo } from '../engine/interfaces';
import type { BuildNode } from '../model/build-request';

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The executor's view of a node the launcher provided (null for node kinds the executor cannot use). */
export function toBuildNode(info: NodeInfo): BuildNode | null {
  const connectionType = info.connectionType;
  if (connectionType !== 'local' && connectionType !== 'ssh') {
    return null;
  }
  return {
    id: info.id,
    label: info.label,
    connectionType,
    host: text(info.host),
    port: typeof info.port === 'number' ? info.port : null,
    username: text(info.username),
    path: text(info.path),
    hostKeys: Array.isArray(info.hostKeys) ? info.hostKeys.filter((line): line is string => typeof line === 'string') : [],
  };
}
